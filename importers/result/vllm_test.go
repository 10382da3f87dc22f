package result

import (
	"math"
	"strings"
	"testing"

	"benchlens/model"
)

func parseOne(t *testing.T, name, content string) *model.Run {
	t.Helper()
	p, err := parseFile(name, []byte(content))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(p.Runs) != 1 {
		t.Fatalf("%s: %d runs, want 1", name, len(p.Runs))
	}
	return p.Runs[0]
}

// Each era of formats/results.md 1.7, by the keys that mark it (minimal files in each era's
// key order).
func TestVLLMEras(t *testing.T) {
	tests := []struct {
		era, file string
	}{
		{"A (early 2024 rewrite)", `{"backend": "vllm", "model_id": "m", "version": "0.3.0", "total_input": 10, "total_output": 20, "input_throughput": 1.0, "mean_tpot_ms": 5.0}`},
		{"B (v0.3-v0.4)", `{"date": "20240301-101010", "backend": "vllm", "model_id": "m", "version": "0.4.0", "best_of": 1, "use_beam_search": false, "num_prompts": 10, "request_rate": "inf", "duration": 2.0, "completed": 10, "total_input_tokens": 100, "total_output_tokens": 200, "request_inthroughput": 5.0, "input_throughput": 50.0, "output_throughput": 100.0, "mean_ttft_ms": 1.0, "median_ttft_ms": 1.0, "p99_ttft_ms": 2.0}`},
		{"C (vLLM v0.4.x-v0.5.4)", `{"date": "20240601-101010", "backend": "vllm", "model_id": "m", "best_of": 1, "use_beam_search": false, "num_prompts": 10, "request_rate": "inf", "duration": 2.0, "completed": 10, "total_input_tokens": 100, "total_output_tokens": 200, "request_throughput": 5.0, "input_throughput": 50.0, "output_throughput": 100.0, "mean_ttft_ms": 1.0, "std_ttft_ms": 0.1}`},
		{"D (vLLM v0.5.5-v0.6.3)", `{"date": "20240901-101010", "backend": "vllm", "model_id": "m", "best_of": 1, "num_prompts": 10, "request_rate": 1.0, "duration": 2.0, "completed": 10, "request_throughput": 5.0, "output_throughput": 100.0, "total_token_throughput": 150.0, "mean_e2el_ms": 20.0}`},
		{"E (vLLM v0.6.4-v0.8.2)", `{"date": "20241201-101010", "backend": "vllm", "model_id": "m", "best_of": 1, "num_prompts": 10, "request_rate": 1.0, "burstiness": 1.0, "max_concurrency": 4, "completed": 10}`},
		{"E (vLLM v0.6.5-v0.8.2)", `{"date": "20250201-101010", "backend": "vllm", "model_id": "m", "best_of": 1, "num_prompts": 10, "request_rate": 1.0, "burstiness": 1.0, "max_concurrency": null, "completed": 10, "request_goodput:": null}`},
		{"F (vLLM v0.8.3-v0.9.x)", `{"date": "20250501-101010", "backend": "vllm", "model_id": "m", "num_prompts": 10, "request_rate": 1.0, "burstiness": 1.0, "max_concurrency": null, "completed": 10, "request_goodput:": 3.5}`},
		{"G (vLLM >=0.10)", `{"date": "20250901-101010", "endpoint_type": "openai", "backend": "openai", "label": null, "model_id": "m", "num_prompts": 10, "request_rate": "inf", "completed": 9, "failed": 1, "request_goodput": null}`},
		{"vllm-bench (Rust client)", `{"date": "2026-09-04T20:33:17Z", "backend": "openai-chat", "model_id": "m", "completed": 8, "failed": 0}`},
	}
	for _, tt := range tests {
		r := parseOne(t, "r.json", tt.file)
		if string(r.Era) != tt.era {
			t.Errorf("era %q, want %q for %s", r.Era, tt.era, tt.file)
		}
	}
}

func TestVLLMQuirks(t *testing.T) {
	// B: the request_inthroughput typo; header version; "inf" as a string.
	r := parseOne(t, "b.json", `{"date": "20240301-101010", "backend": "vllm", "model_id": "m", "version": "0.4.0", "num_prompts": 10, "request_rate": "inf", "completed": 10, "request_inthroughput": 5.5}`)
	if r.RequestThroughput != 5.5 || r.ToolVersion != "0.4.0" || !math.IsInf(r.RequestRate.F(), 1) || r.Failed != 0 {
		t.Errorf("era B: throughput %v version %q rate %v failed %v", r.RequestThroughput, r.ToolVersion, r.RequestRate, r.Failed)
	}
	// E/F: goodput with a trailing colon; bare Infinity burstiness; metadata pairs.
	r = parseOne(t, "e.json", `{"date": "20250201-101010", "backend": "vllm", "model_id": "org/m", "num_prompts": 4, "framework": "vllm-ascend", "hw": "910B", "request_rate": 2.0, "burstiness": Infinity, "completed": 3, "request_goodput:": 1.25, "p99.9_ttft_ms": 9.5, "p50_tpot_ms": NaN, "extra_list": [1, 2]}`)
	if r.Goodput != 1.25 || !math.IsInf(r.Burstiness.F(), 1) || r.Metadata["framework"] != "vllm-ascend" || r.Metadata["hw"] != "910B" {
		t.Errorf("era E: goodput %v burstiness %v metadata %v", r.Goodput, r.Burstiness, r.Metadata)
	}
	if r.Summary[model.TTFT]["p99.9"] != 9.5 || !math.IsNaN(r.Summary[model.TPOT]["p50"].F()) || r.Failed != 1 || r.Extra["extra_list"] == nil {
		t.Errorf("era E: summary %v failed %v extra %v", r.Summary, r.Failed, r.Extra)
	}
	// The date is local time without a zone: none is invented.
	if r.Date != "2025-02-01T10:10:10" {
		t.Errorf("date %q", r.Date)
	}
	// The LambdaLabs fork's *_latency_ms is the end-to-end latency.
	r = parseOne(t, "l.json", `{"date": "20240907-082900", "backend": "vllm", "model_id": "m", "mean_latency_ms": 2407.0}`)
	if r.Summary[model.E2EL]["mean"] != 2407 {
		t.Errorf("latency not mapped to e2el: %v", r.Summary)
	}
}

func TestVLLMPerRequestArrays(t *testing.T) {
	r := parseOne(t, "d.json", `{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "num_prompts": 3, "completed": 2,
		"input_lens": [10, 20, 30], "output_lens": [3, 1, 0], "ttfts": [0.1, 0.2, 0.0],
		"itls": [[0.01, 0.02], [], []], "generated_texts": ["a", "b", ""], "errors": ["", "", "Traceback: boom"],
		"start_times": [1.5, 2.5, 3.5]}`)
	if len(r.Requests) != 3 {
		t.Fatalf("%d requests", len(r.Requests))
	}
	q := r.Requests[0]
	if q.InputLen != 10 || q.OutputLen != 3 || q.TTFT != 0.1 || len(q.ITL) != 2 || q.Start != 1.5 || !math.IsNaN(q.Latency) {
		t.Errorf("request 0: %+v", q)
	}
	if r.Requests[2].OK() || r.Requests[2].Error != "Traceback: boom" {
		t.Errorf("request 2 error %q", r.Requests[2].Error)
	}
}

func TestVLLMWrongShapes(t *testing.T) {
	tests := []struct{ file, want string }{
		{`{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "ttfts": "x"}`, `key "ttfts": expected an array of numbers, found a string`},
		{`{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "ttfts": [0.1], "input_lens": [1, 2]}`, `key "ttfts" has 1 elements, other per-request arrays have 2`},
		{`{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "itls": {"a": 1}}`, `key "itls": expected an array of arrays`},
		{`{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "itls": [["x"]]}`, `key "itls": expected an array of arrays of numbers`},
		{`{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "mean_ttft_ms": "fast"}`, `key "mean_ttft_ms": expected a number, found a string`},
		{`{"date": "20250301-101010", "backend": "vllm", "model_id": "m", "errors": [1]}`, `key "errors": expected an array of strings`},
	}
	for _, tt := range tests {
		_, err := parseFile("bad.json", []byte(tt.file))
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "bad.json: line 1, byte 0: ") {
			t.Errorf("%s: error %v, want %q", tt.file, err, tt.want)
		}
	}
}

// Several results per file: JSONL (--append-result), concatenated objects, a JSON array.
func TestSeveralRunsPerFile(t *testing.T) {
	obj := func(d string) string {
		return `{"date": "2025030` + d + `-101010", "backend": "vllm", "model_id": "m", "completed": 1}`
	}
	for name, content := range map[string]string{
		"jsonl":        obj("1") + "\n" + obj("2") + "\n" + obj("3"),
		"concatenated": obj("1") + obj("2") + obj("3"),
		"array":        "[" + obj("1") + ",\n" + obj("2") + ", " + obj("3") + "]",
	} {
		p, err := parseFile(name+".json", []byte(content))
		if err != nil || len(p.Runs) != 3 || p.Runs[2].Date != "2025-03-03T10:10:10" {
			t.Errorf("%s: %d runs, %v", name, len(p.Runs), err)
		}
	}
}
