package store

import (
	"testing"

	"benchlens/model"
)

// BenchmarkListedDecode is one run's listed fields out of its stored JSON (a nightly vLLM
// run's header, summary and recomputed statistics): the per-run cost of listing 100,000 runs.
func BenchmarkListedDecode(b *testing.B) {
	run := sampleRun("vllm")
	run.Era, run.Precision, run.Model, run.Date = "G (vLLM >=0.10)", "BF16", "meta-llama/Llama-3.1-8B-Instruct", "20260101-020000"
	run.NumPrompts, run.Completed, run.Failed, run.MaxConcurrency = 40, 40, 0, 16
	run.DurationS, run.OutputThroughput, run.TotalTokenThroughput = 2.1111216478225177, 1298.8806996318046, 20614.633952945347
	run.Definitions = map[string]string{model.ITL: "pooled over every gap between streamed chunks of successful requests",
		model.TPOT: "per request: (latency - ttft) / (output_len - 1), requests with output_len > 1"}
	stats := map[string]model.Stats{}
	for _, m := range model.Latencies {
		stats[m] = model.Stats{"mean": 804.2368182181015, "median": 804.4932161832137, "p99": 815.6643196964342, "std": 5.135153527416296}
	}
	run.Summary, run.Recomputed = stats, stats
	cols, err := EncodeRun(run)
	if err != nil {
		b.Fatal(err)
	}
	c := listedCols{id: 1, label: "base", header: cols.header, summary: cols.summary, rec: cols.recomputed, manifest: "{}"}
	for b.Loop() {
		if _, err := c.decode(nil); err != nil {
			b.Fatal(err)
		}
	}
}
