package result

import (
	"bytes"

	"benchlens/importers/format"
)

// MindIE Benchmark (mindie-service's `benchmark`, more-formats.md 3.3) names its per-request
// and summary figures FirstTokenTime, DecodeTime, GenerateTime, InputTokens and
// GeneratedTokens. Its file layout and headers could not be confirmed from a real file or its
// source, so benchlens recognises its output only to refuse it with what it is.

// IsMindIEBenchmark sniffs a file naming MindIE Benchmark's own metrics.
func IsMindIEBenchmark(f *format.File) bool {
	lead := f.Lead()
	lead = lead[:min(len(lead), 16<<10)]
	return bytes.Contains(lead, []byte("FirstTokenTime")) && bytes.Contains(lead, []byte("GenerateTime")) &&
		(bytes.Contains(lead, []byte("DecodeTime")) || bytes.Contains(lead, []byte("GeneratedTokens")))
}

// MindIEWhy is the refusal: what the file is and why it is not read.
const MindIEWhy = "MindIE Benchmark output (FirstTokenTime, DecodeTime, GenerateTime): not read, because its layout is not documented " +
	"well enough to read it safely (its DecodeTime is the gap between chunks, and it has no TPOT); MindIE now benchmarks with AISBench " +
	"(ais_bench --mode perf), whose performances/<model>/<dataset>.json and .csv benchlens reads"
