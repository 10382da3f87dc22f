package model

import (
	"path"
	"strings"
)

// precisionWords maps the words that name a weight precision or quantization scheme in model
// names, file names and engine settings (upper case) to how lists show them. FP16 and FP8
// runs of one model differ by nothing else a result file says: "Meta-Llama-3.1-8B-Instruct-FP8",
// a lab's "FP16-…json", vLLM's quantization=fp8 or dtype=torch.bfloat16.
var precisionWords = map[string]string{
	"FP32": "FP32", "FLOAT32": "FP32",
	"FP16": "FP16", "FLOAT16": "FP16",
	"BF16": "BF16", "BFLOAT16": "BF16",
	"FP8": "FP8", "E4M3": "FP8", "E5M2": "FP8", "MXFP8": "MXFP8",
	"FP6": "FP6", "FP4": "FP4", "NVFP4": "NVFP4", "MXFP4": "MXFP4",
	"INT8": "INT8", "INT4": "INT4",
	"W8A8": "W8A8", "W8A16": "W8A16", "W4A16": "W4A16", "W4A8": "W4A8",
	"AWQ": "AWQ", "GPTQ": "GPTQ", "GGUF": "GGUF", "BITSANDBYTES": "bitsandbytes",
}

// PrecisionIn is the precision the first of texts names (a model name, a file name, an engine
// setting), or "" when none names one. Words are split at anything but letters and digits, so
// "fp8_e4m3", "quantized.w8a8" and "FP16-openai-…" are read; a path is read by its base name.
func PrecisionIn(texts ...string) string {
	for _, t := range texts {
		words := strings.FieldsFunc(strings.ToUpper(path.Base(t)), func(r rune) bool {
			return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		})
		for _, w := range words {
			if p := precisionWords[w]; p != "" {
				return p
			}
		}
	}
	return ""
}

// ModelName is a model's name without its organisation ("meta-llama/Llama-3.1-8B-Instruct" →
// "Llama-3.1-8B-Instruct"), or a path's last element: what a short list has room for.
func ModelName(m string) string {
	m = strings.TrimRight(m, "/")
	if i := strings.LastIndex(m, "/"); i >= 0 && i < len(m)-1 {
		return m[i+1:]
	}
	return m
}
