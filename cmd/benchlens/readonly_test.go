package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// asUser runs the command in a process of its own as an unprivileged user (nobody, when
// the tests run as root, for whom no folder is read-only), from a copy of the test binary
// that user can run.
func asUser(t *testing.T, bin string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, "-test.run=^$")
	cmd.Env = append(os.Environ(), "BENCHLENS_CLI_ARGS="+strings.Join(args, "\x1f"), "HOME="+filepath.Dir(bin), "XDG_DATA_HOME="+filepath.Dir(bin))
	if os.Getuid() == 0 {
		u, err := user.Lookup("nobody")
		if err != nil {
			t.Skip("running as root with no user nobody")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), code
}

// sharedDir is a temporary folder every user may enter, owned by the user asUser runs as.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "benchlens-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
			if err == nil && fi.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		os.RemoveAll(dir)
	})
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// chownToUser gives path to the user asUser runs as.
func chownToUser(t *testing.T, path string) {
	t.Helper()
	if os.Getuid() != 0 {
		return
	}
	u, _ := user.Lookup("nobody")
	uid, _ := strconv.Atoi(u.Uid)
	if err := os.Chown(path, uid, -1); err != nil {
		t.Fatal(err)
	}
}

// A library in a read-only folder, or a read-only library file, still reads and backs up
// elsewhere: runs, show, check and compare answer, backup writes a whole copy, and writes
// are refused saying why and what to do. Before, every command said "attempt to write a
// readonly database" (or "not a benchlens library"), backup included.
func TestReadOnlyLibraryReadsAndBacksUp(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	dir := sharedDir(t)
	bin := filepath.Join(dir, "benchlens.test")
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err == nil {
		_, err = io.Copy(dst, src)
		dst.Close()
	}
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		readOnly func(lib, db string) error
	}{
		{"read-only folder", func(lib, db string) error { return os.Chmod(lib, 0o555) }},
		{"read-only file", func(lib, db string) error { return os.Chmod(db, 0o444) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lib := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			out := filepath.Join(lib + "-out")
			for _, d := range []string{lib, out} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
				chownToUser(t, d)
			}
			db := filepath.Join(lib, "lib.db")
			if _, stderr, code := bl(t, "--db", db, "demo"); code != 0 {
				t.Fatalf("demo: %s", stderr)
			}
			chownToUser(t, db)
			if err := tc.readOnly(lib, db); err != nil {
				t.Fatal(err)
			}
			if got, code := asUser(t, bin, "--db", db, "runs"); code != 0 || !strings.Contains(got, "baseline") {
				t.Errorf("runs: exit %d\n%s", code, got)
			}
			if got, code := asUser(t, bin, "--db", db, "compare", "--baseline", "baseline", "--candidate", "offset"); code != 0 || !strings.Contains(got, "offset") {
				t.Errorf("compare: exit %d\n%.2000s", code, got)
			}
			if got, code := asUser(t, bin, "--db", db, "check"); code != 0 {
				t.Errorf("check: exit %d\n%s", code, got)
			}
			copyDB := filepath.Join(out, "copy.db")
			if got, code := asUser(t, bin, "--db", db, "backup", copyDB); code != 0 || !strings.Contains(got, "backed up") {
				t.Errorf("backup: exit %d\n%s", code, got)
			}
			if got, code := asUser(t, bin, "--db", copyDB, "runs"); code != 0 || strings.Count(got, "baseline") < 5 {
				t.Errorf("runs of the backup: exit %d\n%s", code, got)
			}
			got, code := asUser(t, bin, "--db", db, "compare", "--baseline", "baseline", "--candidate", "offset", "--save")
			if code == 0 || !strings.Contains(got, "the library is read-only: it cannot be written here") || !strings.Contains(got, "benchlens backup NEW.db") {
				t.Errorf("compare --save: exit %d\n%.3000s", code, got)
			}
		})
	}
}

// check (and backup) on a mistyped path says there is no library there and creates nothing,
// neither the file nor its folder. Before, check created an empty library and said ok.
func TestCheckOnMistypedPathCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"check"}, {"check", "--repair"}, {"backup", filepath.Join(dir, "copy.db")}} {
		db := filepath.Join(dir, "libary", "lib.db") // the folder mistyped
		out, stderr, code := bl(t, append([]string{"--db", db}, args...)...)
		if code == 0 || !strings.Contains(stderr, "no library there (nothing was created; check the path)") {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, stderr)
		}
		if left, _ := os.ReadDir(dir); len(left) > 0 {
			t.Errorf("%v created %v", args, left[0].Name())
		}
		db = filepath.Join(dir, "lib.dbb") // the name mistyped
		if _, _, code := bl(t, "--db", db, "check"); code == 0 {
			t.Errorf("check on %s: exit 0", db)
		}
		if _, err := os.Stat(db); err == nil {
			t.Errorf("check created %s", db)
		}
	}
}

// A library on a disk with no room left still reads: where not even SQLite's shared-memory
// file can be made (here: a file-size limit of 16 KB on the process, as a full disk refuses
// the -shm's 32 KB), runs and compare answer from the file as it is, and a write is refused
// saying the library cannot be written here. Before: "disk I/O error" for every command.
func TestFullDiskLibraryStillReads(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes; skipped with -short")
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "demo"); code != 0 {
		t.Fatal(stderr)
	}
	full := func(args ...string) (string, int) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "BENCHLENS_CLI_ARGS="+strings.Join(append([]string{"--db", db}, args...), "\x1f"), "BENCHLENS_CLI_FSIZE=16384")
		out, err := cmd.CombinedOutput()
		code := 0
		if exit, ok := err.(*exec.ExitError); ok {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	if out, code := full("runs"); code != 0 || strings.Count(out, "baseline") < 5 {
		t.Errorf("runs: exit %d\n%s", code, out)
	}
	if out, code := full("compare", "--baseline", "baseline", "--candidate", "offset"); code != 0 || !strings.Contains(out, "verdict") {
		t.Errorf("compare: exit %d\n%.2000s", code, out)
	}
	if out, code := full("compare", "--baseline", "baseline", "--candidate", "offset", "--save"); code == 0 || !strings.Contains(out, "it cannot be written here") {
		t.Errorf("compare --save: exit %d\n%.3000s", code, out)
	}
}
