// Package importers turns what lab runs leave behind into typed records, without a database.
//
// A bundle (a file, a folder, a .zip or a .tar.gz) is read by ReadBundle into entries, streamed
// and bounded by Limits so a hostile archive is refused by the bytes it actually yields. Each
// entry is sniffed by content in package result: benchmark results of every tool and era
// (vLLM, SGLang, llmperf, genai-perf / AIPerf, GuideLLM) become model.Run values; server logs,
// utilisation traces and profiler traces go to the serverlog, utilisation and trace packages
// (ReadEvidence); bundle.yaml manifests are merged nearest-wins. Assemble joins a bundle's
// results with the files beside and above them, one Item per run.
//
// Every error names its file and, where known, its line or byte offset (position.Error); a
// file nothing reads is reported with a reason (Skip), never dropped silently.
package importers
