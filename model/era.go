package model

// Era is a generation of a tool's output format, as formats/results.md names them. Its value
// is the text shown and stored with the run, so a constant's value never changes once
// released; logic compares constants, never the text.
type Era string

// vLLM's result eras (formats/results.md 1.7), newest first. The letters follow the document.
const (
	EraVLLMRustBench Era = "vllm-bench (Rust client)"
	EraVLLMG         Era = "G (vLLM >=0.10)"
	EraVLLME065      Era = "E (vLLM v0.6.5-v0.8.2)"
	EraVLLMF         Era = "F (vLLM v0.8.3-v0.9.x)"
	EraVLLME064      Era = "E (vLLM v0.6.4-v0.8.2)"
	EraVLLMD         Era = "D (vLLM v0.5.5-v0.6.3)"
	EraVLLMB         Era = "B (v0.3-v0.4)"
	EraVLLMA         Era = "A (early 2024 rewrite)"
	EraVLLMC         Era = "C (vLLM v0.4.x-v0.5.4)"
	EraVLLMUnknown   Era = "unknown"
)
