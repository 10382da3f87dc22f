package library

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"benchlens/demo"
	"benchlens/internal/pgtest"
	"benchlens/store"
)

// A team library restarted mid-import (a one-second PostgreSQL restart after the first batch
// of 10 runs) costs the import a pause, not runs: every write (a whole batch) waits for the
// server within a bound and is done again, so all
// runs are stored, no line is refused, and nothing is left behind. Before, such a restart gave
// hundreds of refused lines, a fraction of the runs stored and the rest's files as orphans.
func TestTeamLibraryRestartedMidImport(t *testing.T) {
	if testing.Short() {
		t.Skip("restarts the test cluster; skipped with -short")
	}
	bundle := filepath.Join(t.TempDir(), "demo")
	if err := demo.Generate(bundle); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	restarted := make(chan struct{})
	rep := Import(st, []string{bundle}, Options{Batch: store.BatchLimits{Runs: 10}, Progress: func(done, total int, name string) {
		if done == 10 {
			start := pgtest.Stop(t)
			go func() {
				time.Sleep(time.Second)
				start()
				close(restarted)
			}()
		}
	}})
	<-restarted
	if len(rep.Errors) > 0 || len(rep.Added) != 82 {
		t.Errorf("%d runs added, %d errors: %.2000v", len(rep.Added), len(rep.Errors), rep.Errors)
	}
	if check, err := st.Check(); err != nil || !check.OK() {
		t.Errorf("check after the import: %v %v", check, err)
	}
}

// A team library down for longer than the writes wait (after the first batch of 10 runs)
// stops the import cleanly: one line saying the library is unreachable, within the bound, and
// no further attempts.
func TestTeamLibraryDownStopsImport(t *testing.T) {
	if testing.Short() {
		t.Skip("stops the test cluster; skipped with -short")
	}
	bundle := filepath.Join(t.TempDir(), "demo")
	if err := demo.Generate(bundle); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	defer func(was time.Duration) { store.ReconnectFor = was }(store.ReconnectFor)
	store.ReconnectFor = 2 * time.Second
	var stoppedAt time.Time
	rep := Import(st, []string{bundle}, Options{Batch: store.BatchLimits{Runs: 10}, Progress: func(done, total int, name string) {
		if done == 10 {
			pgtest.Stop(t)
			stoppedAt = time.Now()
		}
	}})
	took := time.Since(stoppedAt)
	if len(rep.Added) != 10 || len(rep.Errors) != 1 || !strings.Contains(fmt.Sprint(rep.Errors[0]), "unreachable") {
		t.Errorf("%d runs added, errors: %.2000v", len(rep.Added), rep.Errors)
	}
	if took > 10*time.Second {
		t.Errorf("the import went on for %v after the library went down", took)
	}
}
