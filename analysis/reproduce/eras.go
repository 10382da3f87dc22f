package reproduce

// Era is one generation of a tool's command line: how it is started and what it calls each
// option. A concept the era has no flag for is missing from Flags and becomes a comment. The
// option names were read from the tools' own sources; testdata/flags/<Source> lists each era's
// real argument names with the file and commit they came from, and a test checks every flag
// here against it.
type Era struct {
	Name    string            // shown in the recipe, e.g. "vllm bench serve (vLLM >= 0.10)"
	Program []string          // the words that start the tool
	Flags   map[string]string // concept -> option name
	Env     map[string]string // concept -> environment variable, where the era reads one
	Source  string            // testdata/flags file with the era's argument list
}

// Concepts a recipe sets. Server concepts first, then the benchmark's.
const (
	cModel         = "model"
	cDtype         = "dtype"
	cKVCacheDtype  = "kv_cache_dtype"
	cTP            = "tensor_parallel_size"
	cMaxNumSeqs    = "max_num_seqs"
	cEnforceEager  = "enforce_eager"
	cNoCUDAGraph   = "disable_cuda_graph"
	cAttention     = "attention_backend"
	cAddConfig     = "additional_config"
	cUseV1         = "use_v1"
	cBackend       = "backend"
	cDataset       = "dataset"
	cDatasetPath   = "dataset_path"   // the file (or hub id) a named dataset is read from
	cInputFile     = "input_file"     // genai-perf / AIPerf: requests read from a file
	cDatasetType   = "dataset_type"   // AIPerf: the input file's format
	cPublicDataset = "public_dataset" // AIPerf: a dataset it downloads by name
	cShareGPTOut   = "sharegpt_output_len"
	cCustomOut     = "custom_output_len"
	cHFOut         = "hf_output_len"
	cInputLen      = "input_len"
	cInputStd      = "input_len_stddev"
	cOutputLen     = "output_len"
	cOutputStd     = "output_len_stddev"
	cRangeRatio    = "range_ratio"
	cNumPrompts    = "num_prompts"
	cSeed          = "seed"
	cConcurrency   = "max_concurrency"
	cRequestRate   = "request_rate"
	cBurstiness    = "burstiness"
	cProfile       = "profile" // GuideLLM's rate type
	cWarmup        = "warmup"  // warm-up requests the tool sends and leaves out of its statistics
	cSave          = "save"
	cSyntheticData = "synthetic_data" // GuideLLM's --data prompt_tokens=…,output_tokens=…
	cDuration      = "duration"       // a time-bound run: how long it sends requests
)

// Server eras.
var (
	// VLLMAPIServer is vLLM before the `vllm serve` entry point (< 0.5): the model is a flag and
	// the attention backend an environment variable.
	VLLMAPIServer = Era{
		Name:    "python -m vllm.entrypoints.openai.api_server (vLLM < 0.5)",
		Program: []string{"python", "-m", "vllm.entrypoints.openai.api_server"},
		Flags: map[string]string{cModel: "--model", cDtype: "--dtype", cKVCacheDtype: "--kv-cache-dtype",
			cTP: "--tensor-parallel-size", cMaxNumSeqs: "--max-num-seqs", cEnforceEager: "--enforce-eager"},
		Env:    map[string]string{cAttention: "VLLM_ATTENTION_BACKEND"},
		Source: "vllm-api-server.txt",
	}
	// VLLMServeEnv is `vllm serve MODEL` while the backend was still chosen by environment
	// (0.5 to ≈0.11).
	VLLMServeEnv = Era{
		Name:    "vllm serve (vLLM 0.5-0.11, backend by environment)",
		Program: []string{"vllm", "serve"},
		Flags: map[string]string{cDtype: "--dtype", cKVCacheDtype: "--kv-cache-dtype", cTP: "--tensor-parallel-size",
			cMaxNumSeqs: "--max-num-seqs", cEnforceEager: "--enforce-eager", cAddConfig: "--additional-config"},
		Env:    map[string]string{cAttention: "VLLM_ATTENTION_BACKEND", cUseV1: "VLLM_USE_V1"},
		Source: "vllm-serve.txt",
	}
	// VLLMServe is `vllm serve MODEL --attention-backend X` (≈0.12 on, vLLM PR #26315).
	VLLMServe = Era{
		Name:    "vllm serve (vLLM >= 0.12)",
		Program: []string{"vllm", "serve"},
		Flags: map[string]string{cDtype: "--dtype", cKVCacheDtype: "--kv-cache-dtype", cTP: "--tensor-parallel-size",
			cMaxNumSeqs: "--max-num-seqs", cEnforceEager: "--enforce-eager", cAttention: "--attention-backend",
			cAddConfig: "--additional-config"},
		Source: "vllm-serve.txt",
	}
	// SGLangServer is `python -m sglang.launch_server`.
	SGLangServer = Era{
		Name:    "python -m sglang.launch_server",
		Program: []string{"python", "-m", "sglang.launch_server"},
		Flags: map[string]string{cModel: "--model-path", cDtype: "--dtype", cKVCacheDtype: "--kv-cache-dtype", cTP: "--tp-size",
			cMaxNumSeqs: "--max-running-requests", cNoCUDAGraph: "--disable-cuda-graph", cAttention: "--attention-backend"},
		Source: "sglang-launch-server.txt",
	}
)

// vllmBenchFlags are the options benchmark_serving.py and `vllm bench serve` share, and
// genAIPerfFlags those genai-perf and its successor AIPerf share.
var (
	vllmBenchFlags = map[string]string{cBackend: "--backend", cModel: "--model", cDataset: "--dataset-name",
		cDatasetPath: "--dataset-path", cShareGPTOut: "--sharegpt-output-len", cHFOut: "--hf-output-len",
		cInputLen: "--random-input-len", cOutputLen: "--random-output-len", cRangeRatio: "--random-range-ratio",
		cNumPrompts: "--num-prompts", cSeed: "--seed", cConcurrency: "--max-concurrency", cRequestRate: "--request-rate",
		cBurstiness: "--burstiness", cSave: "--save-result"}
	genAIPerfFlags = map[string]string{cModel: "--model", cBackend: "--endpoint-type", cInputLen: "--synthetic-input-tokens-mean",
		cInputStd: "--synthetic-input-tokens-stddev", cOutputLen: "--output-tokens-mean", cOutputStd: "--output-tokens-stddev",
		cNumPrompts: "--request-count", cSeed: "--random-seed", cConcurrency: "--concurrency", cRequestRate: "--request-rate",
		cWarmup: "--warmup-request-count", cInputFile: "--input-file"}
)

// Benchmark eras.
var (
	// VLLMBenchmarkServing is benchmarks/benchmark_serving.py of a vLLM checkout (result eras A-F).
	VLLMBenchmarkServing = Era{
		Name:    "benchmarks/benchmark_serving.py (vLLM < 0.10)",
		Program: []string{"python", "benchmarks/benchmark_serving.py"},
		Flags:   vllmBenchFlags,
		Source:  "vllm-benchmark-serving.txt",
	}
	// VLLMBenchServe is the `vllm bench serve` CLI (result era G, vLLM >= 0.10), which adds
	// --num-warmups and the custom (JSONL file) dataset.
	VLLMBenchServe = Era{
		Name:    "vllm bench serve (vLLM >= 0.10)",
		Program: []string{"vllm", "bench", "serve"},
		Flags:   with(with(vllmBenchFlags, cWarmup, "--num-warmups"), cCustomOut, "--custom-output-len"),
		Source:  "vllm-bench-serve.txt",
	}
	// SGLangBenchServing is `python -m sglang.bench_serving`.
	SGLangBenchServing = Era{
		Name:    "python -m sglang.bench_serving",
		Program: []string{"python", "-m", "sglang.bench_serving"},
		Flags: map[string]string{cBackend: "--backend", cModel: "--model", cDataset: "--dataset-name",
			cDatasetPath: "--dataset-path", cShareGPTOut: "--sharegpt-output-len",
			cInputLen: "--random-input-len", cOutputLen: "--random-output-len", cRangeRatio: "--random-range-ratio",
			cNumPrompts: "--num-prompts", cSeed: "--seed", cConcurrency: "--max-concurrency", cRequestRate: "--request-rate",
			cSave: "--output-file", cWarmup: "--warmup-requests"},
		Source: "sglang-bench-serving.txt",
	}
	// GenAIPerf is `genai-perf profile` (synthetic prompts; the request count is --request-count).
	GenAIPerf = Era{
		Name:    "genai-perf profile",
		Program: []string{"genai-perf", "profile"},
		Flags:   genAIPerfFlags,
		Source:  "genai-perf.txt",
	}
	// AIPerf is `aiperf profile`, genai-perf's successor with the same option names.
	AIPerf = Era{
		Name:    "aiperf profile",
		Program: []string{"aiperf", "profile"},
		Flags:   with(with(with(genAIPerfFlags, cDuration, "--benchmark-duration"), cDatasetType, "--custom-dataset-type"), cPublicDataset, "--public-dataset"),
		Source:  "aiperf.txt",
	}
	// GuideLLM is `guidellm benchmark run`: the load is a profile and a rate, the request shape
	// a synthetic --data spec.
	GuideLLM = Era{
		Name:    "guidellm benchmark run",
		Program: []string{"guidellm", "benchmark", "run"},
		Flags: map[string]string{cModel: "--model", cSyntheticData: "--data", cProfile: "--profile", cRequestRate: "--rate",
			cNumPrompts: "--max-requests", cSeed: "--random-seed"},
		Source: "guidellm.txt",
	}
	// LLMPerf is ray-project/llmperf's token_benchmark_ray.py.
	LLMPerf = Era{
		Name:    "llmperf token_benchmark_ray.py",
		Program: []string{"python", "token_benchmark_ray.py"},
		Flags: map[string]string{cModel: "--model", cBackend: "--llm-api", cInputLen: "--mean-input-tokens",
			cInputStd: "--stddev-input-tokens", cOutputLen: "--mean-output-tokens", cOutputStd: "--stddev-output-tokens",
			cNumPrompts: "--max-num-completed-requests", cConcurrency: "--num-concurrent-requests"},
		Source: "llmperf.txt",
	}
)

// Eras lists every era, for the flag test and the README table.
var Eras = []Era{VLLMAPIServer, VLLMServeEnv, VLLMServe, SGLangServer,
	VLLMBenchmarkServing, VLLMBenchServe, SGLangBenchServing, GenAIPerf, AIPerf, GuideLLM, LLMPerf}

// with returns a copy of flags with one more concept.
func with(flags map[string]string, concept, flag string) map[string]string {
	out := make(map[string]string, len(flags)+1)
	for k, v := range flags {
		out[k] = v
	}
	out[concept] = flag
	return out
}
