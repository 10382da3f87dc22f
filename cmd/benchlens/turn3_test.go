package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// turn3Result tells the fixtures that are results by themselves (imported alone); the rest
// are evidence or files kept beside a run, imported beside the smallest vLLM result.
var turn3Result = regexp.MustCompile(`mlperf_log_(summary|detail)\.txt$|_stage_\d+_lifecycle_metrics\.json$`)

// Every real file of testdata/fixtures/turn3 goes the way a user's does: into a bundle (alone
// for a result, beside a result otherwise), through import, then show --json for each run.
// The output is golden, one file per fixture (go test -update rewrites them), so a figure
// that changes shows as a diff, and the key figures are checked against the files' own, as
// SOURCES.md states them (rounded there, so to their last digit).
func TestTurn3FixturesShowJSON(t *testing.T) {
	for _, file := range testdataFiles(t, "../../testdata/fixtures/turn3") {
		base := filepath.Base(file)
		t.Run(base, func(t *testing.T) {
			show := turn3Show(t, file)
			golden(t, "turn3/show/"+base+".json", show)
			var runs any
			if err := json.Unmarshal([]byte(show), &runs); err != nil {
				t.Fatal(err)
			}
			checked := false
			for _, c := range turn3Figures {
				if !strings.HasPrefix(base, c.file) {
					continue
				}
				checked = true
				got, ok := jsonAt(runs, c.path)
				if !ok {
					t.Errorf("%s: nothing at %s", c.file, c.path)
					continue
				}
				if math.Abs(got-c.want) > c.tol {
					t.Errorf("%s: %s = %v, the file says %v", c.file, c.path, got, c.want)
				}
			}
			if !checked {
				t.Errorf("%s: no figure of it is checked against SOURCES.md", base)
			}
		})
	}
}

// turn3Figures are the files' own figures (testdata/fixtures/turn3/SOURCES.md), where show
// --json keeps them: the first run's path, the value, and the rounding of SOURCES.md.
var turn3Figures = []struct {
	file, path string
	want, tol  float64
}{
	{"gpu_01", "0.evidence.0.trace.kernels", 78016, 0},
	{"gpu_01", "0.evidence.0.trace.device_time_us", 179072.697, 0.001},
	// cuBLAS gemvx's two bf16 rows as one op: 61,602,133 + 26,427,871 ns (34.4 % + 14.8 %).
	{"gpu_01", "0.evidence.0.trace.top_ops.0.time_us", 88030.004, 0.001},
	{"gpu_03", "0.evidence.0.trace.kernels", 1312, 0},
	{"gpu_03", "0.evidence.0.trace.top_ops.0.count", 331, 0},
	{"gpu_03", "0.evidence.0.trace.top_ops.0.time_us", 267060, 5},
	{"gpu_03", "0.evidence.0.trace.copies.HtoD.count", 254, 0},
	{"gpu_03", "0.evidence.0.trace.copies.HtoD.bytes", 225065752, 0},
	{"gpu_03", "0.evidence.0.trace.copies.DtoH.bytes", 51200, 0},
	{"gpu_03", "0.evidence.0.trace.launches.count", 1312, 0},
	{"gpu_05", "0.request_throughput", 100.35, 0.005},
	{"gpu_05", "0.output_throughput", 29228.22, 0.005},
	{"gpu_05", "0.request_rate", 101, 0},
	{"gpu_05", "0.ttft.tool.median", 180.76, 0.005},
	{"gpu_05", "0.ttft.tool.p90", 309.53, 0.005},
	{"gpu_05", "0.ttft.tool.p99", 452.74, 0.005},
	{"gpu_05", "0.ttft.tool.max", 1791.83, 0.005},
	{"gpu_05", "0.tpot.tool.median", 124.29, 0.005},
	{"gpu_05", "0.tpot.tool.p90", 133.47, 0.005},
	{"gpu_05", "0.tpot.tool.p99", 146.04, 0.005},
	{"gpu_05", "0.e2el.tool.median", 31110, 5},
	{"gpu_06", "0.num_prompts", 245760, 0},
	{"gpu_06", "0.ttft.tool.median", 180.76, 0.005},
	{"gpu_06", "0.output_throughput", 29228.2, 0.05},
	{"gpu_08", "0.request_throughput", 107.477, 0.0005},
	{"gpu_08", "0.output_throughput", 31302.7, 0.05},
	{"gpu_08", "0.e2el.tool.median", 1391700, 50},
	{"gpu_10", "0.request_rate", 1, 0},
	{"gpu_10", "0.completed", 60, 0},
	{"gpu_10", "0.failed", 0, 0},
	{"gpu_10", "0.ttft.tool.median", 31.03, 0.005},
	{"gpu_10", "0.ttft.tool.p90", 35.41, 0.005},
	{"gpu_10", "0.ttft.tool.p99", 39.70, 0.005},
	{"gpu_10", "0.tpot.tool.median", 3.468, 0.0005},
	{"gpu_10", "0.e2el.tool.median", 479.6, 0.05},
	{"gpu_10", "0.output_throughput", 64.23, 0.005},
	{"gpu_10", "0.request_throughput", 1.017, 0.0005},
	{"gpu_12", "0.files.1.size", 0, math.Inf(1)}, // kept beside the run, no run of its own
	{"gpu_13", "0.evidence.0.server_metrics.requests", 937, 0},
	{"gpu_13", "0.evidence.0.server_metrics.rate", 11.87, 0.005},
	{"gpu_13", "0.evidence.0.server_metrics.latency.tpot.median", 10.0, 0.05},
	{"npu_01", "0.evidence.0.trace.launches.count", 191, 0},
	{"npu_01", "0.evidence.0.trace.step_time.columns_us.Computing", 8873.756, 0.001},
	{"npu_01", "0.evidence.0.trace.step_time.columns_us.Free", 25744.05, 0.01},
	{"npu_01", "0.evidence.0.trace.busy_fraction", 0.812, 0.0005},
	{"npu_02", "0.evidence.0.trace.device_time_us", 114865.6, 0.05},
	{"npu_03", "0.evidence.0.trace.host_device.ops", 859, 0},
	{"npu_04", "0.evidence.0.trace.device_time_us", 8873.75, 0.005},
	{"npu_04", "0.evidence.0.trace.kernels", 187, 0},
	{"npu_05", "0.evidence.0.trace.launches.count", 191, 0},
	{"npu_05", "0.evidence.0.trace.launches.time_us", 4014.44, 0.005},
	{"npu_06", "0.evidence.0.trace.step_time.columns_us.Computing", 8873.756, 0.001},
	{"npu_06", "0.evidence.0.trace.step_time.columns_us.Communication(Not Overlapped)", 101963.203, 0.001},
	{"npu_06", "0.evidence.0.trace.step_time.columns_us.Overlapped", 4028.675, 0.001},
	{"npu_06", "0.evidence.0.trace.step_time.columns_us.Free", 25744.05, 0.001},
	{"npu_06", "0.evidence.0.trace.step_time.columns_us.Stage", 136581.0, 0.05},
	{"npu_06", "0.evidence.0.trace.step_time.columns_us.Preparing", 17902.5, 0.05},
	{"npu_06", "0.evidence.0.trace.busy_fraction", 0.812, 0.0005},
	{"npu_07", "0.evidence.0.trace.collectives.0.count", 4, 0},
	{"npu_07", "0.evidence.0.trace.collectives.0.elapse_us", 105991.878, 0.001},
	{"npu_08", "0.evidence.0.trace.device_time_us", 37370.97, 0.005},
	{"npu_09", "0.evidence.0.trace.profiler.rank", 0, 0}, // present
	{"npu_09", "0.evidence.0.trace.profiler.activities.#", 2, 0},
	{"npu_10", "0.evidence.0.utilisation.inventory.devices.#", 16, 0},
	{"npu_10", "0.evidence.0.utilisation.inventory.devices.0.hbm_total_mb", 65536, 0},
	{"npu_10", "0.evidence.0.utilisation.inventory.devices.0.hbm_used_mb", 37397, 0},
	{"npu_12", "0.evidence.0.utilisation.inventory.devices.#", 8, 0},
	{"npu_12", "0.evidence.0.utilisation.inventory.devices.0.hbm_total_mb", 65536, 0},
	{"npu_13", "0.evidence.0.log.version", 0, math.Inf(1)},
}

// jsonAt reads a number at a dotted path of decoded JSON ("0.ttft.tool.median"; "#" is a
// list's length); a present string or object counts as 0.
func jsonAt(v any, path string) (float64, bool) {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[k]; !ok {
				return 0, false
			}
		case []any:
			if k == "#" {
				return float64(len(x)), true
			}
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(x) {
				return 0, false
			}
			v = x[i]
		default:
			return 0, false
		}
	}
	switch x := v.(type) {
	case float64:
		return x, true
	case nil:
		return 0, false
	}
	return 0, true
}

// turn3Show imports one fixture and returns show --json of every run, as one JSON array.
func turn3Show(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "run")
	writeFile(t, filepath.Join(bundle, filepath.Base(file)), data)
	if !turn3Result.MatchString(file) {
		writeFile(t, filepath.Join(bundle, "result.json"), []byte(besideResult))
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	out, errOut, code := bl(t, "--db", db, "import", bundle)
	if code != 0 {
		t.Fatalf("import: exit %d: %s%s", code, out, errOut)
	}
	var shows []json.RawMessage
	for _, id := range regexp.MustCompile(`(?m)^\s*(\d+)\s`).FindAllStringSubmatch(mustRun(t, "--db", db, "runs"), -1) {
		shows = append(shows, json.RawMessage(mustRun(t, "--db", db, "show", id[1], "--json")))
	}
	all, err := json.Marshal(shows)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, all, "", "  "); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(b.String(), filepath.Dir(bundle), "$DIR") + "\n"
}
