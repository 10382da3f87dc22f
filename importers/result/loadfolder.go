package result

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"benchlens/model"
)

// sweepFolder is a folder that names its load point: AIPerf's parameter sweep writes each value
// to concurrency_N/ (or request_rate_R/), genai-perf's artifact folder ends in -concurrencyN or
// -request_rateR.
var sweepFolder = regexp.MustCompile(`(?:^|[-_])(concurrency|request_rate)_?(\d+(?:\.\d+)?)$`)

// loadFromFolders fills an AIPerf or genai-perf run's load point from the folders around its
// file when the file's input_config does not say.
func loadFromFolders(run *model.Run, name string) {
	if run.Tool != "aiperf" && run.Tool != "genai-perf" {
		return
	}
	if run.MaxConcurrency.Known() || run.RequestRate.Known() {
		return
	}
	dirs := strings.Split(path.Dir(strings.ReplaceAll(name, `\`, "/")), "/")
	for i := len(dirs) - 1; i >= 0; i-- {
		m := sweepFolder.FindStringSubmatch(dirs[i])
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			return
		}
		if m[1] == "concurrency" {
			run.MaxConcurrency = model.Num(v)
		} else {
			run.RequestRate = model.Num(v)
		}
		setExtra(run, "load_from", "folder "+dirs[i])
		return
	}
}
