package result

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/model"
)

// csvArtifactDir reads genai-perf's artifact folder name:
// {model}-{service_kind}-{backend|endpoint_type}-{concurrencyN|request_rateR}.
var csvArtifactDir = regexp.MustCompile(`^(.+)-(openai|triton|tensorrtllm_engine|dynamic_grpc|torchserve|openai_[a-z]+)-([A-Za-z0-9_]+)-(?:concurrency(\d+)|request_rate([\d.]+))$`)

// IsSummaryCSV sniffs the summary CSV of genai-perf (profile_export_genai_perf.csv,
// formats/results.md 3.3) and of AIPerf (profile_export_aiperf.csv, as AIPerf's docs show it):
// a "Metric,avg," header. Utilisation and profiler CSVs have their own rows.
func IsSummaryCSV(f *format.File) bool { return bytes.HasPrefix(f.Lead(), []byte("Metric,avg,")) }

// ReadSummaryCSV reads a genai-perf or AIPerf summary CSV into its run.
func ReadSummaryCSV(f *format.File) (format.Parsed, error) {
	name, data, text := f.Name, f.Data, f.Lead()
	lead := bytes.Count(data[:len(data)-len(text)], []byte{'\n'})
	r := csv.NewReader(bytes.NewReader(text))
	r.FieldsPerRecord = -1

	obj := map[string]any{}
	var warnings []model.Warning
	var header []string // columns of the current section
	section, blanks, prev := 0, 0, 0
	aiperf := false
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return format.Parsed{}, &position.Error{File: name, Line: pe.Line + lead, Offset: -1, Err: pe.Err}
			}
			return format.Parsed{}, position.InFile(name, err)
		}
		line, _ := r.FieldPos(0)
		line += lead
		if prev > 0 && line > prev+1 {
			blanks++ // encoding/csv skips blank lines; the jump in line numbers shows them
		}
		prev = line
		if blanks >= 2 {
			break // telemetry sections follow, with or without data
		}
		if rec[0] == "Metric" || rec[0] == "Endpoint" {
			switch {
			case section == 0 && len(rec) > 1 && rec[1] == "avg":
				section, header = 1, rec
				aiperf = slices.Contains(rec, "std") || slices.Contains(rec, "p1")
			case section == 1 && len(rec) == 2 && rec[1] == "Value":
				section, header = 2, rec
			default:
				section = -1 // telemetry or anything unknown: the summary is over
			}
			if section < 0 {
				break
			}
			continue
		}
		if section < 1 || strings.TrimSpace(rec[0]) == "" {
			continue
		}
		key, unit := csvMetricKey(rec[0])
		m := map[string]any{}
		if unit != "" {
			m["unit"] = unit
		}
		for i := 1; i < len(rec) && i < len(header); i++ {
			s := strings.ReplaceAll(strings.TrimSpace(rec[i]), ",", "")
			if s == "" || strings.EqualFold(s, "n/a") {
				continue
			}
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return format.Parsed{}, &position.Error{File: name, Line: line, Offset: -1,
					Err: fmt.Errorf("%s, column %q: %q is not a number", rec[0], header[i], rec[i])}
			}
			stat := header[i]
			if section == 2 {
				stat = "avg"
			}
			m[stat] = x
		}
		if old, dup := obj[key]; dup {
			if fmt.Sprint(old) != fmt.Sprint(m) {
				warnings = append(warnings, model.Warn(model.WarnRowRepeats, line, strconv.Quote(rec[0])))
			}
			continue // genai-perf can write the goodput row twice
		}
		obj[key] = m
	}

	tool := "genai-perf"
	if aiperf {
		tool = "aiperf"
	}
	run := model.NewRun(tool)
	run.Era = eraSummaryCSV
	run.IdentifiedBy = "summary CSV (Metric,avg,… header) without std / p1 columns: genai-perf"
	if aiperf {
		run.IdentifiedBy = "summary CSV (Metric,avg,… header) with std / p1 columns: AIPerf"
	}
	known, err := readNVMetrics(run, obj, aiperf)
	if err != nil {
		return format.Parsed{}, position.InFile(name, err)
	}
	if aiperf {
		run.Definitions = map[string]string{
			model.TTFT: "per request, from request send to the first token",
			model.ITL:  "per request: (request_latency - ttft) / (output_sequence_length - 1); statistics over requests (what vLLM calls TPOT)",
			model.E2EL: "per request, from request send to the last response",
		}
	} else {
		run.Definitions = genaiPerfDefinitions()
	}
	if m := csvArtifactDir.FindStringSubmatch(artifactDir(name)); m != nil {
		run.Model, run.Backend = m[1], m[3]
		if c, err := strconv.ParseFloat(m[4], 64); err == nil {
			run.MaxConcurrency = model.Num(c)
		}
		if rr, err := strconv.ParseFloat(m[5], 64); err == nil {
			run.RequestRate = model.Num(rr)
		}
		setExtra(run, "model_from", "artifact directory name (genai-perf writes / in the model as _)")
	}
	keepRest(run, obj, known)
	return format.Parsed{Runs: []*model.Run{run}, Warnings: warnings}, nil
}

// csvMetricKey turns a row name back into the metric key: "Time To First Token (ms)" is
// time_to_first_token in ms; "Request Throughput (per sec)" is request_throughput.
func csvMetricKey(row string) (key, unit string) {
	row = strings.TrimSpace(row)
	if i := strings.LastIndex(row, "("); i >= 0 && strings.HasSuffix(row, ")") {
		row, unit = row[:i], row[i+1:len(row)-1]
	}
	return strings.ToLower(strings.Join(strings.Fields(row), "_")), unit
}
