package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"benchlens/internal/shtest"
)

// The shell payloads a hostile value carries: every way a POSIX shell could be made to run
// `touch ~/PWNED-…`, if a value reached the script unquoted or ended its comment. Each
// payload names its field, so a failure says which field leaked.
func printablePayload(field string) string {
	return fmt.Sprintf("x$(touch ~/PWNED-%[1]s-subst)`touch ~/PWNED-%[1]s-tick`'; touch ~/PWNED-%[1]s-sq; '\"; touch ~/PWNED-%[1]s-dq #"+
		" && touch ~/PWNED-%[1]s-and | >~/PWNED-%[1]s-redir ${HOME:=x}", field)
}

func newlinePayload(field string) string {
	return fmt.Sprintf("v\ntouch ~/PWNED-%[1]s-nl\r\n\x1b[2K\u2028touch ~/PWNED-%[1]s-ls\n# ", field)
}

// hostileBundle writes a bundle of one real vLLM result whose manifest and result file put
// payload(field) in every field that reaches `benchlens reproduce`: a random-dataset run's
// lengths, or (fromData) a dataset run's file, read from a saved command line.
func hostileBundle(t *testing.T, dir string, payload func(string) string, fromData bool) {
	t.Helper()
	src, err := filepath.Glob("../../demo/samples/baseline/run-1/vllm-*.json")
	if err != nil || len(src) != 1 {
		t.Fatal("the demo's result file is missing", err)
	}
	data, err := os.ReadFile(src[0])
	if err != nil {
		t.Fatal(err)
	}
	var result map[string]any
	if err := json.Unmarshal(data, &result); err != nil {
		t.Fatal(err)
	}
	result["model_id"], result["backend"] = payload("model_id"), payload("backend")
	m := map[string]any{
		"label": payload("label"),
		"role":  "other",
		"stack_fingerprint": map[string]any{"driver_version": payload("driver_version"),
			"base_stack_version": payload("base_stack_version"), "engine_version": "vLLM 0.12.0" + payload("engine_version")},
		"hardware_sku": payload("hardware_sku"),
		"node":         map[string]any{"machine": payload("machine"), "numa": payload("numa"), "card_slot": payload("card_slot")},
		"workload": map[string]any{"model_name": payload("model_name"), "dataset": payload("dataset"),
			"input_len": payload("input_len"), "output_len": payload("output_len"), "range_ratio": payload("range_ratio"),
			"seed": payload("seed"), "num_prompts": payload("num_prompts"), "max_num_seqs": payload("max_num_seqs"),
			"warmup_iters": payload("warmup_iters"), "request_rate": payload("request_rate")},
		"path": map[string]any{"target_backend": payload("target_backend")},
	}
	w := m["workload"].(map[string]any)
	if fromData {
		w["command"] = "vllm bench serve --dataset-path '" + strings.ReplaceAll(payload("dataset_path"), "'", `'\''`) + "'"
	} else {
		w["dataset"] = "random" + payload("dataset") // generated to the lengths below
	}
	y, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(result)
	if err := os.WriteFile(filepath.Join(dir, "result.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bundle.yaml"), y, 0o644); err != nil {
		t.Fatal(err)
	}
}

// No command comes out of a manifest or a result file: a label, pin or workload value with a
// newline, quotes, $( ), backticks or redirections reaches `benchlens reproduce`'s script only
// quoted (or, with control characters, rejected), so the script parses and runs nothing but
// the tools' commands, each value one literal word.
func TestReproduceRunsNoInjectedCommand(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	hostileBundle(t, filepath.Join(dir, "nl"), newlinePayload, false)
	hostileBundle(t, filepath.Join(dir, "pr"), printablePayload, true)
	if out, stderr, code := bl(t, "--db", db, "import", filepath.Join(dir, "nl"), filepath.Join(dir, "pr")); code != 0 || !strings.Contains(out, "imported 2 runs") {
		t.Fatalf("import: exit %d %s %s", code, out, stderr)
	}
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "1", "--candidate", "2", "--save"); code != 0 {
		t.Fatalf("compare --save: exit %d %s", code, stderr)
	}
	for _, args := range [][]string{{"reproduce", "1"}, {"reproduce", "--baseline", newlinePayload("label"), "--candidate", printablePayload("label")}} {
		script, stderr, code := bl(t, append([]string{"--db", db}, args...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d %s", args, code, stderr)
		}
		for _, field := range []string{"label", "driver_version", "base_stack_version", "engine_version", "hardware_sku",
			"machine", "numa", "card_slot", "model_id", "backend", "dataset", "dataset_path", "input_len", "output_len", "range_ratio", "seed",
			"max_num_seqs", "warmup_iters", "target_backend"} {
			if !strings.Contains(script, "PWNED-"+field+"-") {
				t.Errorf("%q: the payload of %s does not reach the script, so the test proves nothing for it", args[1], field)
			}
		}
		calls := shtest.Run(t, script)
		// The printable payloads reach the tools intact, each one word.
		for _, want := range []string{"\x00--model\x00" + printablePayload("model_id") + "\x00", "\x00--backend\x00" + printablePayload("backend") + "\x00",
			"\x00--attention-backend\x00" + printablePayload("target_backend") + "\x00", "\x00--seed\x00" + printablePayload("seed") + "\x00",
			"\x00--dataset-path\x00" + printablePayload("dataset_path") + "\x00"} {
			if !strings.Contains(calls, want) {
				t.Errorf("%q: no tool was called with %q; calls:\n%q", args[1], want, calls)
			}
		}
	}
}
