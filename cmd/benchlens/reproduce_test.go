package main

import (
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// byLine is the version citation, which changes with every build.
var byLine = regexp.MustCompile(`(?m)^# by benchlens .*$`)

func stableVersion(s string) string { return byLine.ReplaceAllString(s, "# by benchlens VERSION") }

// reproduce prints a saved comparison's rerun recipe as a shell script: a contract, golden
// over a demo comparison (server logs, bundle.yaml) and the real H100 pair (no log, no
// manifest: placeholders; two load points per arm: two benchmark commands).
func TestReproduceGolden(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, _, code := bl(t, "--db", db, "demo"); code != 0 {
		t.Fatal("demo failed")
	}
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "baseline", "--candidate", "fallback", "--save", "--format", "json"); code != 0 {
		t.Fatalf("compare --save: %s", stderr)
	}
	saved, stderr, code := bl(t, "--db", db, "reproduce", "1")
	if code != 0 {
		t.Fatalf("reproduce 1: exit %d %s", code, stderr)
	}
	golden(t, "reproduce_demo.golden.sh", stableVersion(saved))
	live, _, code := bl(t, "--db", db, "reproduce", "--baseline", "baseline", "--candidate", "fallback")
	_, savedBody, _ := strings.Cut(saved, "# Rerun recipe")
	_, liveBody, _ := strings.Cut(live, "# Rerun recipe")
	if code != 0 || liveBody != savedBody {
		t.Errorf("the recipe from the arms differs from the saved one:\n%s", live)
	}

	h100 := filepath.Join(fixtures, "h100-fp16-vs-fp8")
	for _, arm := range []string{"FP16", "FP8"} {
		files, _ := filepath.Glob(filepath.Join(h100, arm+"-*.json"))
		args := append([]string{"--db", db, "import", "--label", strings.ToLower(arm)}, files...)
		if out, stderr, code := bl(t, args...); code != 0 || !strings.Contains(out, "imported 2 runs") {
			t.Fatalf("import %s: exit %d %s %s", arm, code, out, stderr)
		}
	}
	out, stderr, code := bl(t, "--db", db, "reproduce", "--baseline", "fp16", "--candidate", "fp8")
	if code != 0 {
		t.Fatalf("reproduce fp16 fp8: exit %d %s", code, stderr)
	}
	golden(t, "reproduce_h100.golden.sh", stableVersion(out))

	// Real files of two other tools: SGLang bench_serving (its server_info gives the server)
	// and AIPerf (no server facts at all).
	for _, lf := range [][2]string{{"sgl", "04_agg_n50_in128_out64_c8.jsonl"}, {"aip", "06_profile_export_aiperf.json"}} {
		label, file := lf[0], lf[1]
		if out, stderr, code := bl(t, "--db", db, "import", "--label", label, filepath.Join(fixtures, file)); code != 0 || !strings.Contains(out, "imported 1 run") {
			t.Fatalf("import %s: exit %d %s %s", file, code, out, stderr)
		}
	}
	out, stderr, code = bl(t, "--db", db, "reproduce", "--baseline", "sgl", "--candidate", "aip")
	if code != 0 {
		t.Fatalf("reproduce sgl aip: exit %d %s", code, stderr)
	}
	golden(t, "reproduce_sglang_aiperf.golden.sh", stableVersion(out))

	for _, args := range [][]string{{"reproduce"}, {"reproduce", "x"}, {"reproduce", "--baseline", "fp16"}, {"reproduce", "1", "--baseline", "a", "--candidate", "b"}} {
		if _, _, code := bl(t, append([]string{"--db", db}, args...)...); code != exitUsage {
			t.Errorf("%v: exit %d, want usage", args, code)
		}
	}
	if _, stderr, code := bl(t, "--db", db, "reproduce", "9"); code != exitRejected || !strings.Contains(stderr, "no comparison 9") {
		t.Errorf("unknown comparison: exit %d %q", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	out, _, code := bl(t, "--version")
	if code != 0 {
		t.Fatalf("--version: exit %d", code)
	}
	for _, want := range []string{"benchlens ", "commit:", "built:", "go:         " + runtime.Version(), "sqlite:     3."} {
		if !strings.Contains(out, want) {
			t.Errorf("--version lacks %q:\n%s", want, out)
		}
	}
}
