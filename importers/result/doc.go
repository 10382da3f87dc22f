// Package result reads benchmark results: vLLM, SGLang, llmperf, genai-perf, AIPerf and
// GuideLLM (each tool and each of its format eras in its own file here).
//
// It answers only for results. Its readers are rows of the importers' registry
// (importers.Formats), which decides what a file is: ReadJSON reads every JSON result (one
// object, JSONL, concatenated objects, arrays of runs, objects keyed by concurrency),
// ReadSummaryCSV genai-perf's and AIPerf's summary CSVs, ReadRollupCSV names AIPerf's roll-ups
// over runs. A file that holds no result is format.ErrUnrecognized, for the other rows (logs,
// utilisation) to try. Per-request records whose summary is another file come back as a
// format.Part. Values are kept as the tool wrote them, unknown where it wrote nothing; Settle
// then marks samples and implausible values once a run's companions are merged. Refusals are
// *position.Error values naming the spot.
//
// testdata/<tool>/<case>/ holds each case's input files beside expected.json, what the
// readers make of them (TestGolden; go test -update rewrites them).
package result
