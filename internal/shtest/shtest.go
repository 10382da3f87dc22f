// Package shtest runs a generated shell script the way a user would, for tests that prove it
// runs nothing but what it says: `sh -n` first, then `sh` in a fresh HOME and working folder
// with stand-ins for the tools it calls, failing on any file the script itself created.
package shtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// Tools are the programs the stand-ins replace: every program a rerun recipe starts.
var Tools = []string{"vllm", "python", "genai-perf", "aiperf", "guidellm"}

// Run checks script under `sh -n`, runs it, and fails t on any file found afterwards in the
// fresh HOME or working folder (the stand-ins write nothing there). It returns the stand-ins'
// calls, one a line, each the program's name and its words NUL-terminated.
func Run(t *testing.T, script string) string {
	t.Helper()
	dir := t.TempDir()
	home, bin, work := filepath.Join(dir, "home"), filepath.Join(dir, "bin"), filepath.Join(dir, "work")
	for _, d := range []string{home, bin, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub := "#!/bin/sh\nprintf '%s\\0' \"$(basename \"$0\")\" \"$@\" >>\"$CALLS\"\nprintf '\\n' >>\"$CALLS\"\n"
	for _, tool := range Tools {
		if err := os.WriteFile(filepath.Join(bin, tool), []byte(stub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(dir, "rerun.sh")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("sh", "-n", file).CombinedOutput(); err != nil {
		t.Fatalf("sh -n: %v %s\n%s", err, out, script)
	}
	calls := filepath.Join(dir, "calls")
	cmd := exec.Command("sh", file)
	cmd.Dir = work
	cmd.Env = []string{"HOME=" + home, "PATH=" + bin + ":/usr/bin:/bin", "CALLS=" + calls}
	out, _ := cmd.CombinedOutput()
	for _, d := range []string{home, work} {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			t.Errorf("the script created %s in %s\noutput: %s\n%s", e.Name(), d, out, script)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !slices.Contains([]string{"home", "bin", "work", "rerun.sh", "calls"}, e.Name()) {
			t.Errorf("the script created %s beside itself\noutput: %s\n%s", e.Name(), out, script)
		}
	}
	got, _ := os.ReadFile(calls)
	return string(got)
}
