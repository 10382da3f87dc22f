package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"benchlens/internal/pgtest"
)

// TestMain doubles as the command itself, run in a process of its own (for signals), when
// BENCHLENS_CLI_ARGS holds its arguments (separated by the unit separator, 0x1f).
func TestMain(m *testing.M) {
	time.Local = time.UTC // the text outputs show local times: the goldens read them in UTC
	if args := os.Getenv("BENCHLENS_CLI_ARGS"); args != "" {
		// BENCHLENS_CLI_FSIZE caps the size of any file written: a disk that runs out of room.
		if n, err := strconv.ParseUint(os.Getenv("BENCHLENS_CLI_FSIZE"), 10, 64); err == nil {
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
				panic(err)
			}
		}
		os.Exit(run(os.Stdout, os.Stderr, strings.Split(args, "\x1f")))
	}
	pgtest.Main(m)
}

// A team library answers the same commands with the same output as a library file: the
// fixtures' runs, the demo's verdicts.
func TestTeamLibrarySameCLI(t *testing.T) {
	team := pgtest.NewDatabase(t)
	if out, stderr, code := bl(t, "--db", team, "import", fixtures); code != 0 || !strings.Contains(out, "imported 13 runs") {
		t.Fatalf("import into PostgreSQL: exit %d, %q %q", code, out, stderr)
	}
	out, _, _ := bl(t, "--db", team, "runs", "--json")
	golden(t, "runs.golden.json", out)

	demo := pgtest.NewDatabase(t)
	t.Setenv("BENCHLENS_DB", demo)
	if _, stderr, code := bl(t, "demo"); code != 0 {
		t.Fatalf("demo via BENCHLENS_DB: %s", stderr)
	}
	out, stderr, code := bl(t, "compare", "--baseline", "baseline", "--candidate", "established")
	if code != 0 {
		t.Fatalf("compare: %s", stderr)
	}
	golden(t, "compare_established.golden.txt", out)
}

// backup --to copies a library file into a team library and backup copies it back to a
// file; check passes on both and every listing is the same.
func TestBackupToTeamLibraryAndBack(t *testing.T) {
	file := filepath.Join(t.TempDir(), "lib.db")
	bl(t, "--db", file, "demo")
	if _, stderr, code := bl(t, "--db", file, "compare", "--baseline", "baseline", "--candidate", "offset", "--save"); code != 0 {
		t.Fatal(stderr)
	}
	if _, stderr, code := bl(t, "--db", file, "settings", "alpha=0.01"); code != 0 {
		t.Fatal(stderr)
	}
	team := pgtest.NewDatabase(t)
	out, stderr, code := bl(t, "--db", file, "backup", "--to", team)
	if code != 0 || !strings.Contains(out, "backed up") {
		t.Fatalf("backup --to: exit %d %q %q", code, out, stderr)
	}
	back := filepath.Join(t.TempDir(), "back.db")
	if out, stderr, code := bl(t, "--db", team, "backup", back); code != 0 {
		t.Fatalf("backup of the team library: exit %d %q %q", code, out, stderr)
	}
	for _, db := range []string{file, team, back} {
		if out, _, code := bl(t, "--db", db, "check"); code != 0 || !strings.Contains(out, ": ok\n") || !strings.HasSuffix(out, " a run\n") {
			t.Errorf("check %s: exit %d %q", db, code, out)
		}
	}
	for _, args := range [][]string{{"runs", "--json"}, {"comparisons", "--json"}, {"settings"}, {"show", "3", "--json"}} {
		want, _, _ := bl(t, append([]string{"--db", file}, args...)...)
		for _, db := range []string{team, back} {
			if got, _, _ := bl(t, append([]string{"--db", db}, args...)...); got != want {
				t.Errorf("%s in %s differs from the original", args, db)
			}
		}
	}
	if _, stderr, code := bl(t, "--db", file, "backup", "--to", team); code != exitRejected || !strings.Contains(stderr, "not empty") {
		t.Errorf("backup into a used team library: exit %d %q", code, stderr)
	}
}
