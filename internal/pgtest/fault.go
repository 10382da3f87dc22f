package pgtest

import (
	"path/filepath"
	"testing"
)

// Stop shuts the cluster down as an administrator's restart or a crash does (fast: every
// session is cut), for tests of a team library under faults, and returns the function that
// starts it again (called at the latest when the test ends). The cluster is the test binary's
// own: tests running meanwhile in this package see it down too.
func Stop(t testing.TB) (start func()) {
	t.Helper()
	if running == nil {
		t.Fatal("pgtest.Stop: no cluster (call NewDatabase first)")
	}
	c := running
	data := filepath.Join(c.dir, "data")
	if err := c.run("pg_ctl", "-D", data, "-m", "fast", "-w", "stop"); err != nil {
		t.Fatal(err)
	}
	started := false
	start = func() {
		if started {
			return
		}
		started = true
		if err := c.startServer(); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(start)
	return start
}
