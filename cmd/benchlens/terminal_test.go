package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// File names with newlines or terminal escapes are quoted in every line the CLI prints, so a
// name cannot forge a line ("imported 99 runs") or recolour the terminal.
func TestHostileNamesAreQuoted(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	bundle := filepath.Join(t.TempDir(), "arm\nimported 99 runs")
	os.MkdirAll(bundle, 0o755)
	good, _ := os.ReadFile(filepath.Join(fixtures, "07_result-short-rate1.json"))
	os.WriteFile(filepath.Join(bundle, "run\x1b[31m.json"), good, 0o644)
	os.WriteFile(filepath.Join(bundle, "bad\nimported 99 runs.json"), []byte(`{"backend": "vllm", "model_id": 1`), 0o644)
	os.WriteFile(filepath.Join(bundle, "notes\x1b]0;owned\x07.txt"), []byte("hello\n"), 0o644)

	stdout, stderr, code := bl(t, "--db", db, "import", bundle)
	if code != exitRejected {
		t.Errorf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "refused: ") || !strings.HasPrefix(lines[1], "skipped: ") {
		t.Errorf("want one refused and one skipped line:\n%s", stderr)
	}
	if !strings.Contains(stderr, `bad\nimported 99 runs.json`) || !strings.Contains(stderr, `notes\x1b]0;owned\a.txt`) {
		t.Errorf("names not quoted:\n%s", stderr)
	}
	if stdout != "imported 1 run, 1 input refused, 1 not read\n" {
		t.Errorf("stdout %q", stdout)
	}
	for _, args := range [][]string{{"runs"}, {"show", "1"}} {
		out, _, _ := bl(t, append([]string{"--db", db}, args...)...)
		if strings.ContainsAny(out, "\x1b\x07") || strings.Contains(out, "\nimported 99") {
			t.Errorf("%v prints a raw name:\n%s", args, out)
		}
	}
}

// Bug: runs shortened a long model name by bytes, so a cut inside a character (the "…" of a
// name jsonx had cut) printed as escaped bytes ("…\x80\xa6 (cut: …"). It counts characters.
func TestRunsShortensLongNamesByCharacter(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"short", "short"},
		{"M…M… (cut: longer than 1048576 bytes)", "…… (cut: longer than 1048576 bytes)"},
		{"modèle/ünïcödé-model-name-that-is-long", "…cödé-model-name-that-is-long"},
	} {
		if got := short(tt.in, len([]rune(tt.want))); got != tt.want {
			t.Errorf("short(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
