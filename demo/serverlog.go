package demo

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// serverLog writes a vLLM server log for one run: the new era (vLLM 0.12, bracketed file
// info and process tags) or, for the old image, vLLM 0.6.3 (no brackets, no tags).
func serverLog(d *runData) string {
	if d.a.oldEra {
		return oldServerLog(d)
	}
	return newServerLog(d)
}

type logw struct {
	b   strings.Builder
	now time.Time
}

func (l *logw) at(t time.Time) { l.now = t }

func (l *logw) step(ms int) { l.now = l.now.Add(time.Duration(ms) * time.Millisecond) }

// line writes "TAG LEVEL MM-DD HH:MM:SS [file:line] msg" (new) or without tag/brackets (old).
func (l *logw) line(tag, level, file, msg string, old bool) {
	if tag != "" {
		l.b.WriteString(tag + " ")
	}
	ts := l.now.Format("01-02 15:04:05")
	if old {
		fmt.Fprintf(&l.b, "%s %s %s] %s\n", level, ts, file, msg)
	} else {
		fmt.Fprintf(&l.b, "%s %s [%s] %s\n", level, ts, file, msg)
	}
}

func (l *logw) raw(s string) { l.b.WriteString(s + "\n") }

func accessLines(l *logw, d *runData, tag string, rng *rand.Rand) {
	port := 40000 + rng.IntN(20000)
	// vllm bench serve sends one initial test prompt before the measured requests.
	l.raw(strings.TrimSpace(tag + " " + fmt.Sprintf(`INFO:     127.0.0.1:%d - "POST /v1/completions HTTP/1.1" 200 OK`, port)))
	for i := range d.starts {
		port++
		l.raw(strings.TrimSpace(tag + " " + fmt.Sprintf(`INFO:     127.0.0.1:%d - "POST /v1/completions HTTP/1.1" 200 OK`, port)))
		_ = i
	}
}

func throughputs(d *runData) (prompt, gen float64) {
	in := 0
	for _, v := range d.inputLens {
		in += v
	}
	return float64(in) / d.duration, float64(d.a.numPrompts()*outputLen) / d.duration
}

func newServerLog(d *runData) string {
	rng := rand.New(rand.NewPCG(seedOf(d.a.folder(), "log"), uint64(d.n)))
	apiPID := 30000 + rng.IntN(30000)
	corePID := apiPID + 150 + rng.IntN(60)
	api := fmt.Sprintf("(APIServer pid=%d)", apiPID)
	core := fmt.Sprintf("(EngineCore_DP0 pid=%d)", corePID)
	l := &logw{}
	l.at(d.serverUp)
	l.line("", "INFO", "__init__.py:216", "Automatically detected platform cuda.", false)
	l.step(3800)
	l.line(api, "INFO", "api_server.py:1839", "vLLM API server version "+newEngine, false)
	args := fmt.Sprintf("{'model_tag': '%s', 'model': '%s', 'max_num_seqs': %d", modelID, modelID, maxNumSeqs)
	if d.a.target != "" {
		args += fmt.Sprintf(", 'attention_backend': '%s'", d.a.target)
	}
	l.line(api, "INFO", "utils.py:233", "non-default args: "+args+"}", false)
	l.step(7400)
	l.line(api, "INFO", "model.py:547", "Resolved architecture: LlamaForCausalLM", false)
	l.line(api, "INFO", "model.py:1510", "Using max model len 131072", false)
	l.step(300)
	l.line(api, "INFO", "scheduler.py:205", "Chunked prefill is enabled with max_num_batched_tokens=8192.", false)
	l.step(5600)
	l.line("", "INFO", "__init__.py:216", "Automatically detected platform cuda.", false)
	l.step(2100)
	l.line(core, "INFO", "core.py:644", "Waiting for init message from front-end.", false)
	l.line(core, "INFO", "core.py:77", "Initializing a V1 LLM engine (v"+newEngine+") with config: model='"+modelID+"', speculative_config=None, tokenizer='"+modelID+"', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=131072, download_dir=None, load_format=auto, tensor_parallel_size=1, pipeline_parallel_size=1, data_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0, served_model_name="+modelID+", enable_prefix_caching=True, enable_chunked_prefill=True, pooler_config=None, compilation_config={'level': None, 'mode': <CompilationMode.VLLM_COMPILE: 3>, 'backend': 'inductor', 'use_inductor': None, 'cudagraph_mode': <CUDAGraphMode.FULL_AND_PIECEWISE: (2, 1)>, 'max_cudagraph_capture_size': 512}", false)
	l.step(1900)
	l.line(core, "INFO", "parallel_state.py:1208", "rank 0 in world size 1 is assigned as DP rank 0, PP rank 0, TP rank 0, EP rank 0", false)
	l.step(600)
	l.line(core, "INFO", "gpu_model_runner.py:2602", "Starting to load model "+modelID+"...", false)
	l.step(400)
	if d.a.fallback {
		l.line(core, "DEBUG", "selector.py:162", "Some attention backends are not valid for cuda with AttentionSelectorConfig(head_size=128, dtype=torch.bfloat16, kv_cache_dtype=auto, block_size=16, use_mla=False, has_sink=False, use_sparse=False). Reasons: {FLASHINFER: [FlashInfer is not installed]}.", false)
		l.line(core, "INFO", "cuda.py:366", "Using FLASH_ATTN attention backend out of potential backends: ['FLASH_ATTN', 'TRITON_ATTN', 'FLEX_ATTENTION'].", false)
	} else {
		l.line(core, "INFO", "cuda.py:352", "Using AttentionBackendEnum."+d.a.resolved+" backend.", false)
	}
	if d.a.resolved == "FLASH_ATTN" {
		l.line(core, "INFO", "flash_attn.py:60", "Using FlashAttention version 3", false)
	}
	l.step(2700)
	l.line(core, "INFO", "weight_utils.py:392", "Using model weights format ['*.safetensors']", false)
	l.step(2600)
	l.raw(core + " Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:02<00:00,  1.62it/s]")
	l.line(core, "INFO", "default_loader.py:267", "Loading weights took 2.48 seconds", false)
	l.step(600)
	l.line(core, "INFO", "gpu_model_runner.py:2653", "Model loading took 14.9889 GiB and 3.214508 seconds", false)
	l.step(5300)
	l.line(core, "INFO", "backends.py:548", "Using cache directory: /root/.cache/vllm/torch_compile_cache/8c1f0e3a5b/rank_0_0/backbone for vLLM's torch.compile", false)
	l.line(core, "INFO", "backends.py:559", "Dynamo bytecode transform time: 5.21 s", false)
	l.step(5200)
	l.line(core, "INFO", "backends.py:197", "Directly load the compiled graph(s) for dynamic shape from the cache, took 4.873 s", false)
	l.line(core, "INFO", "monitor.py:34", "torch.compile takes 10.08 s in total", false)
	l.step(1300)
	l.line(core, "INFO", "gpu_worker.py:298", "Available KV cache memory: 54.27 GiB", false)
	l.line(core, "INFO", "kv_cache_utils.py:1087", "GPU KV cache size: 444,576 tokens", false)
	l.line(core, "INFO", "kv_cache_utils.py:1091", "Maximum concurrency for 131,072 tokens per request: 3.39x", false)
	l.raw(core + " Capturing CUDA graphs (mixed prefill-decode, PIECEWISE): 100%|██████████| 67/67 [00:03<00:00, 19.64it/s]")
	l.raw(core + " Capturing CUDA graphs (decode, FULL): 100%|██████████| 35/35 [00:01<00:00, 25.31it/s]")
	l.step(5100)
	l.line(core, "INFO", "gpu_model_runner.py:3480", "Graph capturing finished in 6 secs, took 0.52 GiB", false)
	l.line(core, "INFO", "core.py:210", "init engine (profile, create kv cache, warmup model) took 25.42 seconds", false)
	l.step(900)
	l.line(api, "INFO", "loggers.py:147", "Engine 000: vllm cache_config_info with initialization after num_gpu_blocks is: 27786", false)
	l.line(api, "INFO", "api_server.py:1634", "Supported_tasks: ['generate']", false)
	l.line(api, "INFO", "api_server.py:1912", "Starting vLLM API server 0 on http://0.0.0.0:8000", false)
	l.raw(api + " INFO:     Started server process [" + fmt.Sprint(apiPID) + "]")
	l.raw(api + " INFO:     Waiting for application startup.")
	l.raw(api + " INFO:     Application startup complete.")
	accessLines(l, d, api, rng)
	pt, gt := throughputs(d)
	l.at(d.benchStart.Add(5 * time.Second))
	l.line(api, "INFO", "loggers.py:127", fmt.Sprintf("Engine 000: Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: 16 reqs, Waiting: 0 reqs, GPU KV cache usage: 4.1%%, Prefix cache hit rate: 0.0%%", pt, gt), false)
	l.at(d.benchEnd.Add(10 * time.Second))
	l.line(api, "INFO", "loggers.py:127", fmt.Sprintf("Engine 000: Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%%, Prefix cache hit rate: 0.0%%", pt*0.3, gt*0.3), false)
	return l.b.String()
}

func oldServerLog(d *runData) string {
	rng := rand.New(rand.NewPCG(seedOf(d.a.folder(), "log"), uint64(d.n)))
	pid := 2000 + rng.IntN(3000)
	l := &logw{}
	l.at(d.serverUp)
	l.line("", "INFO", "api_server.py:528", "vLLM API server version "+oldEngine, true)
	l.line("", "INFO", "api_server.py:529", "args: Namespace(subparser='serve', model_tag='"+modelID+"', config='', host=None, port=8000, uvicorn_log_level='info', allow_credentials=False, allowed_origins=['*'], allowed_methods=['*'], allowed_headers=['*'], api_key=None, lora_modules=None, prompt_adapters=None, chat_template=None, response_role='assistant', ssl_keyfile=None, ssl_certfile=None, ssl_ca_certs=None, ssl_cert_reqs=0, root_path=None, middleware=[], return_tokens_as_token_ids=False, disable_frontend_multiprocessing=False, enable_auto_tool_choice=False, tool_call_parser=None, tool_parser_plugin='', model='"+modelID+"', tokenizer=None, skip_tokenizer_init=False, revision=None, code_revision=None, tokenizer_revision=None, tokenizer_mode='auto', trust_remote_code=False, download_dir=None, load_format='auto', config_format=<ConfigFormat.AUTO: 'auto'>, dtype='auto', kv_cache_dtype='auto', quantization_param_path=None, max_model_len=None, guided_decoding_backend='outlines', distributed_executor_backend=None, worker_use_ray=False, pipeline_parallel_size=1, tensor_parallel_size=1, max_parallel_loading_workers=None, ray_workers_use_nsight=False, block_size=16, enable_prefix_caching=False, disable_sliding_window=False, use_v2_block_manager=False, num_lookahead_slots=0, seed=0, swap_space=4, cpu_offload_gb=0, gpu_memory_utilization=0.9, num_gpu_blocks_override=None, max_num_batched_tokens=None, max_num_seqs="+fmt.Sprint(maxNumSeqs)+", max_logprobs=20, disable_log_stats=False, quantization=None, rope_scaling=None, rope_theta=None, enforce_eager=False, max_context_len_to_capture=None, max_seq_len_to_capture=8192, disable_custom_all_reduce=False, tokenizer_pool_size=0, tokenizer_pool_type='ray', tokenizer_pool_extra_config=None, limit_mm_per_prompt=None, mm_processor_kwargs=None, enable_lora=False, scheduling_policy='fcfs', disable_log_requests=False, max_log_len=None, disable_fastapi_docs=False, enable_prompt_tokens_details=False, dispatch_function=<function serve at 0x7f3a1c2d9e40>)", true)
	l.step(40)
	l.line("", "INFO", "api_server.py:166", "Multiprocessing frontend to use ipc:///tmp/4f0d6c2e-9a51-4c1b-8e7f-2b7d1a9c3e10 for IPC Path.", true)
	l.line("", "INFO", "api_server.py:179", fmt.Sprintf("Started engine process with PID %d", pid+31), true)
	l.step(6800)
	l.line("", "INFO", "llm_engine.py:237", "Initializing an LLM engine (v"+oldEngine+") with config: model='"+modelID+"', speculative_config=None, tokenizer='"+modelID+"', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config=None, rope_scaling=None, rope_theta=None, tokenizer_revision=None, trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=131072, download_dir=None, load_format=LoadFormat.AUTO, tensor_parallel_size=1, pipeline_parallel_size=1, disable_custom_all_reduce=False, quantization=None, enforce_eager=False, kv_cache_dtype=auto, quantization_param_path=None, device_config=cuda, decoding_config=DecodingConfig(guided_decoding_backend='outlines'), observability_config=ObservabilityConfig(otlp_traces_endpoint=None, collect_model_forward_time=False, collect_model_execute_time=False), seed=0, served_model_name="+modelID+", use_v2_block_manager=True, num_scheduler_steps=1, chunked_prefill_enabled=False multi_step_stream_outputs=True, enable_prefix_caching=False, use_async_output_proc=True, use_cached_outputs=True, mm_processor_kwargs=None)", true)
	l.step(900)
	l.line("", "INFO", "selector.py:141", "Using Flashinfer backend.", true)
	l.step(300)
	l.line("", "INFO", "model_runner.py:1056", "Starting to load model "+modelID+"...", true)
	l.line("", "INFO", "selector.py:141", "Using Flashinfer backend.", true)
	l.step(500)
	l.line("", "INFO", "weight_utils.py:243", "Using model weights format ['*.safetensors']", true)
	l.raw("Loading safetensors checkpoint shards: 100% Completed | 4/4 [00:02<00:00,  1.58it/s]")
	l.step(2700)
	l.line("", "INFO", "model_runner.py:1067", "Loading model weights took 14.9888 GB", true)
	l.step(2100)
	l.line("", "INFO", "gpu_executor.py:122", "# GPU blocks: 27301, # CPU blocks: 2048", true)
	l.line("", "INFO", "gpu_executor.py:126", "Maximum concurrency for 131072 tokens per request: 3.33x", true)
	l.step(2300)
	l.line("", "INFO", "model_runner.py:1395", "Capturing the model for CUDA graphs. This may lead to unexpected consequences if the model is not static. To run the model in eager mode, set 'enforce_eager=True' or use '--enforce-eager' in the CLI.", true)
	l.line("", "INFO", "model_runner.py:1399", "CUDA graphs can take additional 1~3 GiB memory per GPU. If you are running out of memory, consider decreasing `gpu_memory_utilization` or switching to eager mode. You can also reduce the `max_num_seqs` as needed to decrease memory usage.", true)
	l.step(10400)
	l.line("", "INFO", "model_runner.py:1523", "Graph capturing finished in 10 secs, took 0.85 GiB", true)
	l.step(700)
	l.line("", "INFO", "api_server.py:232", "vLLM to use /tmp/tmp8w1k2v3x as PROMETHEUS_MULTIPROC_DIR", true)
	l.line("", "INFO", "launcher.py:19", "Starting vLLM API server on http://0.0.0.0:8000", true)
	l.raw(fmt.Sprintf("INFO:     Started server process [%d]", pid))
	l.raw("INFO:     Waiting for application startup.")
	l.raw("INFO:     Application startup complete.")
	l.raw("INFO:     Uvicorn running on http://0.0.0.0:8000 (Press CTRL+C to quit)")
	accessLines(l, d, "", rng)
	pt, gt := throughputs(d)
	l.at(d.benchStart.Add(5 * time.Second))
	l.line("", "INFO", "metrics.py:349", fmt.Sprintf("Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: 16 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 3.8%%, CPU KV cache usage: 0.0%%.", pt, gt), true)
	l.at(d.benchEnd.Add(10 * time.Second))
	l.line("", "INFO", "metrics.py:349", fmt.Sprintf("Avg prompt throughput: %.1f tokens/s, Avg generation throughput: %.1f tokens/s, Running: 0 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.0%%, CPU KV cache usage: 0.0%%.", pt*0.3, gt*0.3), true)
	return l.b.String()
}
