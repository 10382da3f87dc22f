package serverlog

// Table tests over realistic server logs. Each testdata file imitates one era / tool:
//
//	vllm-0.4.1-turing-ray.log            vLLM 0.4.1, Ray TP=2 on Turing: FA2 guard → XFormers, bf16 cast
//	vllm-0.5.3-fa-silent.log             vLLM 0.5.3.post1: the FLASH_ATTN path prints nothing
//	vllm-0.6.3-fp8-mp.log                vLLM 0.6.3 V0 mp TP=2, FP8 KV guard + FlashInfer advice, eager, missing-comma quirk
//	vllm-0.7.2-markdown-stray-bracket-t4.log vLLM 0.7.2 V0 on a T4 pasted from Markdown: "[cuda.py:227](http://cuda.py:227/)] …"
//	                                     (links around the ≤0.7 field, its "]" left behind; the form of a real pasted log)
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
// plus the three demo logs (demo/samples/*/run-1/server.log) and the real vllm-ascend start-up
// of the fixtures (npu_13: vLLM 0.27.1 + vllm-ascend, DeepSeek V4.1 DSA, eager).

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"benchlens/internal/goldenfile"
	"benchlens/model"
)

// logFiles maps a golden name to each log: every testdata/*.log and the three demo logs.
func logFiles(t *testing.T) map[string]string {
	files, err := filepath.Glob("testdata/*.log")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata logs: %v", err)
	}
	out := map[string]string{}
	for _, f := range files {
		out[filepath.Base(f)] = f
	}
	for _, arm := range []string{"baseline", "fallback", "driver-change"} {
		out["demo-"+arm+".log"] = filepath.Join("../../demo/samples", arm, "run-1/server.log")
	}
	out["fixture-npu_13.log"] = "../../testdata/fixtures/turn3/npu_13_vllm-ascend_0.27.1_eager_serve.EXCERPT.log"
	return out
}

// TestParse compares the whole evidence of every log with testdata/golden/<log>.json
// (go test -update rewrites them) and checks that every quoted line is the file's own.
func TestParse(t *testing.T) {
	for name, path := range logFiles(t) {
		t.Run(name, func(t *testing.T) {
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
			goldenfile.JSON(t, filepath.Join("testdata", "golden", name+".json"), ev)
			checkQuotes(t, data, ev)
		})
	}
}

// checkQuotes fails unless every quoted line is the original file's line, envelope removed
// (colours, and the links a Markdown paste added).
func checkQuotes(t *testing.T, data []byte, ev *model.LogEvidence) {
	t.Helper()
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
		orig := stripMarkdownLinks(stripANSI(src[l.N-1])) // as the server wrote it
		key := l.Text
		if len(key) > 60 {
			key = key[len(key)-60:]
		}
		if !strings.Contains(orig, key) && !strings.Contains(orig, strings.ReplaceAll(key, `"`, `\"`)) {
			t.Errorf("line %d: quote %q not in original %q", l.N, l.Text, orig)
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
		// pasted from Markdown: the field made a link, the logger's brackets left around it
		{"INFO 02-13 15:54:31 [cuda.py:227](http://cuda.py:227/) Using XFormers backend.", "", "INFO", "cuda.py", "Using XFormers backend."},
		{"INFO 02-13 15:54:31 [cuda.py:227](http://cuda.py:227/)] Using XFormers backend.", "", "INFO", "cuda.py", "Using XFormers backend."},
		{"INFO 02-13 15:54:31 [[cuda.py:227](http://cuda.py:227/)] Using XFormers backend.", "", "INFO", "cuda.py", "Using XFormers backend."},
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
		target                     string
		src                        model.TargetSource
		res                        string
		status                     model.BackendStatus
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
