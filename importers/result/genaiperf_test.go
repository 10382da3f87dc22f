package result

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/model"
)

func TestAIPerfFixture(t *testing.T) {
	// Fixture 06: NVIDIA AIPerf 0.11.0, schema 1.3, streaming chat at concurrency 16.
	run := parseRuns(t, "concurrency_16/profile_export_aiperf.json", loadResultFixture(t, "06_profile_export_aiperf.json"), 1)[0]
	if run.Tool != "aiperf" || run.ToolVersion != "0.11.0" || run.Era != "schema 1.3" {
		t.Errorf("tool %q version %q era %q", run.Tool, run.ToolVersion, run.Era)
	}
	if run.Model != "qwen3-4b" || run.Tokenizer != "Qwen/Qwen3-4B-Instruct-2507-FP8" || run.Backend != "chat" {
		t.Errorf("model %q tokenizer %q backend %q", run.Model, run.Tokenizer, run.Backend)
	}
	if run.Date != "2026-09-30T16:53:39.902853" {
		t.Errorf("date %q", run.Date)
	}
	checkNums(t, "field", fieldsOf(run), map[string]float64{
		"completed": 2044, "failed": 0, "num_prompts": 2044, "max_concurrency": 16,
		"duration_s": 299.935655192, "request_throughput": 6.814794988917071,
		"output_throughput": 1792.2310692134672, "request_goodput": 6.814794988917071,
	})
	checkNums(t, "summary", summaryOf(run), map[string]float64{
		"ttft.mean": 28.736161119863013, "ttft.p50": 26.7700945, "ttft.median": 26.7700945,
		"ttft.p1": 23.349867109999998, "ttft.std": 7.237359140441934,
		"itl.p99": 9.838724690325117, "e2el.max": 10145.211403,
		"inter_chunk_latency.mean": 8.84740421014943, "time_to_second_token.p50": 8.4479965,
		"http_req_waiting.mean": 28.559369195694714,
	})
	// Non-time metrics stay whole in Extra, never in the ms summary.
	for _, k := range []string{"output_sequence_length", "http_req_data_received", "output_token_throughput_per_user", "input_config", "run_info"} {
		if run.Summary[k] != nil || run.Extra[k] == nil {
			t.Errorf("%s: summary %v, extra present %v", k, run.Summary[k], run.Extra[k] != nil)
		}
	}
	if c := run.Extra["sample_counts"].(map[string]any); c["inter_chunk_latency"] != int64(532759) {
		t.Errorf("sample counts %v", c)
	}
	if !strings.Contains(run.Definitions[model.ITL], "TPOT") || run.Definitions["inter_chunk_latency"] == "" {
		t.Errorf("definitions %v", run.Definitions)
	}
}

// AIPerf ≥0.3 writes min_request_timestamp and max_response_timestamp with unit "ns": epoch
// nanoseconds, points in time. They are no latency (as one they read 1.8e12 ms, "implausible"),
// and the totals give a summary-only run its request shape.
func TestAIPerfTimestampsAndTotals(t *testing.T) {
	data := []byte(`{"schema_version": "1.3", "aiperf_version": "0.10.0", "benchmark_id": "x",
 "request_count": {"unit": "requests", "avg": 96.0},
 "time_to_first_token": {"unit": "ms", "avg": 118.1, "p50": 117.3, "count": 96},
 "min_request_timestamp": {"unit": "ns", "avg": 1.759522419158355e18, "min": 1.759522419158355e18, "max": 1.759522419158355e18},
 "max_response_timestamp": {"unit": "ns", "avg": 1.759522447630562e18},
 "total_isl": {"unit": "tokens", "avg": 44878.0}, "total_osl": {"unit": "tokens", "avg": 21911.0},
 "total_output_tokens": {"unit": "tokens", "avg": 21911.0}}`)
	run := parseRuns(t, "c8/profile_export_aiperf.json", data, 1)[0]
	Settle(run)
	for _, k := range []string{"min_request_timestamp", "max_response_timestamp"} {
		if run.Summary[k] != nil || run.Extra[k] == nil {
			t.Errorf("%s: summary %v, kept in extra %v", k, run.Summary[k], run.Extra[k] != nil)
		}
	}
	for _, w := range run.Warnings {
		t.Errorf("warning %q", w)
	}
	checkNums(t, "field", fieldsOf(run), map[string]float64{"completed": 96, "total_input_tokens": 44878, "total_output_tokens": 21911})
}

func TestGenAIPerfSummary(t *testing.T) {
	// Imitates genai-perf ≈0.0.4-0.0.8 (2024): flat input_config, and the perf_analyzer
	// revision whose _add_units labels every non-time metric requests/sec.
	data := loadTestdata(t, "genaiperf/profile_export_genai_perf.json")
	run := parseRuns(t, "artifacts/x/profile_export_genai_perf.json", data, 1)[0]
	if run.Tool != "genai-perf" || run.Era != "flat input_config (older)" || run.Model != "meta-llama/Meta-Llama-3-8B-Instruct" ||
		run.Backend != "chat" || run.Tokenizer != "meta-llama/Meta-Llama-3-8B-Instruct" {
		t.Errorf("tool %q era %q model %q backend %q tokenizer %q", run.Tool, run.Era, run.Model, run.Backend, run.Tokenizer)
	}
	checkNums(t, "field", fieldsOf(run), map[string]float64{
		"max_concurrency": 8, "request_rate": math.NaN(), "request_throughput": 7.372183017447651,
		"output_throughput": 1843.274417,
	})
	checkNums(t, "summary", summaryOf(run), map[string]float64{
		"ttft.mean": 1234.562718, "ttft.p50": 1198.750126, "ttft.median": 1198.750126,
		"e2el.p99": 6990.052193, "itl.std": 1.402264,
	})
	if run.Summary["output_sequence_length"] != nil || run.Extra["output_sequence_length"] == nil {
		t.Error("output_sequence_length (labelled requests/sec) must stay out of the ms summary")
	}
	if len(run.Warnings) != 1 || !strings.Contains(run.Warnings[0].English(), "_add_units") {
		t.Errorf("warnings %q", run.Warnings)
	}

	// Newer genai-perf: nested input_config.
	nested := `{"time_to_first_token": {"unit": "ms", "avg": 10, "p50": 9},
	  "request_throughput": {"unit": "requests/sec", "avg": 2},
	  "input_config": {"model_names": ["llama"], "endpoint": {"type": "chat", "service_kind": "openai"},
	    "perf_analyzer": {"stimulus": {"concurrency": 4}}, "tokenizer": {"name": "hf/llama"}}}`
	run = parseRuns(t, "profile_export_genai_perf.json", []byte(nested), 1)[0]
	if run.Era != "nested input_config (newer)" || run.Model != "llama" || run.Backend != "chat" || run.Tokenizer != "hf/llama" || run.MaxConcurrency != 4 {
		t.Errorf("nested: era %q model %q backend %q tokenizer %q concurrency %v", run.Era, run.Model, run.Backend, run.Tokenizer, run.MaxConcurrency)
	}
	if len(run.Warnings) != 0 {
		t.Errorf("warnings %q for correct units", run.Warnings)
	}
}

func TestGenAIPerfCSV(t *testing.T) {
	// Imitates genai-perf ≈0.0.10+: time_to_second_token, per-user throughput, the goodput row
	// written twice, and empty telemetry sections.
	data := loadTestdata(t, "genaiperf/profile_export_genai_perf.csv")
	name := "artifacts/meta-llama_Meta-Llama-3-8B-Instruct-openai-chat-concurrency8/profile_export_genai_perf.csv"
	run := parseRuns(t, name, data, 1)[0]
	if run.Tool != "genai-perf" || run.Era != "summary CSV" || run.Model != "meta-llama_Meta-Llama-3-8B-Instruct" || run.Backend != "chat" {
		t.Errorf("tool %q era %q model %q backend %q", run.Tool, run.Era, run.Model, run.Backend)
	}
	checkNums(t, "field", fieldsOf(run), map[string]float64{
		"max_concurrency": 8, "output_throughput": 1843.27, "request_goodput": 5.90, "request_throughput": 7.37,
	})
	checkNums(t, "summary", summaryOf(run), map[string]float64{
		"ttft.mean": 1234.56, "ttft.max": 1905.11, "ttft.p25": 1020.64, "ttft.median": 1198.75,
		"e2el.min": 4101.22, "itl.p99": 20.95, "time_to_second_token.p50": 44.80,
	})
	if len(run.Warnings) != 0 {
		t.Errorf("identical duplicate goodput rows should pass quietly: %q", run.Warnings)
	}
	if m, _ := run.Extra["input_sequence_length"].(map[string]any); m == nil || m["avg"] != 1024.0 {
		t.Errorf("input_sequence_length %v", run.Extra["input_sequence_length"])
	}

	// A duplicate with other values is noted; a value that is not a number names its line.
	dup := strings.Replace(string(data), "Request Goodput (per sec),5.90\nRequest Goodput", "Request Goodput (per sec),5.90\nRequest Goodput (per sec),6.10\nRequest Goodput", 1)
	run = parseRuns(t, "p.csv", []byte(dup), 1)[0]
	if run.Goodput != 5.90 || len(run.Warnings) != 1 {
		t.Errorf("goodput %v warnings %q", run.Goodput, run.Warnings)
	}
	bad := strings.Replace(string(data), "16.82", "fast", 1)
	_, err := parseFile("p.csv", []byte(bad))
	var fe *position.Error
	if !errors.As(err, &fe) || fe.Line != 5 || !strings.Contains(err.Error(), "Inter Token Latency") {
		t.Errorf("error %v, want line 5 naming the row", err)
	}
	_, err = parseFile("p.csv", []byte("Metric,avg,min\nTime To First Token (ms),\"1,2"))
	if !errors.As(err, &fe) || fe.Line != 2 {
		t.Errorf("unterminated quote: error %v, want line 2", err)
	}
}

func TestAIPerfCSV(t *testing.T) {
	// Imitates AIPerf's profile_export_aiperf.csv as its documentation shows it (2025):
	// p1…p99 and std columns, units in every row name, GPU telemetry after the summary.
	run := parseRuns(t, "profile_export_aiperf.csv", loadTestdata(t, "aiperf/profile_export_aiperf.csv"), 1)[0]
	if run.Tool != "aiperf" {
		t.Errorf("tool %q", run.Tool)
	}
	checkNums(t, "field", fieldsOf(run), map[string]float64{
		"duration_s": 62.14, "completed": 480, "request_throughput": 7.72, "output_throughput": 1972.31,
	})
	checkNums(t, "summary", summaryOf(run), map[string]float64{
		"ttft.p1": 60.05, "ttft.std": 180.27, "ttft.median": 160.87, "e2el.mean": 4210.58, "itl.max": 21.47,
	})
	if run.Extra["gpu_power_usage"] != nil || run.Extra["output_sequence_length"] == nil {
		t.Errorf("extra %v", run.Extra)
	}
}

func TestCSVNotClaimed(t *testing.T) {
	others := map[string][]byte{
		"nvidia-smi.csv": []byte("timestamp, name, utilization.gpu [%], memory.used [MiB]\n2025/03/25 10:00:00.000, NVIDIA H100, 98 %, 70000 MiB\n"),
		"metrics.csv":    []byte("Metric,Value\nfoo,1\n"),
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "traces", "ascend_kernel_details_pipeutil.csv"))
	if err != nil {
		t.Fatal(err)
	}
	others["kernel_details.csv"] = data
	for name, data := range others {
		if IsSummaryCSV(&format.File{Name: name, Data: data}) {
			t.Errorf("%s claimed as a genai-perf CSV", name)
		}
	}
}

func TestGenAIPerfRaw(t *testing.T) {
	// Imitates perf_analyzer's profile_export.json from genai-perf ≈0.0.8 against an OpenAI
	// chat endpoint: a role-only first chunk, an empty final delta, two SSE events in one
	// response, data: [DONE].
	p, err := parseFile("testdata/genaiperf/profile_export.json", loadTestdata(t, "genaiperf/profile_export.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 0 || p.Part == nil || p.Part.Tool != "genai-perf" || p.Part.Stem != "genaiperf" {
		t.Fatalf("%d runs, part %+v", len(p.Runs), p.Part)
	}
	reqs := p.Part.Requests
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	tests := []struct {
		outLen        int
		ttft, latency float64
		itl           []float64
	}{
		{2, 0.25, 0.270000001, []float64{0.020000001}},
		{3, 0.2, 0.262, []float64{0.03, 0.032}},
	}
	for i, tt := range tests {
		r := reqs[i]
		if r.OutputLen != tt.outLen || r.TTFT != tt.ttft || r.Latency != tt.latency || len(r.ITL) != len(tt.itl) || !r.OK() {
			t.Errorf("request %d: %+v", i, r)
			continue
		}
		for j := range tt.itl {
			if !closeTo(r.ITL[j], tt.itl[j]) {
				t.Errorf("request %d gap %d = %v, want %v", i, j, r.ITL[j], tt.itl[j])
			}
		}
	}
	if p.Part.Extra["request_output_len"] == nil || p.Part.Extra["genai_perf_service_kind"] != "openai" {
		t.Errorf("extra %v", p.Part.Extra)
	}

	// Two experiments are concatenated and noted.
	two := `{"experiments": [
	  {"experiment": {"mode": "concurrency", "value": 1}, "requests": [{"timestamp": 100, "response_timestamps": [150, 200], "response_outputs": [{"text_output": "a"}, {"text_output": "b"}]}]},
	  {"experiment": {"mode": "concurrency", "value": 2}, "requests": [{"timestamp": 1000, "response_timestamps": [1500]}, {"timestamp": 2000, "response_timestamps": []}]}]}`
	p, err = parseFile("profile_export.json", []byte(two))
	if err != nil {
		t.Fatal(err)
	}
	reqs = p.Part.Requests
	if len(reqs) != 3 || p.Part.Extra["experiments"] == nil || reqs[0].OutputLen != 2 || reqs[1].OutputLen != -1 || reqs[2].OK() {
		t.Errorf("two experiments: %+v extra %v", reqs, p.Part.Extra)
	}
}

func TestGenAIPerfBadShapes(t *testing.T) {
	cfg := `"input_config": {"model": ["m"]}`
	tests := []struct {
		name, data string
		want       []string
	}{
		{"s.json", `{"time_to_first_token": {"unit": "ms", "avg": "slow"}, ` + cfg + `}`, []string{`"time_to_first_token.avg"`}},
		{"s.json", `{"request_throughput": {"unit": "requests/sec", "avg": [1]}, ` + cfg + `}`, []string{`"request_throughput.avg"`}},
		{"s.json", `{"request_latency": {"unit": "ms", "avg": 1}, "input_config": "x"}`, []string{`"input_config"`}},
		{"a.json", `{"schema_version": "1.3", "aiperf_version": "0.11.0", "error_summary": "none"}`, []string{`"error_summary"`}},
		{"a.json", `{"schema_version": "1.3", "aiperf_version": "0.11.0", "error_summary": [{"count": "x"}]}`, []string{`"error_summary[0].count"`}},
		{"a.json", `{"schema_version": "1.3", "aiperf_version": "0.11.0", "inter_token_latency": {"unit": "ns", "p99": {}}}`, []string{`"inter_token_latency.p99"`}},
		{"r.json", `{"experiments": ["x"]}`, []string{`"experiments[0]"`}},
		{"r.json", `{"experiments": [{"requests": {}}]}`, []string{`"experiments[0].requests"`}},
		{"r.json", `{"experiments": [{"requests": [{"timestamp": "now", "response_timestamps": []}]}]}`, []string{"experiments[0].requests[0]", `"timestamp"`}},
		{"r.json", `{"experiments": [{"requests": [{"timestamp": 1, "response_timestamps": [1.5]}]}]}`, []string{`"response_timestamps"`}},
	}
	for _, tt := range tests {
		wantParseError(t, tt.name, []byte(tt.data), tt.want...)
	}
	// AIPerf converts by its units.
	run := parseRuns(t, "a.json", []byte(`{"schema_version": "1.3", "aiperf_version": "0.2.0", "request_latency": {"unit": "ns", "avg": 2500000}, "benchmark_duration": {"unit": "ms", "avg": 1500}}`), 1)[0]
	if run.Summary[model.E2EL]["mean"] != 2.5 || run.DurationS != 1.5 {
		t.Errorf("unit conversion: e2el %v duration %v", run.Summary[model.E2EL], run.DurationS)
	}
}
