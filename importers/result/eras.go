package result

import "benchlens/model"

// era is a format generation of one tool, as formats/results.md names them (vLLM's are
// model's, in vllm.go). Logic compares these constants, never the text stored on the run.
type era = model.Era

// SGLang bench_serving's eras.
const (
	eraSGLangCurrent era = "current"
	eraSGLangCompact era = "old compact (≈≤0.4)"
)

// GuideLLM's schema eras.
const (
	eraGuideLLM03 era = "≈v0.3 (args, run_stats)"
	eraGuideLLM04 era = "≈v0.4 (config, scheduler_state)"
	eraGuideLLM05 era = "≈v0.5 (metadata, config, scheduler_state)"
)

// AIPerf exports without schema_version.
const (
	eraAIPerfRecords     era = "early export (metrics under records)"
	eraAIPerfUnversioned era = "export without schema_version"
)

// genai-perf's summary eras, and the CSV summaries of genai-perf and AIPerf.
const (
	eraGenAIPerfNested era = "nested input_config (newer)"
	eraGenAIPerfFlat   era = "flat input_config (older)"
	eraSummaryCSV      era = "summary CSV"
)

// llmperf's summary; the version it states is appended.
const eraLLMPerfSummary era = "summary"
