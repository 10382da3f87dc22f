package importers

// era is a format generation of one tool, as formats/results.md names them. Logic compares
// these constants, never the text stored on the run.
type era string

// vLLM's result eras (formats/results.md 1.7) and the Rust client's.
const (
	eraVLLMA       era = "A (early 2024 rewrite)"
	eraVLLMB       era = "B (v0.3-v0.4)"
	eraVLLMC       era = "C (vLLM v0.4.x-v0.5.4)"
	eraVLLMD       era = "D (vLLM v0.5.5-v0.6.3)"
	eraVLLME       era = "E (vLLM v0.6.4-v0.8.2)"
	eraVLLME2      era = "E (vLLM v0.6.5-v0.8.2)"
	eraVLLMF       era = "F (vLLM v0.8.3-v0.9.x)"
	eraVLLMG       era = "G (vLLM >=0.10)"
	eraVLLMBench   era = "vllm-bench (Rust client)"
	eraVLLMUnknown era = "unknown"
)

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
