package result

import (
	"math"
	"strings"
	"testing"

	"benchlens/model"
)

func TestGuideLLM(t *testing.T) {
	// testdata/guidellm/benchmarks.json is written from formats/results.md 5, not taken from a
	// real run: it imitates the GuideLLM ≈v0.5 layout (metadata.guidellm_version, config.strategy,
	// scheduler_state, metrics.request_totals, info.timings in request records), with a
	// synchronous and a concurrent (4 streams) benchmark and --output-sampling 2.
	runs := parseRuns(t, "guidellm/benchmarks.json", loadTestdata(t, "guidellm/benchmarks.json"), 2)
	for _, run := range runs {
		if run.Tool != "guidellm" || run.ToolVersion != "0.5.0" || run.Era != eraGuideLLM05 ||
			run.Model != "Qwen/Qwen3-8B" || run.Backend != "openai_http" {
			t.Errorf("tool %q version %q era %q model %q backend %q", run.Tool, run.ToolVersion, run.Era, run.Model, run.Backend)
		}
		if !strings.Contains(run.Definitions[model.TPOT], "includes the TTFT") {
			t.Errorf("tpot definition %q", run.Definitions[model.TPOT])
		}
	}

	sync, conc := runs[0], runs[1]
	if sync.Date != "2025-08-11T12:00:00Z" {
		t.Errorf("date %q", sync.Date)
	}
	checkNums(t, "sync field", fieldsOf(sync), map[string]float64{
		"max_concurrency": 1, "completed": 2, "failed": 0, "num_prompts": 2, "duration_s": 5.25,
		"total_input_tokens": 1024, "total_output_tokens": 256,
	})
	checkNums(t, "sync summary", summaryOf(sync), map[string]float64{
		"ttft.mean": 40.65, "ttft.median": 40.65, "ttft.p0.1": 39.8017, "ttft.p1": 39.817,
		"ttft.p5": 39.885, "ttft.p99.9": 41.4983, "ttft.std": 0.85, "ttft.min": 39.8, "ttft.max": 41.5,
		"e2el.mean": 2605, // request_latency is in seconds in the file
	})
	if len(sync.Requests) != 2 || sync.Sampled != nil {
		t.Errorf("sync requests %d, sampled %v", len(sync.Requests), sync.Sampled)
	}

	checkNums(t, "concurrent field", fieldsOf(conc), map[string]float64{
		"max_concurrency": 4, "completed": 3, "failed": 2, "errored": 1, "incomplete": 1, "cancelled": math.NaN(), "num_prompts": 5,
		"request_throughput": 0.8823529411764706, "output_throughput": 112.94117647058823,
		"total_token_throughput": 564.7058823529412, "request_rate": math.NaN(),
	})
	if math.Abs(conc.DurationS.F()-3.4) > 1e-6 { // end - start of Unix-second floats
		t.Errorf("duration %v", conc.DurationS)
	}
	checkNums(t, "concurrent summary", summaryOf(conc), map[string]float64{"e2el.p99.9": 3220.932})
	for _, m := range []string{model.TTFT, model.TPOT, model.ITL, model.E2EL} {
		if len(conc.Summary[m]) != 16 {
			t.Errorf("%s has %d statistics, want 16", m, len(conc.Summary[m]))
		}
	}
	// Requests: 2 sampled successes, the errored one and the incomplete one; seconds.
	reqs := conc.Requests
	if len(reqs) != 4 || conc.Sampled == nil || conc.Sampled.Records != 2 || conc.Sampled.Population != 3 {
		t.Fatalf("concurrent requests %d, sampled %+v", len(reqs), conc.Sampled)
	}
	ok := reqs[0]
	if !ok.OK() || !closeTo(ok.TTFT, 0.0882) || ok.Latency != 3.104 || ok.InputLen != 512 || ok.OutputLen != 128 ||
		!closeTo(ok.Start, 1754913610.26) || !closeTo(ok.TPOT, (3.104-0.0882)/127) {
		t.Errorf("successful request %+v", ok)
	}
	if reqs[2].Error != "HTTPStatusError: 503 Service Unavailable" || !math.IsNaN(reqs[2].TTFT) || reqs[3].Error != "incomplete" {
		t.Errorf("errored %+v incomplete %+v", reqs[2], reqs[3])
	}
	if conc.Extra["strategy"] == nil || conc.Extra["metrics"] == nil || conc.Extra["scheduler_state"] == nil {
		t.Errorf("extra keys %v", conc.Extra)
	}
}

func TestGuideLLMVariants(t *testing.T) {
	// GuideLLM ≈v0.3: no metadata, request_totals beside metrics, args.strategy, run_stats.
	v03 := `{"benchmarks": [{"type_": "generative_benchmark",
	  "args": {"strategy": {"type_": "constant", "rate": 2.5}},
	  "worker": {"backend_model": "llama"},
	  "run_stats": {"start_time": 1700000000, "end_time": 1700000030},
	  "request_totals": {"successful": 70, "errored": 3, "incomplete": 2, "total": 75},
	  "metrics": {"time_to_first_token_ms": {"successful": {"mean": 50, "percentiles": {"p50": 48}}}}}]}`
	run := parseRuns(t, "benchmarks.json", []byte(v03), 1)[0]
	if run.Model != "llama" || run.RequestRate != 2.5 || run.DurationS != 30 || run.Failed != 5 || run.NumPrompts != 75 ||
		run.Summary[model.TTFT]["p50"] != 48 || run.Era != eraGuideLLM03 || run.Requests != nil {
		t.Errorf("v0.3: %+v", run)
	}
}

func TestGuideLLMBadShapes(t *testing.T) {
	bench := func(body string) []byte {
		return []byte(`{"benchmarks": [{"type_": "generative_benchmark", "metrics": {}}, {"type_": "generative_benchmark", ` + body + `}]}`)
	}
	tests := []struct {
		data []byte
		want []string
	}{
		{bench(`"metrics": "none"`), []string{"benchmarks[1]", `"metrics"`}},
		{bench(`"metrics": {"request_latency": [1]}`), []string{`"metrics.request_latency"`}},
		{bench(`"metrics": {"request_latency": {"successful": {"mean": "slow"}}}`), []string{`"metrics.request_latency.successful.mean"`}},
		{bench(`"metrics": {"inter_token_latency_ms": {"successful": {"percentiles": {"p99": {}}}}}`), []string{`"metrics.inter_token_latency_ms.successful.percentiles.p99"`}},
		{bench(`"metrics": {"request_totals": {"successful": "all"}}`), []string{`"metrics.request_totals.successful"`}},
		{bench(`"metrics": {}, "requests": {"successful": {}}`), []string{`"requests.successful"`}},
		{bench(`"metrics": {}, "requests": {"errored": [{"request_latency": "x"}]}`), []string{`"requests.errored[0].request_latency"`}},
		{bench(`"metrics": {}, "config": {"strategy": {"type_": "concurrent", "streams": "four"}}`), []string{`"strategy.streams"`}},
		{[]byte(`{"benchmarks": [{"type_": "generative_benchmark", "metrics": {}}], "metadata": 5}`), []string{`"metadata"`}},
	}
	for _, tt := range tests {
		wantParseError(t, "benchmarks.json", tt.data, tt.want...)
	}
}
