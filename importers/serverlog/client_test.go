package serverlog

import (
	"strings"
	"testing"

	"benchlens/model"
)

// A benchmark client's console says nothing of the server: no target (the era's default was
// given as "asked FLASH_ATTN" on a TPU), no backend, no platform, and a client exception is no
// server failure. A file where a server spoke stays a server log, client lines and all.
func TestClientConsoleClaimsNothingOfTheServer(t *testing.T) {
	// vllm bench serve on a TPU VM (tsho/vllm-benchmark-scripts, bench-short-rate2.log, cut).
	benchServe := strings.Join([]string{
		"INFO 04-26 19:51:00 [__init__.py:59] TPU info: node_name=vllm-bench-tpu-v6e-4 | tpu_type=v6e-4 | worker_id=0 | num_chips=4 | num_cores_per_chip=1",
		"INFO 04-26 19:51:04 [importing.py:44] Triton is installed but 0 active driver(s) found (expected 1). Disabling Triton to prevent runtime errors.",
		"WARNING 04-26 19:51:04 [interface.py:229] Failed to import from vllm._C: ModuleNotFoundError(\"No module named 'vllm._C'\")",
		"INFO 04-26 19:51:04 [tpu_platform.py:105] Automatically using fp8_e5m2 for FP8 KV cache on TPU v6e.",
		"Namespace(subparser='bench', bench_type='serve', dispatch_function=<function BenchmarkServingSubcommand.cmd at 0x79a227a584a0>, seed=0, num_prompts=1000, dataset_name='random', backend='openai', model='google/gemma-4-31B-it', request_rate=2.0)",
		"INFO 04-26 19:51:08 [datasets.py:703] Sampling input_len from [1024, 1024] and output_len from [256, 256]",
		"Starting main benchmark run...",
		"aiohttp.client_exceptions.ServerDisconnectedError: Server disconnected",
		"============ Serving Benchmark Result ============",
		"Successful requests:                     999",
	}, "\n")
	// benchmark_serving.py (vLLM <= 0.9) and sglang.bench_serving print their Namespace bare.
	servingPy := "Namespace(backend='vllm', base_url=None, host='127.0.0.1', port=8000, endpoint='/v1/completions', dataset=None, dataset_name='sharegpt', model='meta-llama/Llama-3.1-8B-Instruct', request_rate=inf)\n" +
		"INFO 01-08 10:00:01 [utils.py:12] Starting initial single prompt test run...\n"
	sglBench := "Namespace(backend='sglang', base_url=None, host='0.0.0.0', port=30000, dataset_name='random', model=None, request_rate=4.0)\n" +
		"#Input tokens: 1024000\n"
	// A launcher that wrote the server's and the client's output to one file.
	both := "INFO 04-26 19:40:00 [api_server.py:1090] vLLM API server version 0.11.0\n" +
		"INFO 04-26 19:40:05 [cuda.py:300] Using Flash Attention backend on V1 engine.\n" +
		"Namespace(subparser='bench', bench_type='serve', model='m', request_rate=1.0)\n"
	for _, c := range []struct {
		name, log, engine string
		client            bool
	}{
		{"vllm bench serve on a TPU", benchServe, "vllm", true},
		{"benchmark_serving.py", servingPy, "vllm", true},
		{"sglang.bench_serving", sglBench, "sglang", true},
		{"server and client in one file", both, "vllm", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev, err := Parse("bench.log", []byte(c.log))
			if err != nil {
				t.Fatal(err)
			}
			if !c.client {
				if ev.Client != nil || ev.Resolved != "FLASH_ATTN" || ev.Version != "0.11.0" {
					t.Errorf("a server's log read as a client's: client %v, resolved %q, version %q", ev.Client, ev.Resolved, ev.Version)
				}
				return
			}
			if ev.Client == nil || !strings.HasPrefix(ev.Client.Text, "Namespace(") {
				t.Fatalf("not read as a client's console: %+v", ev)
			}
			want := model.LogEvidence{Engine: c.engine, Client: ev.Client, Status: model.BackendUnknown}
			if ev.Engine != want.Engine || ev.TargetBackend != "" || ev.TargetSource != "" || ev.Resolved != "" || ev.Platform != "" ||
				ev.Failure != nil || len(ev.ServerFailure) != 0 || ev.Status != model.BackendUnknown || ev.Version != "" {
				t.Errorf("a client's console claims the server's: %+v", ev)
			}
		})
	}
}
