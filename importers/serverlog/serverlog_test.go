package serverlog

// Table tests over realistic server logs. Each testdata file imitates one era / tool:
//
//	vllm-0.4.1-turing-ray.log            vLLM 0.4.1, Ray TP=2 on Turing: FA2 guard → XFormers, bf16 cast
//	vllm-0.5.3-fa-silent.log             vLLM 0.5.3.post1: the FLASH_ATTN path prints nothing
//	vllm-0.6.3-fp8-mp.log                vLLM 0.6.3 V0 mp TP=2, FP8 KV guard + FlashInfer advice, eager, missing-comma quirk
//	vllm-0.7.3-ci-timestamps.log         vLLM 0.7.3 V0 in CI: ISO / gpustack wrappers, env export, truncated config line
//	vllm-0.8.4-v1-tp2.log                vLLM 0.8.4 V1, "[file.py:N]" prefix, (VllmWorker rank=N) tags, JSON compilation_config
//	vllm-0.9.1-journald.log              vLLM 0.9.1 V1 under systemd/journald, FlashInfer w/o reason, ViT line
//	vllm-0.10.0-docker-compose.log       vLLM 0.10.0 under docker compose, sampler fallback (not attention)
//	vllm-0.10.1-blackwell-enginecore.log vLLM 0.10.1.1, (EngineCore_0) / (APIServer) / (VllmWorker TPn) tags, Blackwell default
//	vllm-0.10.2-pp-mixed.log             vLLM 0.10.2 PP=2, stages resolve differently (MIXED)
//	vllm-0.11.0-rocm-ansi.log            vLLM 0.11.0 ROCm with VLLM_LOGGING_COLOR, cudagraph override
//	vllm-0.11.1-sink-silent.log          vLLM 0.11.1 gpt-oss: "Using Triton backend." with no reason (silent override), MoE aux
//	vllm-0.12-auto-eager-vl.log          vLLM 0.12.0 "out of potential backends", enforce eager, MMEncoder + sampler aux
//	vllm-0.12-fatal-selected.log         vLLM 0.12.0 forced FLASHINFER → ValueError: Selected backend … is not valid
//	vllm-0.12-json-env.log               vLLM 0.12.0 JSON logging, VLLM_ATTENTION_BACKEND deprecation + AttentionBackendEnum.X
//	vllm-0.13-forced-flag.log            vLLM 0.13.0 --attention-config.backend (AttentionConfig repr), HND layout
//	vllm-0.14-debug-fallback.log         vLLM 0.14.0 DEBUG "Some attention backends are not valid … Reasons: {…}"
//	vllm-ascend-0.9.1-qwen-aclgraph.log  vllm-ascend 0.9.1 activated, ACL graph, [vllm-ascend] logger lines with ms
//	vllm-ascend-0.9.1-deepseek-torchair.log vllm-ascend 0.9.1 DeepSeek-V3 with torchair_graph_config
//	vllm-ascend-not-activated.log        vLLM 0.8.5 with vllm-ascend installed but the platform not activated
//	sglang-0.4.9-default-fa3.log         SGLang 0.4.9 server_args dump + "Attention backend not set. Use fa3 …" per TP rank
//	sglang-0.4.6-fp8-guard.log           SGLang ≈0.4.6 FA3 FP8 guard "Setting attention backend to triton"
//	sglang-0.5.4-blackwell-error.log     SGLang ≈0.5.4 newest prefix, AssertionError for hybrid GDN on Blackwell
//
// plus the three demo logs (demo/samples/*/run-1/server.log).

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"benchlens/model"
)

type want struct {
	engine, version, platform string
	target, targetSrc         string
	targetLine                int
	resolved, how, status     string
	procs                     int
	fallbacks                 []int
	fallbackText              string // substring of the first fallback
	failure                   int
	failureText               string
	overrides                 []int
	eager, compile, dtype     string
	args, cfg, kv, aux        map[string]string
	plugins                   []string
	graphFirst                int // line of the first graph/compile evidence line, 0 none
}

var cases = map[string]want{
	// demo: new era ≈0.12, forced FLASH_ATTN via --attention-backend
	"../../demo/samples/baseline/run-1/server.log": {
		engine: "vllm", version: "0.12.0", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "flag", targetLine: 3,
		resolved: "FLASH_ATTN", how: "logged", status: model.BackendMatch, procs: 1,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "64", "attention_backend": "FLASH_ATTN"},
		cfg:  map[string]string{"enforce_eager": "False", "enable_chunked_prefill": "True", "architecture": "LlamaForCausalLM"},
		kv:   map[string]string{"kv_cache_tokens": "444576", "kv_cache_gib": "54.27", "gpu_blocks": "27786"},
		aux:  map[string]string{"flash_attn_version": "3"}, graphFirst: 19,
	},
	// demo: new era, FLASHINFER asked, not installed → FLASH_ATTN
	"../../demo/samples/fallback/run-1/server.log": {
		engine: "vllm", version: "0.12.0", platform: "cuda",
		target: "FLASHINFER", targetSrc: "flag", targetLine: 3,
		resolved: "FLASH_ATTN", how: "logged", status: model.BackendFallback, procs: 1,
		fallbacks: []int{12}, fallbackText: "Reasons: {FLASHINFER: [FlashInfer is not installed]}",
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "64"}, graphFirst: 20,
	},
	// demo: old era 0.6.3, Flashinfer logged, no flag → era default FLASH_ATTN, no reason
	"../../demo/samples/driver-change/run-1/server.log": {
		engine: "vllm", version: "0.6.3.post1", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "FLASHINFER", how: "logged", status: model.BackendSilentOverride, procs: 1,
		eager: "cuda_graph", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "64", "enforce_eager": "False"},
		cfg:  map[string]string{"chunked_prefill_enabled": "False", "multi_step_stream_outputs": "True", "mm_processor_kwargs": "None"},
		kv:   map[string]string{"gpu_blocks": "27301", "cpu_blocks": "2048", "max_concurrency": "3.33"}, graphFirst: 14,
	},
	"vllm-0.4.1-turing-ray.log": {
		engine: "vllm", version: "0.4.1", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "XFORMERS", how: "logged", status: model.BackendFallback, procs: 2,
		fallbacks: []int{6, 8}, fallbackText: "Cannot use FlashAttention-2 backend for Volta and Turing GPUs.",
		overrides: []int{3}, eager: "cuda_graph", dtype: "float16",
		args: map[string]string{"max_num_seqs": "256", "tensor_parallel_size": "2", "model": "mistralai/Mistral-7B-Instruct-v0.2"},
		cfg:  map[string]string{"device_config": "cuda", "decoding_config": "DecodingConfig(guided_decoding_backend='outlines')", "seed": "0"},
		kv:   map[string]string{"gpu_blocks": "2831", "cpu_blocks": "4096", "model_weights_gib": "6.7544"}, graphFirst: 16,
	},
	"vllm-0.5.3-fa-silent.log": {
		engine: "vllm", version: "0.5.3.post1", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "FLASH_ATTN", how: "inferred", status: model.BackendUnknown,
		eager: "cuda_graph", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "128"}, graphFirst: 10,
	},
	"vllm-0.6.3-fp8-mp.log": {
		engine: "vllm", version: "0.6.3", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "XFORMERS", how: "logged", status: model.BackendFallback, procs: 2,
		fallbacks: []int{10, 11, 13, 14}, fallbackText: "Cannot use FlashAttention-2 backend for FP8 KV cache.",
		eager: "eager", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "96", "kv_cache_dtype": "fp8", "distributed_executor_backend": "mp"},
		cfg:  map[string]string{"kv_cache_dtype": "fp8", "enforce_eager": "True", "multi_step_stream_outputs": "True", "use_async_output_proc": "False"},
		kv:   map[string]string{"gpu_blocks": "31250", "max_concurrency": "15.26"}, graphFirst: 7,
	},
	"vllm-0.7.3-ci-timestamps.log": {
		engine: "vllm", version: "0.7.3", platform: "cuda",
		target: "XFORMERS", targetSrc: "env", targetLine: 1,
		resolved: "XFORMERS", how: "logged", status: model.BackendMatch, procs: 1,
		eager: "cuda_graph", dtype: "float16",
		args: map[string]string{"max_num_seqs": "8"},
		cfg:  map[string]string{"use_cached_outputs": "True", "max_seq_len": "2048"},
		kv:   map[string]string{"gpu_blocks": "64570", "max_concurrency": "504.45"}, graphFirst: 12,
	},
	"vllm-0.8.4-v1-tp2.log": {
		engine: "vllm", version: "0.8.4", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "FLASH_ATTN", how: "logged", status: model.BackendMatch, procs: 2,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "None", "tensor_parallel_size": "2", "gpu_memory_utilization": "0.92"},
		cfg:  map[string]string{"tensor_parallel_size": "2", "chunked_prefill_enabled": "True"},
		kv:   map[string]string{"kv_cache_tokens": "173216", "max_concurrency": "5.29", "max_num_batched_tokens": "2048", "init_engine_s": "97.95"},
		aux:  map[string]string{"sampler": "FLASHINFER"}, graphFirst: 21,
	},
	"vllm-0.9.1-journald.log": {
		engine: "vllm", version: "0.9.1", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "FLASHINFER", how: "logged", status: model.BackendSilentOverride, procs: 2,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "200", "kv_cache_dtype": "fp8"},
		aux:  map[string]string{"vit": "FLASH_ATTN"}, graphFirst: 12,
	},
	"vllm-0.10.0-docker-compose.log": {
		engine: "vllm", version: "0.10.0", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "FLASH_ATTN", how: "logged", status: model.BackendMatch, procs: 1,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "48", "gpu_memory_utilization": "0.85"},
		aux:  map[string]string{"sampler": "pytorch-native"}, graphFirst: 15,
	},
	"vllm-0.10.1-blackwell-enginecore.log": {
		engine: "vllm", version: "0.10.1.1", platform: "cuda",
		target: "FLASHINFER", targetSrc: "default",
		resolved: "FLASHINFER", how: "logged", status: model.BackendMatch, procs: 4,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "256", "api_key": "***", "tensor_parallel_size": "4"},
		cfg:  map[string]string{"max_model_len": "16384", "architecture": "LlamaForCausalLM"},
		kv:   map[string]string{"kv_cache_tokens": "1448576", "max_concurrency": "88.41", "kv_cache_gib": "110.52"}, graphFirst: 20,
	},
	"vllm-0.10.2-pp-mixed.log": {
		engine: "vllm", version: "0.10.2", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "MIXED", how: "logged", status: model.BackendSilentOverride, procs: 2,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "64", "pipeline_parallel_size": "2"}, graphFirst: 6,
	},
	"vllm-0.11.0-rocm-ansi.log": {
		engine: "vllm", version: "0.11.0", platform: "rocm",
		target: "TRITON_ATTN", targetSrc: "default",
		resolved: "TRITON_ATTN", how: "logged", status: model.BackendMatch, procs: 2,
		overrides: []int{7}, eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "512"}, graphFirst: 8,
	},
	"vllm-0.11.1-sink-silent.log": {
		engine: "vllm", version: "0.11.1", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "TRITON_ATTN", how: "logged", status: model.BackendSilentOverride, procs: 2,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "128", "async_scheduling": "True"},
		cfg:  map[string]string{"quantization": "mxfp4", "architecture": "GptOssForCausalLM"},
		aux:  map[string]string{"moe": "MARLIN"}, graphFirst: 18,
	},
	"vllm-0.12-auto-eager-vl.log": {
		engine: "vllm", version: "0.12.0", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "FLASH_ATTN", how: "logged", status: model.BackendMatch, procs: 1,
		eager: "eager", compile: "off", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "32", "enforce_eager": "True", "limit_mm_per_prompt": "{'image': 2, 'video': 0}"},
		cfg:  map[string]string{"enforce_eager": "True"},
		aux:  map[string]string{"vit": "FLASH_ATTN", "sampler": "FLASHINFER"}, graphFirst: 6,
	},
	"vllm-0.12-fatal-selected.log": {
		engine: "vllm", version: "0.12.0", platform: "cuda",
		target: "FLASHINFER", targetSrc: "flag", targetLine: 2,
		status: model.BackendFailed, failure: 11,
		failureText: "ValueError: Selected backend AttentionBackendEnum.FLASHINFER is not valid for this configuration. Reason: ['head_size not supported']",
		compile:     "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "16"},
	},
	"vllm-0.12-json-env.log": {
		engine: "vllm", version: "0.12.0", platform: "cuda",
		target: "TRITON_ATTN", targetSrc: "env", targetLine: 4,
		resolved: "TRITON_ATTN", how: "logged", status: model.BackendMatch, procs: 1,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "32"}, graphFirst: 8,
	},
	"vllm-0.13-forced-flag.log": {
		engine: "vllm", version: "0.13.0", platform: "cuda",
		target: "FLASHINFER", targetSrc: "flag", targetLine: 2,
		resolved: "FLASHINFER", how: "logged", status: model.BackendMatch, procs: 1,
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "64"},
		aux:  map[string]string{"kv_cache_layout": "HND"}, graphFirst: 11,
	},
	"vllm-0.14-debug-fallback.log": {
		engine: "vllm", version: "0.14.0", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default",
		resolved: "TRITON_ATTN", how: "logged", status: model.BackendFallback, procs: 4,
		fallbacks: []int{8, 10}, fallbackText: "Reasons: {FLASH_ATTN: [sink setting not supported], FLASHINFER: [sink setting not supported]}.",
		eager: "cuda_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "512"},
		aux:  map[string]string{"moe": "Triton"}, graphFirst: 16,
	},
	"vllm-ascend-0.9.1-qwen-aclgraph.log": {
		engine: "vllm-ascend", version: "0.9.1", platform: "npu", plugins: []string{"ascend", "ascend_enhanced_model"},
		target: "AscendAttentionBackend", targetSrc: "default",
		resolved: "AscendAttentionBackend", how: "inferred", status: model.BackendUnknown,
		overrides: []int{14}, eager: "acl_graph", compile: "on", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "64", "compilation_config": "{'level': 3, 'backend': 'vllm_ascend.compilation.compiler_interface.AscendCompiler'}"},
		cfg:  map[string]string{"device_config": "npu"},
		kv:   map[string]string{"kv_cache_tokens": "733824"}, graphFirst: 13,
	},
	"vllm-ascend-0.9.1-deepseek-torchair.log": {
		engine: "vllm-ascend", version: "0.9.1", platform: "npu", plugins: []string{"ascend"},
		target: "AscendMLATorchairBackend", targetSrc: "default",
		resolved: "AscendMLATorchairBackend", how: "inferred", status: model.BackendUnknown,
		eager: "acl_graph", compile: "off", dtype: "bfloat16",
		args: map[string]string{"max_num_seqs": "24", "quantization": "ascend"}, graphFirst: 7,
	},
	"vllm-ascend-not-activated.log": {
		engine: "vllm-ascend", version: "0.8.5.post1", platform: "unspecified",
		status: model.BackendUnknown, overrides: []int{6},
		args: map[string]string{"max_num_seqs": "None"},
	},
	"sglang-0.4.9-default-fa3.log": {
		engine: "sglang", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "default", targetLine: 2,
		resolved: "FLASH_ATTN", how: "logged", status: model.BackendMatch, procs: 2,
		eager: "cuda_graph", compile: "off", dtype: "bfloat16",
		args: map[string]string{"max_running_requests": "128", "tp_size": "2", "attention_backend": "None", "sampling_backend": "flashinfer"},
		cfg:  map[string]string{"architecture": "Qwen3ForCausalLM"},
		kv:   map[string]string{"kv_cache_tokens": "913452", "max_total_num_tokens": "913452"}, graphFirst: 9,
	},
	"sglang-0.4.6-fp8-guard.log": {
		engine: "sglang", platform: "cuda",
		target: "FLASH_ATTN", targetSrc: "flag", targetLine: 2,
		resolved: "TRITON_ATTN", how: "logged", status: model.BackendFallback, procs: 1,
		fallbacks: []int{1}, fallbackText: "FlashAttention3 only supports fp8_e4m3 if using FP8; Setting attention backend to triton.",
		eager: "eager", compile: "on", dtype: "bfloat16",
		args: map[string]string{"kv_cache_dtype": "fp8_e5m2", "max_running_requests": "64"},
	},
	"sglang-0.5.4-blackwell-error.log": {
		engine: "sglang", platform: "cuda",
		target: "FLASHINFER", targetSrc: "flag", targetLine: 2,
		status: model.BackendFailed, failure: 6, failureText: "AssertionError: Only {'trtllm_mha', 'triton', 'fa4'} backends are supported",
		compile: "off",
		args:    map[string]string{"tp_size": "4", "attention_backend": "flashinfer"},
	},
}

func lines(ls []model.Line) []int {
	var out []int
	for _, l := range ls {
		out = append(out, l.N)
	}
	return out
}

func TestParse(t *testing.T) {
	for name, w := range cases {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(name)))+"/"+filepath.Base(name), func(t *testing.T) {
			path := name
			if !strings.HasPrefix(name, "../") {
				path = filepath.Join("testdata", name)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !Sniff(data) {
				t.Errorf("Sniff = false")
			}
			ev, err := Parse(path, data)
			if err != nil {
				t.Fatal(err)
			}
			check := func(what, got, want string) {
				t.Helper()
				if got != want {
					t.Errorf("%s = %q, want %q", what, got, want)
				}
			}
			check("engine", ev.Engine, w.engine)
			check("version", ev.Version, w.version)
			check("platform", ev.Platform, w.platform)
			check("target", ev.TargetBackend, w.target)
			check("target source", ev.TargetSource, w.targetSrc)
			check("resolved", ev.Resolved, w.resolved)
			check("resolved source", ev.ResolvedHow, w.how)
			check("status", ev.Status, w.status)
			check("eager", ev.Eager, w.eager)
			check("torch_compile", ev.TorchCompile, w.compile)
			check("dtype", ev.Dtype, w.dtype)
			tl := 0
			if ev.TargetLine != nil {
				tl = ev.TargetLine.N
			}
			if tl != w.targetLine {
				t.Errorf("target line = %d, want %d", tl, w.targetLine)
			}
			if len(ev.Processes) != w.procs {
				t.Errorf("processes = %d %+v, want %d", len(ev.Processes), ev.Processes, w.procs)
			}
			if got := lines(ev.Fallbacks); !reflect.DeepEqual(got, w.fallbacks) {
				t.Errorf("fallback lines = %v, want %v", got, w.fallbacks)
			}
			if w.fallbackText != "" && (len(ev.Fallbacks) == 0 || !strings.Contains(ev.Fallbacks[0].Text, w.fallbackText)) {
				t.Errorf("first fallback %+v lacks %q", ev.Fallbacks, w.fallbackText)
			}
			if got := lines(ev.Overrides); !reflect.DeepEqual(got, w.overrides) {
				t.Errorf("override lines = %v, want %v", got, w.overrides)
			}
			fl := 0
			if ev.Failure != nil {
				fl = ev.Failure.N
				if !strings.Contains(ev.Failure.Text, w.failureText) {
					t.Errorf("failure text %q lacks %q", ev.Failure.Text, w.failureText)
				}
			}
			if fl != w.failure {
				t.Errorf("failure line = %d, want %d", fl, w.failure)
			}
			sub := func(what string, got, want map[string]string) {
				t.Helper()
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%s[%s] = %q, want %q", what, k, got[k], v)
					}
				}
			}
			sub("args", ev.Args, w.args)
			sub("engine_config", ev.EngineConfig, w.cfg)
			sub("kv_cache", ev.KVCache, w.kv)
			sub("aux", ev.AuxBackends, w.aux)
			if !reflect.DeepEqual(ev.Plugins, w.plugins) {
				t.Errorf("plugins = %v, want %v", ev.Plugins, w.plugins)
			}
			gf := 0
			if len(ev.GraphLines) > 0 {
				gf = ev.GraphLines[0].N
			}
			if gf != w.graphFirst {
				t.Errorf("first graph line = %d, want %d", gf, w.graphFirst)
			}
			// every quoted line must be the original file's line, envelope removed
			src := strings.Split(string(data), "\n")
			all := append(append(append([]model.Line{}, ev.Fallbacks...), ev.Overrides...), ev.GraphLines...)
			for _, p := range ev.Processes {
				all = append(all, p.Line)
			}
			if ev.TargetLine != nil {
				all = append(all, *ev.TargetLine)
			}
			if ev.Failure != nil {
				all = append(all, *ev.Failure)
			}
			for _, l := range all {
				if l.N < 1 || l.N > len(src) {
					t.Errorf("line %d out of range", l.N)
					continue
				}
				orig := stripANSI(src[l.N-1])
				key := l.Text
				if len(key) > 60 {
					key = key[len(key)-60:]
				}
				if !strings.Contains(orig, key) && !strings.Contains(orig, strings.ReplaceAll(key, `"`, `\"`)) {
					t.Errorf("line %d: quote %q not in original %q", l.N, l.Text, orig)
				}
			}
		})
	}
}

// Every testdata file must be in the table.
func TestAllTestdataCovered(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.log")
	for _, f := range files {
		if _, ok := cases[filepath.Base(f)]; !ok {
			t.Errorf("%s has no table row", f)
		}
	}
}

func TestProcessTags(t *testing.T) {
	data, _ := os.ReadFile("testdata/vllm-0.10.2-pp-mixed.log")
	ev, _ := Parse("x", data)
	want := []model.ProcessBackend{
		{Tag: "(Worker_PP0 pid=911)", Backend: "FLASH_ATTN"},
		{Tag: "(Worker_PP1 pid=912)", Backend: "FLEX_ATTENTION"},
	}
	for i, p := range ev.Processes {
		if p.Tag != want[i].Tag || p.Backend != want[i].Backend {
			t.Errorf("process %d = %q %s, want %q %s", i, p.Tag, p.Backend, want[i].Tag, want[i].Backend)
		}
	}
	data, _ = os.ReadFile("testdata/sglang-0.4.9-default-fa3.log")
	ev, _ = Parse("x", data)
	if ev.Processes[0].Tag != "TP0" || ev.Processes[1].Tag != "TP1" {
		t.Errorf("sglang tags = %+v", ev.Processes)
	}
}

func TestNormalise(t *testing.T) {
	for in, want := range map[string]string{
		"Flash Attention": "FLASH_ATTN", "FlashAttention-2": "FLASH_ATTN", "FLASH_ATTN": "FLASH_ATTN",
		"FLASH_ATTN_VLLM_V1": "FLASH_ATTN", "AttentionBackendEnum.FLASH_ATTN": "FLASH_ATTN",
		"<AttentionBackendEnum.FLASHINFER: 'vllm.v1.attention.backends.flashinfer.FlashInferBackend'>": "FLASHINFER",
		"_Backend.XFORMERS": "XFORMERS", "Flashinfer": "FLASHINFER", "FlashInfer": "FLASHINFER", "XFormers": "XFORMERS",
		"Torch SDPA": "TORCH_SDPA", "FlexAttention": "FLEX_ATTENTION", "Triton": "TRITON_ATTN",
		"Triton Attention": "TRITON_ATTN", "TRITON_ATTN_VLLM_V1": "TRITON_ATTN", "ROCmFlashAttention": "ROCM_FLASH",
		"Rocm Attention": "ROCM_ATTN", "Aiter Flash Attention": "ROCM_AITER_FA", "Aiter Unified Attention": "ROCM_AITER_UNIFIED_ATTN",
		"Triton MLA": "TRITON_MLA", "FlashMLA": "FLASHMLA", "Cutlass MLA": "CUTLASS_MLA", "FlashInfer MLA": "FLASHINFER_MLA",
		"FlashAttention MLA": "FLASH_ATTN_MLA", "Sparse MLA": "FLASHMLA_SPARSE", "AITER MLA": "ROCM_AITER_MLA",
		"Pallas": "PALLAS", "IPEX attention": "IPEX", "OpenVINO Attention": "OPENVINO",
		"BlocksparseFlashAttention": "BLOCK_SPARSE_FLASH_ATTN", "DualChunkFlashAttention": "DUAL_CHUNK_FLASH_ATTN",
		"DifferentialFlashAttention": "DIFFERENTIAL_FLASH_ATTN", "Tree Attention": "TREE_ATTN",
		"vllm.v1.attention.backends.flash_attn.FlashAttentionBackend": "FLASH_ATTN",
		"fa3": "FLASH_ATTN", "fa4": "FLASH_ATTN", "flashinfer": "FLASHINFER", "triton": "TRITON_ATTN",
		"torch_native": "TORCH_SDPA", "flex_attention": "FLEX_ATTENTION", "flashmla": "FLASHMLA", "cutlass_mla": "CUTLASS_MLA",
		"trtllm_mha": "TRTLLM_MHA", "trtllm_mla": "TRTLLM_MLA", "nsa": "NSA", "ascend": "ASCEND",
		"vllm_ascend.attention.attention_v1.AscendAttentionBackend": "AscendAttentionBackend",
		"'FLASHINFER'": "FLASHINFER", "None": "", "auto": "", "": "",
	} {
		if got := Normalise(in); got != want {
			t.Errorf("Normalise(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitEnvelope(t *testing.T) {
	for _, c := range []struct {
		in, tag, level, file, msg string
	}{
		{"INFO 03-25 22:31:57 llm_engine.py:98] hello", "", "INFO", "llm_engine.py", "hello"},
		{"INFO 03-25 22:31:57 [v1/executor/multiproc_executor.py:749] hello", "", "INFO", "v1/executor/multiproc_executor.py", "hello"},
		{"INFO 03-25 22:31:57.123 [platform.py:12] [vllm-ascend] x", "", "INFO", "platform.py", "[vllm-ascend] x"},
		{"(VllmWorker rank=3 pid=12) WARNING 03-25 22:31:57 [a.py:1] m", "(VllmWorker rank=3 pid=12)", "WARNING", "a.py", "m"},
		{"(RayWorkerWrapper pid=5, ip=10.0.0.1) INFO 03-25 22:31:57 a.py:1] m", "(RayWorkerWrapper pid=5, ip=10.0.0.1)", "INFO", "a.py", "m"},
		{"(Worker_TP4_EP4 pid=9) INFO 03-25 22:31:57 [a.py:1] m", "(Worker_TP4_EP4 pid=9)", "INFO", "a.py", "m"},
		{"svc.api-1  | (APIServer pid=1) INFO 03-25 22:31:57 [a.py:1] m", "(APIServer pid=1)", "INFO", "a.py", "m"},
		{"Mar  5 22:31:57 host vllm[123]: DEBUG 03-05 22:31:57 [a.py:1] m", "", "DEBUG", "a.py", "m"},
		{"2025-08-12T08:42:31.123456Z | INFO 08-12 08:42:31 [a.py:1] m", "", "INFO", "a.py", "m"},
		{"[2025-08-12T08:42:31Z] INFO 08-12 08:42:31 [a.py:1] m", "", "INFO", "a.py", "m"},
		{"[2025-08-12 08:42:31] INFO 08-12 08:42:31 [a.py:1] m", "", "INFO", "a.py", "m"},
		{"nid005113 out: INFO 08-12 08:42:31 [a.py:1] m", "", "INFO", "a.py", "m"},
		{"\x1b[1;36m(APIServer pid=1)\x1b[0m \x1b[32mINFO\x1b[0m 08-12 08:42:31 \x1b[2m[a.py:1]\x1b[0m m", "(APIServer pid=1)", "INFO", "a.py", "m"},
		{"myprefix INFO 08-12 08:42:31 [a.py:1] m", "", "INFO", "a.py", "m"},
		{`{"level": "INFO", "time": "02-20 21:47:27.028", "file_path": "/x/a.py", "line_number": "1", "message": "m"}`, "", "INFO", "/x/a.py", "m"},
		{"[2025-07-09 11:52:30 DP0 TP0 EP0] Attention backend not set.", "DP0 TP0 EP0", "", "", "Attention backend not set."},
		{"[2025-07-09 11:52:30] INFO model_runner.py:12: hello", "", "INFO", "model_runner.py", "hello"},
		{"(EngineCore_DP0 pid=1)", "(EngineCore_DP0 pid=1)", "", "", ""},
		{"Loading safetensors checkpoint shards: 100% Completed | 4/4", "", "", "", "Loading safetensors checkpoint shards: 100% Completed | 4/4"},
	} {
		r := split(1, c.in)
		if r.tag != c.tag || r.level != c.level || r.file != c.file || r.msg != c.msg {
			t.Errorf("split(%q) = tag %q level %q file %q msg %q; want %q %q %q %q", c.in, r.tag, r.level, r.file, r.msg, c.tag, c.level, c.file, c.msg)
		}
	}
}

func TestParseKV(t *testing.T) {
	got := map[string]string{}
	parseKV(`model='a, b', x=Foo(y=1, z=[1, 2]), chunked_prefill_enabled=False multi_step_stream_outputs=True, d={"a":1,"b":[2,3]}, e=<X.Y: (2, 1)>, f=None)`, got)
	want := map[string]string{"model": "a, b", "x": "Foo(y=1, z=[1, 2])", "chunked_prefill_enabled": "False",
		"multi_step_stream_outputs": "True", "d": `{"a":1,"b":[2,3]}`, "e": "<X.Y: (2, 1)>", "f": "None"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseKV = %v\nwant %v", got, want)
	}
	// truncated / hard-wrapped tails drop the last pair
	got = map[string]string{}
	parseKV(`a=1, max_seq_len=131072, compilation_config={"level":3,"use_cudagraph`, got)
	if !reflect.DeepEqual(got, map[string]string{"a": "1", "max_seq_len": "131072"}) {
		t.Errorf("truncated parseKV = %v", got)
	}
	got = map[string]string{}
	parseKV(`a=1, b=2, max_seq_len=13…`, got)
	if !reflect.DeepEqual(got, map[string]string{"a": "1", "b": "2"}) {
		t.Errorf("ellipsis parseKV = %v", got)
	}
	got = map[string]string{}
	parseDict(`{'model': 'x', 'api_key': '***', 'attention_config': AttentionConfig(backend=<AttentionBackendEnum.FLASH_ATTN: 'x'>), 'n': 3}`, got)
	if got["model"] != "x" || got["n"] != "3" || got["api_key"] != "***" || !strings.HasPrefix(got["attention_config"], "AttentionConfig(backend=") {
		t.Errorf("parseDict = %v", got)
	}
}

// Inline cases for lines the testdata files do not cover.
func TestParseInline(t *testing.T) {
	for _, c := range []struct {
		name, log                  string
		target, src, res, status   string
		fallbacks, overrides, fail int
	}{
		{"0.5 head size guard", "INFO 07-01 00:00:00 api_server.py:1] vLLM API server version 0.5.0\n" +
			"INFO 07-01 00:00:01 llm_engine.py:1] Initializing an LLM engine (v0.5.0) with config: model='m', dtype=torch.float16\n" +
			"INFO 07-01 00:00:02 selector.py:1] Cannot use FlashAttention-2 backend for head size 80.\n" +
			"INFO 07-01 00:00:02 selector.py:1] Using XFormers backend.\n",
			"FLASH_ATTN", "default", "XFORMERS", model.BackendFallback, 1, 0, 0},
		{"env invalid 0.6", "INFO 09-01 00:00:00 api_server.py:1] vLLM API server version 0.6.1\n" +
			"ERROR 09-01 00:00:01 engine.py:1] ValueError: Invalid attention backend 'FLASH_ATTN_V2'. Available backends: FLASH_ATTN, XFORMERS (case-sensitive).\n",
			"FLASH_ATTN_V2", "env", "", model.BackendFailed, 0, 0, 2},
		{"no valid backend", "(EngineCore pid=1) ERROR 01-01 00:00:00 [core.py:1] No valid attention backend found for cuda with AttentionSelectorConfig(head_size=512). Reasons: {FLASH_ATTN: [head_size not supported]}.\n",
			"FLASH_ATTN", "default", "", model.BackendFailed, 0, 0, 1},
		{"mla v1 flashmla guard", "INFO 05-01 00:00:00 [api_server.py:1] vLLM API server version 0.8.5\n" +
			"WARNING 05-01 00:00:01 [cuda.py:1] FlashMLA backend is not supported due to SM90 required\n" +
			"INFO 05-01 00:00:01 [cuda.py:1] Using Triton MLA backend on V1 engine.\n",
			"FLASHMLA", "default", "TRITON_MLA", model.BackendFallback, 1, 0, 0},
		{"sampler fallback is not attention", "INFO 05-01 00:00:00 [api_server.py:1] vLLM API server version 0.9.0\n" +
			"WARNING 05-01 00:00:01 [topk_topp_sampler.py:1] FlashInfer is not available. Falling back to the PyTorch-native implementation of top-p & top-k sampling.\n" +
			"INFO 05-01 00:00:01 [cuda.py:1] Using Flash Attention backend on V1 engine.\n",
			"FLASH_ATTN", "default", "FLASH_ATTN", model.BackendMatch, 0, 0, 0},
		{"v1 to v0 and dtype", "INFO 05-01 00:00:00 [api_server.py:1] vLLM API server version 0.8.2\n" +
			"WARNING 05-01 00:00:01 [arg_utils.py:1] Speculative decoding is not supported by the V1 Engine. Falling back to V0.\n" +
			"WARNING 05-01 00:00:01 [config.py:1] Your device 'Tesla T4' (with compute capability 7.5) doesn't support torch.bfloat16. Falling back to torch.float16 for compatibility.\n" +
			"INFO 05-01 00:00:02 [cuda.py:1] Cannot use FlashAttention-2 backend for Volta and Turing GPUs.\n" +
			"INFO 05-01 00:00:02 [cuda.py:1] Using XFormers backend.\n",
			"FLASH_ATTN", "default", "XFORMERS", model.BackendFallback, 1, 2, 0},
		{"suffix env warning", "(APIServer pid=1) INFO 10-01 00:00:00 [api_server.py:1] vLLM API server version 0.11.0\n" +
			"(APIServer pid=1) WARNING 10-01 00:00:00 [envs.py:1] The suffix '_VLLM_V1' in the environment variable VLLM_ATTENTION_BACKEND is no longer necessary as V0 backends have been deprecated. Please remove this suffix from your environment variable setting.\n" +
			"(EngineCore_DP0 pid=2) INFO 10-01 00:00:01 [cuda.py:1] Using FlexAttention backend on V1 engine.\n",
			"FLEX_ATTENTION", "env", "FLEX_ATTENTION", model.BackendMatch, 0, 0, 0},
		{"crlf and blank tag lines", "INFO 05-01 00:00:00 [api_server.py:1] vLLM API server version 0.9.0\r\n(VllmWorker rank=0 pid=1)\r\n" +
			"(VllmWorker rank=0 pid=1) INFO 05-01 00:00:01 [cuda.py:1] Using Flash Attention backend on V1 engine.\r\n",
			"FLASH_ATTN", "default", "FLASH_ATTN", model.BackendMatch, 0, 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev, err := Parse(c.name, []byte(c.log))
			if err != nil {
				t.Fatal(err)
			}
			if ev.TargetBackend != c.target || ev.TargetSource != c.src || ev.Resolved != c.res || ev.Status != c.status ||
				len(ev.Fallbacks) != c.fallbacks || len(ev.Overrides) != c.overrides {
				t.Errorf("got target %s/%s resolved %s status %s fallbacks %d overrides %d; want %s/%s %s %s %d %d",
					ev.TargetBackend, ev.TargetSource, ev.Resolved, ev.Status, len(ev.Fallbacks), len(ev.Overrides),
					c.target, c.src, c.res, c.status, c.fallbacks, c.overrides)
			}
			fl := 0
			if ev.Failure != nil {
				fl = ev.Failure.N
			}
			if fl != c.fail {
				t.Errorf("failure line %d, want %d", fl, c.fail)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	for name, data := range map[string][]byte{
		"nul":  []byte("INFO 05-01 00:00:00 [a.py:1] ok\nbad\x00line\n"),
		"gzip": {0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03},
	} {
		_, err := Parse("f.log", data)
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "f.log: line ") {
			t.Errorf("%s: error %q does not name file and line", name, err)
		}
	}
	if _, err := Parse("nul.log", []byte("a\nb\n\x00")); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("NUL on line 3: %v", err)
	}
	ev, err := Parse("empty.log", nil)
	if err != nil || ev.Status != model.BackendUnknown {
		t.Errorf("empty: %v %+v", err, ev)
	}
}

func TestSniffNegative(t *testing.T) {
	for name, s := range map[string]string{
		"nvidia-smi csv": "timestamp, index, utilization.gpu [%]\n2025/01/01 00:00:00.000, 0, 35 %\n",
		"bench json":     `{"date": "20250101-000000", "backend": "vllm", "model_id": "x", "completed": 10, "request_throughput": 1.0}`,
		"sglang jsonl":   `{"backend": "sglang", "dataset_name": "random", "request_rate": "inf", "completed": 100}` + "\n",
		"kineto":         `{"schemaVersion": 1, "traceEvents": [{"name": "vllm::unified_attention", "ph": "X"}]}`,
		"python log":     "2025-01-01 00:00:00,000 INFO something happened\nanother line\n",
		"dmon":           "# gpu    pwr  gtemp  mtemp     sm    mem\n# Idx      W      C      C      %      %\n    0     70     40      -     90     30\n",
		"binary":         "\x1f\x8b\x08\x00garbage",
	} {
		if Sniff([]byte(s)) {
			t.Errorf("Sniff(%s) = true", name)
		}
	}
}
