package result

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/model"
)

// Helpers shared by the sglang, llmperf, genai-perf and guidellm tests.

// loadResultFixture reads a real file from the module's copy of the shared fixtures
// (testdata/fixtures/results, formats/results.md samples).
func loadResultFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "fixtures", "results", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func loadTestdata(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// parseRuns parses through the public entry and wants exactly n runs.
func parseRuns(t *testing.T, name string, data []byte, n int) []*model.Run {
	t.Helper()
	p, err := parseFile(name, data)
	if err != nil {
		t.Fatalf("parseFile(%s): %v", name, err)
	}
	if len(p.Runs) != n {
		t.Fatalf("parseFile(%s): %d runs, want %d", name, len(p.Runs), n)
	}
	return p.Runs
}

// closeTo compares floats to 1e-9 relative; NaN equals NaN (both unknown).
func closeTo(got, want float64) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) {
		return math.IsNaN(got) == math.IsNaN(want) && (math.IsNaN(want) || got == want)
	}
	return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// checkNums compares named numbers of a run.
func checkNums(t *testing.T, what string, got, want map[string]float64) {
	t.Helper()
	for k, w := range want {
		if g, ok := got[k]; !ok || !closeTo(g, w) {
			t.Errorf("%s %s = %v, want %v", what, k, g, w)
		}
	}
}

// summaryOf flattens a run's summary to "metric.stat" keys.
func summaryOf(run *model.Run) map[string]float64 {
	out := map[string]float64{}
	for m, stats := range run.Summary {
		for s, v := range stats {
			out[m+"."+s] = v.F()
		}
	}
	return out
}

// fieldsOf lists the run's numeric fields by JSON name.
func fieldsOf(run *model.Run) map[string]float64 {
	return map[string]float64{
		"num_prompts": run.NumPrompts.F(), "completed": run.Completed.F(), "failed": run.Failed.F(),
		"errored": run.Errored.F(), "incomplete": run.Incomplete.F(), "cancelled": run.Cancelled.F(),
		"request_rate": run.RequestRate.F(), "max_concurrency": run.MaxConcurrency.F(),
		"duration_s": run.DurationS.F(), "total_input_tokens": run.TotalInputTokens.F(),
		"total_output_tokens": run.TotalOutputTokens.F(), "request_throughput": run.RequestThroughput.F(),
		"request_goodput": run.Goodput.F(), "input_throughput": run.InputThroughput.F(),
		"output_throughput": run.OutputThroughput.F(), "total_token_throughput": run.TotalTokenThroughput.F(),
	}
}

// wantParseError wants ParseFile to refuse data with an error naming every part of want.
func wantParseError(t *testing.T, name string, data []byte, want ...string) {
	t.Helper()
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("parseFile(%s) panicked: %v", name, r)
			}
		}()
		_, err = parseFile(name, data)
	}()
	if err == nil {
		t.Fatalf("parseFile(%s) = nil error, want one naming %q", name, want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("parseFile(%s) error %q does not name %q", name, err, w)
		}
	}
}

var inf = math.Inf(1)

func TestSGLangFixtures(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		file, era, model, version, label string
		fields, summary                  map[string]float64
		extra                            []string
	}{
		{
			// SGLang bench_serving with server 0.5.5.post3: the current record.
			file: "04_agg_n50_in128_out64_c8.jsonl", era: "current",
			model: "Qwen/Qwen2.5-3B-Instruct", version: "0.5.5.post3", label: "agg_n50_in128_out64_c8",
			fields: map[string]float64{
				"completed": 50, "failed": nan, "num_prompts": nan, "request_rate": inf, "max_concurrency": 8,
				"duration_s": 1.9711186867207289, "total_input_tokens": 3019, "total_output_tokens": 1401,
				"request_throughput": 25.36630611684931, "input_throughput": 1531.6175633353612,
				"output_throughput": 710.7638973941176, "total_token_throughput": 2242.381460729479,
			},
			summary: map[string]float64{
				"ttft.median": 33.528951462358236, "ttft.p99": 599.2950061988086,
				"e2el.mean": 306.8716875091195, "e2el.p99": 973.2989947218446,
				"tpot.std": 1.8737155888951216, "itl.p95": 21.319825435057282,
			},
			extra: []string{"server_info", "concurrency", "total_output_tokens_retokenized"},
		},
		{
			// Old compact SGLang record (≈2024): 18 keys, no server_info.
			file: "10_deepseek_dp_mla_output.jsonl", era: "old compact (≈≤0.4)",
			fields: map[string]float64{
				"completed": 10000, "request_rate": inf, "max_concurrency": nan, "duration_s": 412.49091206211597,
				"output_throughput": 12412.394674113431, "request_throughput": nan,
			},
			summary: map[string]float64{
				"e2el.mean": 381236.82297268615, "e2el.median": 374559.5875820145,
				"ttft.median": 10014.104524045251, "itl.median": 371.844899491407,
			},
			extra: []string{"total_output_tokens_retokenized", "random_output_len"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			run := parseRuns(t, tt.file, loadResultFixture(t, tt.file), 1)[0]
			if run.Tool != "sglang" || string(run.Era) != tt.era || run.Model != tt.model || run.ToolVersion != tt.version || run.Label != tt.label {
				t.Errorf("tool %q era %q model %q version %q label %q", run.Tool, run.Era, run.Model, run.ToolVersion, run.Label)
			}
			if run.Backend != "sglang" || run.Dataset != "random" {
				t.Errorf("backend %q dataset %q", run.Backend, run.Dataset)
			}
			checkNums(t, "field", fieldsOf(run), tt.fields)
			checkNums(t, "summary", summaryOf(run), tt.summary)
			for _, k := range tt.extra {
				if _, ok := run.Extra[k]; !ok {
					t.Errorf("Extra lacks %q", k)
				}
			}
			if run.Definitions[model.E2EL] == "" || run.Definitions[model.ITL] == "" {
				t.Errorf("definitions missing: %v", run.Definitions)
			}
		})
	}
}

func TestSGLangVariants(t *testing.T) {
	// PD disaggregation: server_info holds a list per side.
	pd := `{"backend":"sglang-oai","dataset_name":"sharegpt","request_rate":"trace","server_info":{"prefill":[{"model_path":"deepseek-ai/DeepSeek-V3","version":"0.4.9"}],"decode":[{"model_path":"deepseek-ai/DeepSeek-V3","version":"0.4.9"}]},"num_prompts":4,"completed":3,"total_throughput":100.5,"mean_e2e_latency_ms":10,"output_lens":[2,3,0,5],"input_lens":[10,11,12,13],"ttfts":[0.1,0.2,0,0.3],"itls":[[0.01],[0.02,0.03],[],[0.01,0.01,0.01,0.01]],"errors":["","","timeout",""],"generated_texts":["a","b","","c"]}`
	run := parseRuns(t, "pd.jsonl", []byte(pd), 1)[0]
	if run.Model != "deepseek-ai/DeepSeek-V3" || run.ToolVersion != "0.4.9" || run.Extra["pd_disaggregated"] != true {
		t.Errorf("PD server_info: model %q version %q extra %v", run.Model, run.ToolVersion, run.Extra["pd_disaggregated"])
	}
	if run.Metadata["request_rate"] != "trace" || run.RequestRate.Known() {
		t.Errorf("request_rate trace: %v / %v", run.Metadata, run.RequestRate)
	}
	checkNums(t, "field", fieldsOf(run), map[string]float64{"num_prompts": 4, "completed": 3, "failed": 1, "total_token_throughput": 100.5})
	if len(run.Requests) != 4 || run.Requests[2].Error != "timeout" || run.Requests[1].TTFT != 0.2 || len(run.Requests[3].ITL) != 4 || run.Requests[3].OutputLen != 5 {
		t.Errorf("requests: %+v", run.Requests)
	}
}

func TestSGLangBadShapes(t *testing.T) {
	base := `"backend":"sglang","dataset_name":"random","total_output_tokens_retokenized":1`
	tests := []struct{ body, key string }{
		{`"completed":"many"`, `"completed"`},
		{`"server_info":"big"`, `"server_info"`},
		{`"server_info":{"prefill":3}`, `"server_info.prefill"`},
		{`"mean_ttft_ms":[1]`, `"mean_ttft_ms"`},
		{`"ttfts":"none"`, `"ttfts"`},
		{`"request_rate":{"a":1}`, `"request_rate"`},
		{`"total_throughput":true`, `"total_throughput"`},
	}
	for _, tt := range tests {
		wantParseError(t, "bad.jsonl", []byte("{"+base+","+tt.body+"}"), tt.key)
	}
}
