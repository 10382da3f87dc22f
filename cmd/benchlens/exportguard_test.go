package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// savedDemo is a library with the demo's runs and three saved comparisons.
func savedDemo(t *testing.T) string {
	t.Helper()
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "demo"); code != 0 {
		t.Fatal(stderr)
	}
	for _, cand := range []string{"offset", "zero", "established"} {
		if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "baseline", "--candidate", cand, "--save"); code != 0 {
			t.Fatal(stderr)
		}
	}
	return db
}

// export --force replaces regular files only: never a FIFO, a device or a symbolic link (the
// file it names stays as it was). Before, --force renamed the export over each of them.
func TestExportForceNeverReplacesSpecialFiles(t *testing.T) {
	db := savedDemo(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(target, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{"fifo": "a FIFO", "link.md": "a symbolic link (to " + target + ")"}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "link.md")); err != nil {
		t.Fatal(err)
	}
	if os.Getuid() == 0 { // a device node: only root makes one
		if err := syscall.Mknod(filepath.Join(dir, "null"), syscall.S_IFCHR|0o666, 1<<8|3); err == nil {
			cases["null"] = "a device"
		}
	}
	for name, what := range cases {
		path := filepath.Join(dir, name)
		before, _ := os.Lstat(path)
		out, stderr, code := bl(t, "--db", db, "export", "--md", path, "--force")
		if code == 0 || !strings.Contains(stderr, path+" is "+what+", not a regular file; refusing to replace it, even with --force") {
			t.Errorf("export --md %s --force: exit %d\n%s%s", name, code, out, stderr)
		}
		if after, err := os.Lstat(path); err != nil || after.Mode() != before.Mode() {
			t.Errorf("%s was replaced: %v %v", name, after.Mode(), err)
		}
	}
	if data, _ := os.ReadFile(target); string(data) != "my notes\n" {
		t.Errorf("the link's file now holds %.80q", data)
	}
	// A regular file is still replaced with --force.
	if _, stderr, code := bl(t, "--db", db, "export", "--md", target, "--force"); code != 0 {
		t.Errorf("export --force over a regular file: %s", stderr)
	}
}

// A CSV export that runs out of room names what it had written and removes it, so the
// folder holds no half export that looks whole. Before, the first files stayed and only the
// failing one was named.
func TestCSVExportOutOfRoomLeavesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process; skipped with -short")
	}
	db := savedDemo(t)
	dest := filepath.Join(t.TempDir(), "csv")
	// Each file but record.csv (three comparisons' every key) fits under the cap.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BENCHLENS_CLI_ARGS="+strings.Join([]string{"--db", db, "export", "--csv", dest}, "\x1f"), "BENCHLENS_CLI_FSIZE=40000")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitRejected {
		t.Fatalf("export: %v\n%s", err, out)
	}
	for _, want := range []string{"writing " + filepath.Join(dest, "record.csv"), "removed the", filepath.Join(dest, "verdicts.csv")} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the error does not say %q:\n%s", want, out)
		}
	}
	if left, _ := os.ReadDir(dest); len(left) > 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("left in the folder: %v", names)
	}
}
