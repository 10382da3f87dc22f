package result

import (
	"math"
	"strings"
	"testing"

	"benchlens/model"
)

func TestLLMPerfSummaryFixture(t *testing.T) {
	// Fixture 03: llmperf summary, version 2023-08-31, token counts partly written as strings.
	run := parseRuns(t, "01-ai-Yi-1-5-34B-Chat_550_150_summary.json", loadResultFixture(t, "03_01-ai-Yi-1-5-34B-Chat_550_150_summary.json"), 1)[0]
	if run.Tool != "llmperf" || run.Model != "01-ai/Yi-1.5-34B-Chat" || run.ToolVersion != "2023-08-31" || run.Era == "" {
		t.Errorf("tool %q model %q version %q era %q", run.Tool, run.Model, run.ToolVersion, run.Era)
	}
	if run.Date != "2024-06-12T16:03:32Z" {
		t.Errorf("date %q", run.Date)
	}
	checkNums(t, "field", fieldsOf(run), map[string]float64{
		"num_prompts": 80, "completed": 80, "failed": 0, "max_concurrency": 1,
		"output_throughput": 20.982177074314603, "request_throughput": 7.915935703584854 / 60,
	})
	// Seconds in the file, milliseconds in the summary.
	checkNums(t, "summary", summaryOf(run), map[string]float64{
		"ttft.p50":  0.586917666500085 * 1000,
		"ttft.p99":  0.6112446294902291 * 1000,
		"ttft.mean": 0.5869289812874854 * 1000,
		"ttft.std":  0.006632683782084771 * 1000,
		"itl.mean":  0.046801568884606674 * 1000,
		"itl.min":   0.044430156401160305 * 1000,
		"e2el.max":  7.535624977000225 * 1000,
		"e2el.p25":  7.419923586249524 * 1000,
	})
	if len(run.Summary) != 3 {
		t.Errorf("summary metrics %v, want ttft, itl, e2el only", run.Summary)
	}
	if !strings.HasPrefix(run.Definitions[model.ITL], "per-request mean inter-token latency, averaged over requests") {
		t.Errorf("itl definition %q", run.Definitions[model.ITL])
	}
	// Token statistics written as strings by default=str are kept as numbers, not metadata.
	if v, ok := run.Extra["results_number_input_tokens_min"].(float64); !ok || v != 550 {
		t.Errorf("Extra results_number_input_tokens_min = %#v", run.Extra["results_number_input_tokens_min"])
	}
	if _, ok := run.Metadata["results_number_input_tokens_min"]; ok {
		t.Error("numeric string stored as metadata")
	}
	if run.Extra["mean_input_tokens"] == nil || run.Metadata["name"] != "01-ai-Yi-1-5-34B-Chat_550_150_summary" {
		t.Errorf("extra %v metadata %v", run.Extra["mean_input_tokens"], run.Metadata)
	}
}

func TestLLMPerfResponsesFixture(t *testing.T) {
	// Fixture 12: the individual responses paired with fixture 03; named as llmperf names it.
	name := "yi/01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json"
	p, err := parseFile(name, loadResultFixture(t, "12_01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Runs) != 0 || p.Part == nil {
		t.Fatalf("%d runs, part %v", len(p.Runs), p.Part)
	}
	part := p.Part
	if part.Tool != "llmperf" || part.Stem != "01-ai-Yi-1-5-34B-Chat_550_150" || len(part.Requests) != 80 {
		t.Fatalf("tool %q stem %q requests %d", part.Tool, part.Stem, len(part.Requests))
	}
	failed := 0
	for _, r := range part.Requests {
		if !r.OK() {
			failed++
		}
	}
	if failed != 0 {
		t.Errorf("%d failed requests, want 0", failed)
	}
	r := part.Requests[0]
	if r.TTFT != 0.6055155840003863 || r.Latency != 7.453143953000108 || !math.IsNaN(r.TPOT) ||
		r.InputLen != 550 || r.OutputLen != 160 || r.ITL != nil || !math.IsNaN(r.Start) {
		t.Errorf("first request %+v", r)
	}
}

func TestLLMPerfResponsesVariants(t *testing.T) {
	data := `[
	 {"error_code": null, "error_msg": "", "inter_token_latency_s": 0.05, "ttft_s": 0.5, "end_to_end_latency_s": 5.5, "number_input_tokens": 100, "number_output_tokens": 101, "request_start_time": 1718208000.5},
	 {"error_code": 429, "error_msg": "", "ttft_s": 0, "end_to_end_latency_s": 0.1},
	 {"error_code": 500, "error_msg": "Internal Server Error", "ttft_s": null, "end_to_end_latency_s": null}
	]`
	tests := []struct{ name, stem string }{
		{"out/llama_100_100_individual_responses.json", "llama_100_100"},
		{`C:\out\llama_100_100_32_stream_individual_responses.json`, "llama_100_100"}, // fork: _{conc}_{mode}
	}
	for _, tt := range tests {
		p, err := parseFile(tt.name, []byte(data))
		if err != nil {
			t.Fatal(err)
		}
		if p.Part == nil || p.Part.Stem != tt.stem || len(p.Part.Requests) != 3 {
			t.Fatalf("%s: part %+v", tt.name, p.Part)
		}
		reqs := p.Part.Requests
		if reqs[0].Start != 1718208000.5 || !reqs[0].OK() || reqs[1].Error != "error_code 429" ||
			reqs[2].Error != "Internal Server Error" || !math.IsNaN(reqs[2].TTFT) || reqs[1].InputLen != -1 {
			t.Errorf("requests %+v", reqs)
		}
	}
}

func TestLLMPerfBadShapes(t *testing.T) {
	summary := func(kv string) []byte {
		return []byte(`{"version": "2023-08-31", "model": "m", ` + kv + `}`)
	}
	wantParseError(t, "x_summary.json", summary(`"results_ttft_s_mean": "fast"`), `"results_ttft_s_mean"`)
	wantParseError(t, "x_summary.json", summary(`"results_num_completed_requests": [1]`), `"results_num_completed_requests"`)
	wantParseError(t, "x_summary.json", summary(`"timestamp": "yesterday"`), `"timestamp"`)

	resp := func(kv string) []byte {
		return []byte(`[{"ttft_s": 0.1, "end_to_end_latency_s": 1}, {"ttft_s": 0.1, "end_to_end_latency_s": 1, ` + kv + `}]`)
	}
	wantParseError(t, "x_individual_responses.json", resp(`"error_code": "E42"`), "element 1", `"error_code"`)
	wantParseError(t, "x_individual_responses.json", resp(`"number_output_tokens": {}`), "element 1", `"number_output_tokens"`)
	wantParseError(t, "x_individual_responses.json", []byte(`[{"ttft_s": 0.1, "end_to_end_latency_s": 1}, 7]`), "element 1")

	// NaN statistics (empty sets) are unknown values, not errors.
	run := parseRuns(t, "x_summary.json", summary(`"results_ttft_s_mean": NaN`), 1)[0]
	if v := run.Summary[model.TTFT]["mean"]; v.Known() {
		t.Errorf("NaN mean read as %v", v)
	}
}
