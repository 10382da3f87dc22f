package serverlog

import "testing"

// The path messages of rule 10, each on a line as vLLM prints it.
func TestPathLines(t *testing.T) {
	cases := []struct {
		line, key, want string
	}{
		{"INFO 06-10 09:00:00 [gptq_marlin.py:266] Using MarlinLinearKernel for GPTQMarlinLinearMethod", "linear", "MarlinLinearKernel"},
		{"INFO 06-10 09:00:00 [compressed_tensors_wNa16.py:95] Using MacheteLinearKernel for CompressedTensorsWNA16", "linear", "MacheteLinearKernel"},
		{"(EngineCore_DP0 pid=212) INFO 10-01 12:00:00 [__init__.py:92] Selected CutlassFP8ScaledMMLinearKernel for Fp8LinearMethod", "linear", "CutlassFP8ScaledMMLinearKernel"},
		{"WARNING 12-02 10:00:00 [marlin_utils_fp8.py:80] Your GPU does not have native support for FP8 computation but FP8 quantization is being used. Weight-only FP8 compression will be used leveraging the Marlin kernel. This may degrade performance for compute-heavy workloads.", "linear", "Marlin (weight-only FP8)"},
		{"(Worker_DP0_TP0_EP0 pid=10536) INFO 02-27 15:00:35 [unquantized.py:131] Using TRITON backend for Unquantized MoE", "moe", "TRITON"},
		{"INFO 05-02 07:54:19 [topk_topp_sampler.py:59] Using FlashInfer for top-p & top-k sampling.", "sampler", "FLASHINFER"},
		{"(VllmWorkerProcess pid=180) WARNING 03-19 08:09:03 custom_all_reduce.py:134] Custom allreduce is disabled because it's not supported on more than two PCIe-only GPUs. To silence this warning, specify disable_custom_all_reduce=True explicitly.", "all_reduce", "nccl (custom all-reduce disabled)"},
		{"WARNING 10-06 15:56:46 [custom_all_reduce.py:144] Custom allreduce is disabled because your platform lacks GPU P2P capability or P2P test failed. To silence this warning, specify disable_custom_all_reduce=True explicitly.", "all_reduce", "nccl (custom all-reduce disabled)"},
		{"INFO 08-01 10:00:00 [core.py:77] Initializing a V1 LLM engine (v0.10.1) with config: model='m', tensor_parallel_size=4, disable_custom_all_reduce=False, enforce_eager=False, compilation_config={\"level\":3,\"cudagraph_mode\":[2,1],\"use_cudagraph\":true}", "all_reduce", "custom"},
		{"INFO 08-01 10:00:00 [core.py:77] Initializing a V1 LLM engine (v0.10.1) with config: model='m', tensor_parallel_size=1, disable_custom_all_reduce=False, enforce_eager=False, compilation_config={\"level\":3,\"cudagraph_mode\":[2,1],\"use_cudagraph\":true}\nINFO 08-01 10:01:00 [gpu_model_runner.py:2567] Graph capturing finished in 12 secs, took 0.51 GiB", "graph", "cuda_graph, cudagraph_mode [2,1], compile level 3"},
		{"(EngineCore_DP0 pid=1) INFO 11-20 10:00:00 [core.py:93] Initializing a V1 LLM engine (v0.11.2) with config: model='m', enforce_eager=True, compilation_config={'mode': <CompilationMode.NONE: 0>, 'cudagraph_mode': <CUDAGraphMode.NONE: 0>}", "graph", "eager, compile NONE"},
	}
	for _, c := range cases {
		ev, err := Parse("x.log", []byte(c.line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := ev.AuxBackends[c.key]; got != c.want {
			t.Errorf("%.60q: %s = %q, want %q (aux %v)", c.line, c.key, got, c.want, ev.AuxBackends)
		}
		if _, ok := ev.AuxLines[c.key]; !ok && c.key != "all_reduce" && c.key != "graph" {
			t.Errorf("%.60q: no line kept for %s", c.line, c.key)
		}
	}
}
