package model

import "testing"

// summary is a summary-only run at concurrency c: completed requests, total input and output.
func summary(tool string, c, completed, in, out float64) *Run {
	r := NewRun(tool)
	r.MaxConcurrency, r.Completed, r.TotalInputTokens, r.TotalOutputTokens = Num(c), Num(completed), Num(in), Num(out)
	return r
}

// The request shape (METHOD.md rule 12): declared, else per-request medians, else the file's
// totals; the output is part of the point only when the client fixed it.
func TestPointShape(t *testing.T) {
	sglShareGPT := summary("sglang", 8, 100, 22000, 19000)
	sglShareGPT.Dataset = "sharegpt"
	sglShareGPT.Extra = map[string]any{"random_input_len": 1024.0, "random_output_len": 1024.0} // SGLang's defaults, unused
	sglRandom := summary("sglang", 8, 100, 102400, 102400)
	sglRandom.Dataset = "random"
	sglRandom.Extra = map[string]any{"random_input_len": 1024.0, "random_output_len": 1024.0}
	aiperf := summary("aiperf", 16, 96, 288000, 30000)
	aiperf.Extra = map[string]any{
		"input_config": map[string]any{
			"datasets": []any{map[string]any{"type": "synthetic", "prompts": map[string]any{"isl": map[string]any{"mean": 3000.0}}}},
			"phases":   []any{map[string]any{"name": "profiling", "type": "concurrency", "concurrency": 16.0, "duration": 300.0}},
		},
		"run_info": map[string]any{"random_seed": 7.0,
			"cli_command": "aiperf profile --model 'm' --isl 3000 --concurrency '8,16' --benchmark-duration 300 --random-seed 7"},
	}
	ignoreEOS := summary("aiperf", 16, 96, 288000, 30000)
	ignoreEOS.Extra = map[string]any{"run_info": map[string]any{"cli_command": `aiperf profile --isl 3000 --extra-inputs '{"ignore_eos": true, "max_tokens": 320}'`}}
	maxTokens := summary("aiperf", 16, 100, 300000, 25100)
	maxTokens.Extra = map[string]any{"input_config": map[string]any{"input": map[string]any{"extra": []any{[]any{"max_tokens", 256.0}}}}}
	vllmCmd := summary("vllm", 4, 10, 20000, 9000)
	vllmCmd.Metadata = map[string]string{"command": `vllm bench serve --dataset-name random --random-input-len 2000 --random-output-len 1000 --seed 3`}
	perRequest := NewRun("vllm")
	perRequest.MaxConcurrency = 1
	for _, n := range []int{900, 940, 970} {
		perRequest.Requests = append(perRequest.Requests, Request{InputLen: n, OutputLen: 512})
	}
	tests := []struct {
		name       string
		run        *Run
		in, out    float64
		inFrom     string
		outFrom    string
		fixed, lbl string
	}{
		{"vLLM summary only: the totals", summary("vllm", 64, 100, 100000, 100000), 1000, 1000, LengthTotals, LengthTotals, "",
			"concurrency 64 · ≈1000 tok in, output not fixed"},
		{"30000→100 from the totals", summary("vllm", 64, 10, 300000, 1000), 30000, 100, LengthTotals, LengthTotals, "",
			"concurrency 64 · ≈30000 tok in, output not fixed"},
		{"SGLang random: declared", sglRandom, 1024, 1024, LengthDeclared, LengthDeclared, LengthDeclared, "concurrency 8 · 1024→1024 tok · random"},
		{"SGLang ShareGPT: random lengths do not apply", sglShareGPT, 220, 190, LengthTotals, LengthTotals, "",
			"concurrency 8 · ≈220 tok in, output not fixed · sharegpt"},
		{"AIPerf time-bound synthetic", aiperf, 3000, 313, LengthDeclared, LengthTotals, "", "concurrency 16 · 3000 tok in, output not fixed · synthetic"},
		{"ignore_eos fixes it", ignoreEOS, 3000, 313, LengthDeclared, LengthTotals, "ignore_eos", "concurrency 16 · 3000→≈313 tok"},
		{"max tokens reached within 10 %", maxTokens, 3000, 251, LengthTotals, LengthTotals, "max_tokens 256", "concurrency 16 · ≈3000→≈251 tok"},
		{"a saved vLLM command line", vllmCmd, 2000, 1000, LengthDeclared, LengthDeclared, LengthDeclared, "concurrency 4 · 2000→1000 tok · random"},
		{"per-request, near-constant outputs", perRequest, 940, 512, LengthPerRequest, LengthPerRequest, "near-constant outputs", "concurrency 1 · ≈940→≈512 tok"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := PointOf(tc.run)
			if p.InputLen.F() != tc.in || p.OutputLen.F() != tc.out || p.InputFrom != tc.inFrom || p.OutputFrom != tc.outFrom ||
				p.OutputFixed != tc.fixed || p.Label() != tc.lbl {
				t.Errorf("got %v (%s) → %v (%s), fixed %q, label %q\nwant %v (%s) → %v (%s), fixed %q, label %q",
					p.InputLen, p.InputFrom, p.OutputLen, p.OutputFrom, p.OutputFixed, p.Label(), tc.in, tc.inFrom, tc.out, tc.outFrom, tc.fixed, tc.lbl)
			}
		})
	}
	if c := ClientOf(aiperf); c.Seed != "7" || c.DurationS != 300 || c.From["input_len"] != "input_config.datasets[0].prompts.isl" {
		t.Errorf("AIPerf client %+v", c)
	}
	if c := ClientOf(vllmCmd); c.Seed != "3" || c.From["input_len"] != "metadata command --random-input-len" {
		t.Errorf("vLLM client %+v", c)
	}
}

// Five shapes of one concurrency are five points; an output the server decided never keeps
// two arms' points apart, but one arm's run with outputs twice as long sent another request set.
func TestPointsSameAndMatch(t *testing.T) {
	shapes := [][2]float64{{1000, 1000}, {2000, 1000}, {5000, 1000}, {10000, 1000}, {30000, 100}}
	for i, a := range shapes {
		for j, b := range shapes {
			p, q := PointOf(summary("vllm", 8, 10, 10*a[0], 10*a[1])), PointOf(summary("vllm", 8, 10, 10*b[0], 10*b[1]))
			if p.Same(q) != (i == j) {
				t.Errorf("%v and %v: same %v", a, b, p.Same(q))
			}
		}
	}
	base := PointOf(summary("aiperf", 8, 100, 300000, 40000))
	shorter := PointOf(summary("aiperf", 8, 100, 300000, 34000)) // 15 % shorter outputs
	if !base.Matches(shorter) || !base.Same(shorter) {
		t.Errorf("an output the server decided unmatches: %+v vs %+v", base, shorter)
	}
	if twice := PointOf(summary("aiperf", 8, 100, 300000, 90000)); base.Same(twice) || !base.Matches(twice) {
		t.Error("outputs of 400 and 900 tokens in one arm are repeats")
	}
	fixed := func(out float64) LoadPoint {
		r := summary("vllm", 8, 100, 100000, 100*out)
		r.Manifest = Manifest{"workload": map[string]any{"output_len": out}}
		return PointOf(r)
	}
	if fixed(1000).Matches(fixed(500)) || !fixed(1000).Matches(fixed(1000)) {
		t.Error("declared output lengths do not keep points apart")
	}
	if PointOf(NewRun("vllm")).InputLen.Known() {
		t.Error("a run with nothing has a length")
	}
}

func TestShellWords(t *testing.T) {
	got := shellWords(`aiperf profile --model 'a b' --extra-inputs "{\"ignore_eos\":true}" x\ y --isl=3`)
	want := []string{"aiperf", "profile", "--model", "a b", "--extra-inputs", `{"ignore_eos":true}`, "x y", "--isl=3"}
	if len(got) != len(want) {
		t.Fatalf("%q", got)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("word %d: %q, want %q", i, got[i], want[i])
		}
	}
}
