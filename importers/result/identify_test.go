package result

import (
	"strings"
	"testing"

	"benchlens/importers/jsonx"
)

// The strongest signal in a file names its tool: version keys over schema keys over the
// backend field over shared key families.
func TestIdentifyBySignal(t *testing.T) {
	tests := []struct {
		name, json, tool, signal string
	}{
		{"aiperf with version keys", `{"schema_version": "1.3", "aiperf_version": "0.11.0", "input_config": {}, "request_latency": {"unit": "ms", "avg": 1}}`, "aiperf", "aiperf_version"},
		{"aiperf without version keys", `{"input_config": {"loadgen": {}}, "request_latency": {"unit": "ms", "avg": 1}, "was_cancelled": false}`, "aiperf", "was_cancelled"},
		{"early aiperf, metrics under records", `{"input_config": {}, "records": {"request_latency": {"tag": "request_latency", "unit": "ms", "avg": 1}}}`, "aiperf", "records"},
		{"genai-perf", `{"input_config": {"model": ["m"]}, "request_latency": {"unit": "ms", "avg": 1}}`, "genai-perf", "input_config"},
		{"sglang fork without dataset_name", `{"backend": "sglang", "request_throughput": 1, "mean_ttft_ms": 2}`, "sglang", `backend "sglang"`},
		{"sglang benchmarking a vLLM server", `{"backend": "vllm", "dataset_name": "random", "server_info": {}, "mean_ttft_ms": 2}`, "sglang", "server_info"},
		{"vllm benchmarking an sglang server", `{"backend": "sglang", "model_id": "m", "date": "20250101-000000", "mean_ttft_ms": 2}`, "vllm", "model_id"},
		{"vllm without model_id", `{"backend": "vllm", "mean_ttft_ms": 2}`, "vllm", "backend"},
		{"llmperf", `{"version": "2023-08-31", "results_ttft_s_mean": 0.1}`, "llmperf", "2023-08-31"},
		{"not a result", `{"backend": "sglang"}`, "", ""},
	}
	for _, tt := range tests {
		v, err := jsonx.NewDecoder([]byte(tt.json)).Decode()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		id := identify(jsonx.Object(v))
		if id.tool != tt.tool || !strings.Contains(id.signal, tt.signal) {
			t.Errorf("%s: identified %q by %q, want %q by …%s…", tt.name, id.tool, id.signal, tt.tool, tt.signal)
		}
	}
}

// A wrapper key that disagrees with the wrapped result's own concurrency keeps the result's
// value and says so.
func TestWrapperKeyDisagreeing(t *testing.T) {
	data := `{"4": {"version": "2023-08-31", "model": "m", "num_concurrent_requests": 8, "results_ttft_s_quantiles_p50": 0.5},
	          "16": {"version": "2023-08-31", "model": "m", "results_ttft_s_quantiles_p50": 0.7}}`
	runs := parseRuns(t, "by_concurrency.json", []byte(data), 2)
	if runs[0].MaxConcurrency != 8 || len(runs[0].Warnings) != 1 || !strings.Contains(runs[0].Warnings[0].English(), `key "4"`) {
		t.Errorf("run 1: concurrency %v, warnings %q", runs[0].MaxConcurrency, runs[0].Warnings)
	}
	if runs[1].MaxConcurrency != 16 || len(runs[1].Warnings) != 0 {
		t.Errorf("run 2: concurrency %v, warnings %q", runs[1].MaxConcurrency, runs[1].Warnings)
	}
	if m, ok := runs[1].Summary["ttft"].Median(); !ok || m != 700 {
		t.Errorf("run 2: median TTFT %v (p50 is the median)", m)
	}
}
