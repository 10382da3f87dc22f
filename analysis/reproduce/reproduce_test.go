package reproduce

import (
	"bufio"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"benchlens/model"
)

// argList reads a testdata/flags list: the tool's real argument names, one a line.
func argList(t *testing.T, file string) map[string]bool {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "flags", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s lists no arguments", file)
	}
	return out
}

// vllmRun is a run of a vLLM result era with a manifest recording every workload field.
func vllmRun(id int64, era model.Era, conc float64) *model.Run {
	r := model.NewRun("vllm")
	r.ID, r.Era, r.Backend, r.Model = id, era, "vllm", "meta-llama/Llama-3.1-8B-Instruct"
	r.NumPrompts, r.RequestRate, r.MaxConcurrency = 200, model.Num(4), model.Num(conc)
	r.Manifest = model.Manifest{"workload": map[string]any{"dataset": "random", "input_len": 1024, "output_len": 256,
		"range_ratio": 0.0, "seed": 1234, "max_num_seqs": 64, "warmup_iters": 2}}
	return r
}

func toolRun(tool, backend string) *model.Run {
	r := vllmRun(1, "", 16)
	r.Tool, r.Backend = tool, backend
	return r
}

func vllmLog(version, target string, source model.TargetSource) *model.LogEvidence {
	return &model.LogEvidence{Engine: "vllm", Version: version, Dtype: "bfloat16", TargetBackend: target, TargetSource: source,
		EngineConfig: map[string]string{"tensor_parallel_size": "2", "kv_cache_dtype": "fp8", "enforce_eager": "True"},
		Args:         map[string]string{"max_num_seqs": "64"}}
}

// Every flag a recipe emits for an era is among that era's real argument names, read from
// the tool's source (testdata/flags/*.txt name the file and commit).
func TestFlagsAreTheToolsOwn(t *testing.T) {
	ascend := vllmLog("0.9.1", "", "")
	ascend.Engine, ascend.Args["additional_config"] = "vllm-ascend", `{"torchair_graph_config": {"enabled": true}}`
	sglInfo := toolRun("sglang", "sglang")
	sglInfo.Extra = map[string]any{"server_info": map[string]any{"attention_backend": "fa3", "tp_size": 1.0, "dtype": "auto",
		"kv_cache_dtype": "auto", "max_running_requests": 64.0, "disable_cuda_graph": true}}
	cases := []struct {
		era Era
		run Run
	}{
		{VLLMAPIServer, Run{Run: vllmRun(1, model.EraVLLMC, 0), Logs: []*model.LogEvidence{vllmLog("0.4.2", "XFORMERS", "env")}}},
		{VLLMServeEnv, Run{Run: vllmRun(1, model.EraVLLME064, 16), Logs: []*model.LogEvidence{vllmLog("0.8.1", "FLASHINFER", "env")}}},
		{VLLMServeEnv, Run{Run: vllmRun(1, model.EraVLLMF, 16), Logs: []*model.LogEvidence{ascend}}},
		{VLLMServe, Run{Run: vllmRun(1, model.EraVLLMG, 16), Logs: []*model.LogEvidence{vllmLog("0.12.0", "FLASH_ATTN", "flag")}}},
		{SGLangServer, Run{Run: sglInfo, Logs: nil}},
		{VLLMBenchmarkServing, Run{Run: vllmRun(1, model.EraVLLME064, 16), Logs: nil}},
		{VLLMBenchmarkServing, Run{Run: vllmRun(1, model.EraVLLMC, 0), Logs: nil}},
		{VLLMBenchServe, Run{Run: vllmRun(1, model.EraVLLMG, 16), Logs: nil}},
		{SGLangBenchServing, Run{Run: toolRun("sglang", "sglang"), Logs: nil}},
		{GenAIPerf, Run{Run: toolRun("genai-perf", "chat"), Logs: nil}},
		{AIPerf, Run{Run: toolRun("aiperf", "chat"), Logs: nil}},
		{GuideLLM, Run{Run: toolRun("guidellm", ""), Logs: nil}},
		{LLMPerf, Run{Run: toolRun("llmperf", "openai"), Logs: nil}},
	}
	env := argList(t, "vllm-env.txt")
	covered := map[string]bool{}
	for _, c := range cases {
		t.Run(c.era.Name, func(t *testing.T) {
			arm := BuildArm("a", []Run{c.run})
			var cmd Command
			for _, x := range append(arm.Server, arm.Benchmark...) {
				if x.Tool == c.era.Name {
					cmd = x
				}
			}
			if cmd.Tool == "" {
				t.Fatalf("no command of era %q in %+v", c.era.Name, arm)
			}
			covered[c.era.Name] = true
			real := argList(t, c.era.Source)
			flags := 0
			for _, a := range cmd.Args {
				if strings.HasPrefix(a, "--") {
					flags++
					if !real[a] {
						t.Errorf("%s emits %s, which %s does not declare", c.era.Name, a, c.era.Source)
					}
				}
			}
			if flags < 4 {
				t.Errorf("only %d flags in %q", flags, cmd.Shell())
			}
			for _, e := range cmd.Env {
				if name, _, _ := strings.Cut(e, "="); !env[name] {
					t.Errorf("%s sets %s, not a vLLM environment variable", c.era.Name, name)
				}
			}
			// The era's whole table, not just what this run needed.
			for concept, flag := range c.era.Flags {
				if !real[flag] {
					t.Errorf("%s maps %s to %s, which %s does not declare", c.era.Name, concept, flag, c.era.Source)
				}
			}
		})
	}
	for _, e := range Eras {
		if !covered[e.Name] {
			t.Errorf("era %q has no case", e.Name)
		}
	}
}

func TestServerCommandByEra(t *testing.T) {
	ascend := vllmLog("0.9.1", "", "")
	ascend.Engine = "vllm-ascend"
	cases := []struct {
		name     string
		log      *model.LogEvidence
		manifest model.Manifest
		want     string
	}{
		{"0.12 flag", vllmLog("0.12.0", "FLASH_ATTN", "flag"),
			nil, "vllm serve meta-llama/Llama-3.1-8B-Instruct --attention-backend FLASH_ATTN --tensor-parallel-size 2 --dtype bfloat16 --kv-cache-dtype fp8 --max-num-seqs 64 --enforce-eager"},
		{"0.8 env", vllmLog("0.8.1", "FLASHINFER", "env"),
			nil, "VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --dtype bfloat16 --kv-cache-dtype fp8 --max-num-seqs 64 --enforce-eager"},
		{"0.4 api_server", vllmLog("0.4.2", "XFORMERS", "env"),
			nil, "VLLM_ATTENTION_BACKEND=XFORMERS python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --dtype bfloat16 --kv-cache-dtype fp8 --max-num-seqs 64 --enforce-eager"},
		{"ascend", ascend,
			nil, "VLLM_USE_V1='<VLLM_USE_V1: not recorded>' vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --dtype bfloat16 --kv-cache-dtype fp8 --max-num-seqs 64 --enforce-eager"},
		{"no log, manifest", nil,
			model.Manifest{"stack_fingerprint": map[string]any{"engine_version": "vLLM 0.6.3"}, "path": map[string]any{"target_backend": "FLASHINFER"}},
			"VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve meta-llama/Llama-3.1-8B-Instruct --tensor-parallel-size '<tensor_parallel_size: not recorded>' --dtype '<dtype: not recorded>' --kv-cache-dtype '<kv_cache_dtype: not recorded>' --max-num-seqs '<max_num_seqs: not recorded>'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := vllmRun(7, model.EraVLLMG, 16)
			var logs []*model.LogEvidence
			if c.log != nil {
				logs = append(logs, c.log)
			}
			if c.manifest != nil {
				r.Manifest = c.manifest
			}
			got := serverCommand(Run{Run: r, Logs: logs}).Shell()
			if got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

// An arm measured at two load points gets one benchmark command per point, each naming its
// runs; one server serves them all.
func TestOneBenchmarkPerLoadPoint(t *testing.T) {
	log := vllmLog("0.12.0", "FLASH_ATTN", "flag")
	var runs []Run
	for i, c := range []float64{1, 16, 1, 16, 64} {
		runs = append(runs, Run{Run: vllmRun(int64(i+1), model.EraVLLMG, c), Logs: []*model.LogEvidence{log}})
	}
	a := BuildArm("sweep", runs)
	if len(a.Server) != 1 || !slices.Equal(a.Server[0].Runs, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("server commands %+v", a.Server)
	}
	want := map[string][]int64{"1": {1, 3}, "16": {2, 4}, "64": {5}}
	if len(a.Benchmark) != 3 {
		t.Fatalf("%d benchmark commands, want 3", len(a.Benchmark))
	}
	for _, c := range a.Benchmark {
		i := slices.Index(c.Args, "--max-concurrency")
		if i < 0 || !slices.Equal(c.Runs, want[c.Args[i+1]]) {
			t.Errorf("%s: runs %v", c.Shell(), c.Runs)
		}
	}
}

// A value the files do not record is a visible placeholder, never a default.
func TestPlaceholders(t *testing.T) {
	r := vllmRun(3, model.EraVLLMG, 16)
	r.Manifest = model.Manifest{"workload": map[string]any{"input_len": 512}}
	a := BuildArm("bare", []Run{{Run: r}})
	bench := a.Benchmark[0].Shell()
	for _, want := range []string{"--seed '<seed: not recorded>'", "--random-output-len '<output_len: not recorded>'", "--random-input-len 512", "--num-prompts 200"} {
		if !strings.Contains(bench, want) {
			t.Errorf("missing %q in %s", want, bench)
		}
	}
	for _, p := range a.Pins {
		if p.Recorded || !IsPlaceholder(p.Value) {
			t.Errorf("pin %+v should be a placeholder", p)
		}
	}
	if !strings.Contains(a.Warmup, "<warmup_iters: not recorded>") {
		t.Errorf("warm-up %q", a.Warmup)
	}
	script := Recipe{Baseline: a, Candidate: a}.Script()
	if !strings.Contains(script, "#   [?] driver_version: <driver_version: not recorded>") {
		t.Errorf("script lacks the pin checklist:\n%s", script)
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"FLASH_ATTN": "FLASH_ATTN", "<seed: not recorded>": "'<seed: not recorded>'",
		`{"a": 1}`: `'{"a": 1}'`, "it's": `'it'\''s'`, "": "''", "meta-llama/Llama-3.1-8B": "meta-llama/Llama-3.1-8B"} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

// A warm-up the tool itself sent apart is set on the benchmark command, in the era's words;
// a tool without such a flag gets a note.
func TestToolWarmup(t *testing.T) {
	for _, c := range []struct {
		run  *model.Run
		want string
	}{
		{vllmRun(1, model.EraVLLMG, 16), "--num-warmups 4"},
		{toolRun("aiperf", "chat"), "--warmup-request-count 4"},
		{toolRun("llmperf", "openai"), "# note: the tool set 4 warm-up request(s) apart"},
	} {
		c.run.ToolWarmup = &model.Warmup{Requests: 4, Setting: "test"}
		a := BuildArm("w", []Run{{Run: c.run}})
		script := Recipe{Baseline: a, Candidate: a}.Script()
		if !strings.Contains(script, c.want) || !strings.Contains(a.Warmup, "4 request(s) sent apart by the tool") {
			t.Errorf("%s: want %q in\n%s\nwarm-up %q", c.run.Tool, c.want, script, a.Warmup)
		}
	}
}

// A sweep of five shapes in summary-only files gets one command per shape, each naming the
// lengths its file's totals measured; a warm-up run saved beside them gets its own command,
// marked (METHOD.md rule 12).
func TestOneCommandPerShape(t *testing.T) {
	var runs []Run
	for i, s := range [][2]float64{{1000, 1000}, {2000, 1000}, {5000, 1000}, {10000, 1000}, {30000, 100}} {
		for rep := range 2 {
			r := model.NewRun("vllm")
			r.ID, r.Era, r.Backend, r.Model = int64(10*i+rep+1), model.EraVLLMG, "vllm", "m"
			r.NumPrompts, r.Completed, r.MaxConcurrency, r.RequestRate = 20, 20, 4, model.Num(math.Inf(1))
			r.TotalInputTokens, r.TotalOutputTokens = model.Num(20*s[0]), model.Num(20*s[1])
			runs = append(runs, Run{Run: r})
		}
	}
	warm := *runs[0].Run
	warm.ID, warm.NumPrompts, warm.Phase, warm.PhaseWhy = 99, 5, model.PhaseWarmup, "its name says warm-up: warmup_c4.json"
	a := BuildArm("sweep", append([]Run{{Run: &warm}}, runs...))
	if len(a.Benchmark) != 6 {
		t.Fatalf("%d benchmark commands, want 6 (a warm-up and 5 shapes)", len(a.Benchmark))
	}
	if c := a.Benchmark[0]; !c.Warmup || !slices.Equal(c.Runs, []int64{99}) {
		t.Errorf("warm-up command %+v", c)
	}
	for i, c := range a.Benchmark[1:] {
		if c.Warmup || len(c.Runs) != 2 {
			t.Errorf("command %d: %+v", i, c)
		}
	}
	script := Recipe{Baseline: a, Candidate: a}.Script()
	for _, want := range []string{
		"benchmark 1/6 (vllm bench serve (vLLM >= 0.10)), concurrency 4 · ≈1000 tok in, output not fixed: the warm-up, once before the measured runs, its result discarded (run 99):",
		"benchmark 6/6 (vllm bench serve (vLLM >= 0.10)), concurrency 4 · ≈30000 tok in, output not fixed, once per repeat (runs 41,42):",
		"--random-input-len '<input_len, ≈30000 measured (totals over completed requests): not recorded>'",
		"--random-output-len '<output_len, not fixed by the client: not recorded>'",
	} {
		if !strings.Contains(script, want) {
			t.Errorf("script lacks %q", want)
		}
	}
}

// A dataset run is rerun on its dataset in each era's words, with no random-length flag; an
// output length the client fixed goes to the dataset's own option, or to a note where the era
// has none.
func TestDatasetRunPerEra(t *testing.T) {
	dataRun := func(tool string, era model.Era, dataset string, extra map[string]any) *model.Run {
		r := toolRun(tool, "vllm")
		r.Era, r.Manifest, r.Extra = era, model.Manifest{"workload": map[string]any{"dataset": dataset}}, extra
		return r
	}
	cmd := func(file, typ string) map[string]any {
		return map[string]any{"cli_command": "x --input-file " + file + " --custom-dataset-type " + typ}
	}
	for _, c := range []struct {
		name      string
		run       *model.Run
		want, not []string
	}{
		{"vllm bench serve sharegpt", dataRun("vllm", model.EraVLLMG, "sharegpt", nil),
			[]string{"--dataset-name sharegpt --dataset-path '<dataset_path: not recorded>'"}, []string{"-len", "--random"}},
		{"benchmark_serving sharegpt, output fixed", dataRun("vllm", model.EraVLLMF, "sharegpt", map[string]any{"cli_command": "python benchmarks/benchmark_serving.py --sharegpt-output-len 128 --dataset-path /d/sg.json"}),
			[]string{"--dataset-path /d/sg.json --sharegpt-output-len 128"}, []string{"--random"}},
		{"benchmark_serving custom, output fixed", dataRun("vllm", model.EraVLLMF, "custom", map[string]any{"cli_command": "x --custom-output-len 64"}),
			[]string{"--dataset-name custom", "# note: dataset custom: the client fixed its output length (64)"}, []string{"-len", "--random"}},
		{"vllm bench serve custom, nothing recorded", dataRun("vllm", model.EraVLLMG, "custom", nil),
			[]string{"--custom-output-len '<output_len: not recorded>'"}, []string{"--random"}},
		{"sglang sharegpt", dataRun("sglang", "", "sharegpt", map[string]any{"sharegpt_output_len": 256.0, "random_input_len": 1024.0}),
			[]string{"--dataset-name sharegpt", "--sharegpt-output-len 256"}, []string{"--random"}},
		{"aiperf public sharegpt", dataRun("aiperf", "", "sharegpt", nil),
			[]string{"--public-dataset sharegpt"}, []string{"--input-file", "--synthetic", "--output-tokens"}},
		{"aiperf input file", dataRun("aiperf", "", "prompts.jsonl", cmd("/d/prompts.jsonl", "single_turn")),
			[]string{"--input-file /d/prompts.jsonl --custom-dataset-type single_turn"}, []string{"--synthetic", "--output-tokens"}},
		{"genai-perf sharegpt", dataRun("genai-perf", "", "sharegpt", nil),
			[]string{"--input-file '<dataset_path: not recorded>'"}, []string{"--synthetic", "--public"}},
		{"guidellm file", dataRun("guidellm", "", "prompts.jsonl", nil),
			[]string{"--data '<dataset_path: not recorded>'"}, []string{"prompt_tokens"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := BuildArm("d", []Run{{Run: c.run}})
			script := Recipe{Baseline: a, Candidate: a}.Script()
			bench := a.Benchmark[0].Shell()
			for _, w := range c.want {
				if !strings.Contains(bench, w) && !strings.Contains(script, w) {
					t.Errorf("missing %q in\n%s", w, script)
				}
			}
			for _, n := range c.not {
				if strings.Contains(bench, n) {
					t.Errorf("%q in %s", n, bench)
				}
			}
		})
	}
}
