package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// blProcess starts the command in a process of its own, in dir.
func blProcess(t *testing.T, dir string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BENCHLENS_CLI_ARGS="+strings.Join(args, "\x1f"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

// SIGINT or SIGTERM during backup leaves no .part file: the partial copy is removed, the
// command says so and exits 1, also when a second signal follows at once. Before, the
// process died with the copy's .part and -journal files beside the destination.
func TestSignalDuringBackupLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	// A library of about 100 MB (a result and an unread file beside it), so the copy takes
	// a while.
	lab := t.TempDir()
	bundle := filepath.Join(lab, "bundle")
	results, _ := filepath.Glob("../../demo/samples/baseline/run-1/vllm-*.json")
	if len(results) != 1 {
		t.Fatal("no sample result")
	}
	data, err := os.ReadFile(results[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(bundle, 0o755); err != nil {
		t.Fatal(err)
	}
	blob := make([]byte, 100<<20)
	rand.NewChaCha8([32]byte{1}).Read(blob)
	for name, b := range map[string][]byte{filepath.Base(results[0]): data, "blob.bin": blob} {
		if err := os.WriteFile(filepath.Join(bundle, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(lab, "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", bundle); code != 0 && code != exitRejected {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	for _, tc := range []struct {
		name    string
		signals []os.Signal
	}{
		{"SIGINT", []os.Signal{os.Interrupt}},
		{"SIGTERM", []os.Signal{syscall.SIGTERM}},
		{"SIGINT then SIGTERM", []os.Signal{os.Interrupt, syscall.SIGTERM}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dest := t.TempDir()
			cmd, out := blProcess(t, dest, "--db", db, "backup", "copy.db")
			// Signalled once the copy has begun: its .part file is there.
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
				if parts, _ := filepath.Glob(filepath.Join(dest, ".copy.db.part*")); len(parts) > 0 {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					t.Fatal("the backup never started its copy")
				}
			}
			for _, sig := range tc.signals {
				cmd.Process.Signal(sig)
			}
			err := cmd.Wait()
			var exit *exec.ExitError
			if !errors.As(err, &exit) || exit.ExitCode() != exitRejected || !strings.Contains(out.String(), "interrupted: the partial copy was removed") {
				t.Errorf("backup after %s: %v\n%s", tc.name, err, out)
			}
			if left, _ := os.ReadDir(dest); len(left) > 0 {
				var names []string
				for _, e := range left {
					names = append(names, e.Name())
				}
				t.Errorf("left beside the destination: %v", names)
			}
		})
	}
	// The library is untouched and backs up in full.
	dest := filepath.Join(t.TempDir(), "copy.db")
	if out, stderr, code := bl(t, "--db", db, "backup", dest); code != 0 {
		t.Errorf("backup: exit %d\n%s%s", code, out, stderr)
	}
}
