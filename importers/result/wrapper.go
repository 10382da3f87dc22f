package result

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"benchlens/importers/jsonx"
	"benchlens/model"
)

// wrapperKey reads the load point out of a wrapper's key: "8", "c8", "concurrency_8".
var wrapperKey = regexp.MustCompile(`^(?:[A-Za-z_-]*?)(\d+)$`)

// wrapperKeys returns the keys, in load order, of an object that wraps several results keyed
// by concurrency ({"1": {llmperf summary}, "8": {…}}, a common community layout), or nil.
func wrapperKeys(obj map[string]any) []string {
	if len(obj) == 0 {
		return nil
	}
	type key struct {
		k string
		n int
	}
	var keys []key
	for k, v := range obj {
		m := wrapperKey.FindStringSubmatch(k)
		inner := jsonx.Object(v)
		if m == nil || inner == nil {
			return nil
		}
		if tool := identify(inner).tool; tool == "" || tool == "genai-perf-raw" { // raw exports are parts, not runs
			return nil
		}
		n, _ := strconv.Atoi(m[1])
		keys = append(keys, key{k, n})
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].n < keys[j].n })
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k.k
	}
	return out
}

// parseWrapper imports each wrapped result as its own run, the key read as the run's
// max_concurrency (its load point).
func parseWrapper(name string, obj map[string]any, keys []string) ([]*model.Run, error) {
	var runs []*model.Run
	for _, k := range keys {
		inner, _, err := parseValue(name, obj[k])
		if err != nil {
			return runs, fmt.Errorf("key %q: %w", k, err)
		}
		n, _ := strconv.Atoi(wrapperKey.FindStringSubmatch(k)[1])
		for _, r := range inner {
			r.IdentifiedBy += fmt.Sprintf(", wrapped under key %q of an object keyed by concurrency", k)
			switch {
			case !r.MaxConcurrency.Known():
				r.MaxConcurrency = model.Num(n)
			case r.MaxConcurrency.F() != float64(n):
				r.Warnings = append(r.Warnings, model.Warn(model.WarnWrapperKey, strconv.Quote(k), r.MaxConcurrency.F()))
			}
			setExtra(r, "wrapper_key", k)
		}
		runs = append(runs, inner...)
	}
	return runs, nil
}

// errVLLMNightlyTable explains why vLLM's nightly-benchmark summary is refused.
var errVLLMNightlyTable = errors.New("a vLLM nightly-benchmark summary table (.buildkite/nightly-benchmarks " +
	"summary-nightly-results.py / convert-results-json-to-markdown.py): recognised, not imported. Its rows are a " +
	"markdown table's display columns (test name, GPU, successful requests, throughput, TTFT and ITL mean / " +
	"median / p99) with no model, tool version or load point; import the per-test result JSONs of its " +
	"results/ folder instead")

// isVLLMNightlyTable tells vLLM's nightly summary, an array of rows with display-named
// columns ("Test name", "GPU", "Tput (req/s)", "Mean TTFT (ms)" …).
func isVLLMNightlyTable(arr []any) bool {
	if len(arr) == 0 {
		return false
	}
	row := jsonx.Object(arr[0])
	if row == nil || !has(row, "Test name") {
		return false
	}
	for _, k := range []string{"GPU", "Tput (req/s)", "Mean TTFT (ms)", "Mean latency (ms)", "Successful req.", "# of req."} {
		if has(row, k) {
			return true
		}
	}
	return false
}
