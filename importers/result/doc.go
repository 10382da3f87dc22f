// Package result sniffs a file by its content and reads the benchmark results in it.
//
// ParseFile decides what a file holds: a result of vLLM, SGLang, llmperf, genai-perf, AIPerf
// or GuideLLM (each tool and each of its format eras in its own file here), per-request records
// waiting for their summary (a Part), or a log, trace, utilisation file or manifest, whose
// kind alone is returned for the evidence readers. Values are kept as the tool wrote them,
// unknown where it wrote nothing; Settle then marks samples and implausible values once a
// run's companions are merged. Refusals are *position.Error values naming the spot.
package result
