package library

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers"
	"benchlens/store"
)

// allFailed is `vllm bench serve` 0.25.1's result of a run whose every request failed
// (completed 0, no per-request arrays, every statistic 0.0), at another request rate when
// rate is not "inf": a run that measured nothing, known by its file alone.
func allFailed(t *testing.T, rate string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtures, "08_bench_serve_all_requests_failed_v0.25.1.json"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Replace(string(b), `"request_rate": "inf"`, `"request_rate": `+rate, 1)
}

// keyedWithoutHash gives runs the fingerprint an import before this version stored for a run
// that measured nothing: taken before the file was hashed, so with an empty SHA-256.
func keyedWithoutHash(t *testing.T, st *store.Store, ids ...int64) {
	t.Helper()
	for _, id := range ids {
		run, err := st.Run(id)
		if err != nil {
			t.Fatal(err)
		}
		var index int
		if err := st.DB().QueryRow(fmt.Sprintf(`SELECT source_index FROM runs WHERE id = %d`, id)).Scan(&index); err != nil {
			t.Fatal(err)
		}
		if _, err := st.DB().Exec(fmt.Sprintf(`UPDATE runs SET fingerprint = '%s' WHERE id = %d`, Fingerprint(run, "", index), id)); err != nil {
			t.Fatal(err)
		}
	}
}

// fingerprints are the stored runs' fingerprints by id.
func fingerprints(t *testing.T, st *store.Store) map[int64]string {
	t.Helper()
	rows, err := st.DB().Query(`SELECT id, fingerprint FROM runs`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[int64]string{}
	for rows.Next() {
		var id int64
		var fp string
		if err := rows.Scan(&id, &fp); err != nil {
			t.Fatal(err)
		}
		out[id] = fp
	}
	return out
}

// A library an older benchlens wrote holds a run that measured nothing under the key of an
// empty hash, and lost the second file of the same tool, model, date and counts. Opened by
// this version, that run alone is re-keyed by its file's hash, before anything is looked up:
// the lost file imported adds its run, the folder imported again finds every run (no duplicate), the
// run that measured something and the one already keyed by its hash keep their fingerprints.
func TestRunsKeyedWithoutTheirHashAreRekeyed(t *testing.T) {
	eachEngine(t, func(t *testing.T, db string) {
		first := writeTree(t, map[string]string{
			"rate-inf.json": allFailed(t, `"inf"`),
			"rate-8.json":   strings.Replace(allFailed(t, "8.0"), "20260818-041350", "20260818-041359", 1),
			"measured.json": vllmResult(t, "20250101-000001"),
		})
		st, err := store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		rep := Import(st, []string{first}, Options{})
		if len(rep.Added) != 3 || len(rep.Errors) > 0 {
			t.Fatalf("first import: %d added, %v", len(rep.Added), rep.Errors)
		}
		var stale int64 // rate-inf.json's run
		for _, id := range rep.Added {
			if r, _ := st.Run(id); math.IsInf(r.RequestRate.F(), 1) {
				stale = id
			}
		}
		keyedWithoutHash(t, st, stale)
		before := fingerprints(t, st)
		st.Close()

		// The lost file, imported alone by this version, then its folder again.
		lost := filepath.Join(first, "rate-4.json")
		if err := os.WriteFile(lost, []byte(allFailed(t, "4.0")), 0o644); err != nil {
			t.Fatal(err)
		}
		st, err = store.Open(db)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		if rep := Import(st, []string{lost}, Options{}); len(rep.Added) != 1 || len(rep.Errors) > 0 {
			t.Fatalf("the lost file: %d added, %d existing, %v", len(rep.Added), len(rep.Existing), rep.Errors)
		}
		// Re-keyed before anything was looked up, not met by its files on the way.
		after := fingerprints(t, st)
		run, _ := st.Run(stale)
		data, _ := os.ReadFile(filepath.Join(first, "rate-inf.json"))
		if want := Fingerprint(run, importers.Hash(data), 0); after[stale] != want {
			t.Errorf("run %d: fingerprint %s, want %s (of its file's hash)", stale, after[stale], want)
		}
		for id, fp := range before {
			if id != stale && after[id] != fp {
				t.Errorf("run %d re-keyed: %s -> %s", id, fp, after[id])
			}
		}
		if again := Import(st, []string{first}, Options{}); len(again.Added) != 0 || len(again.Existing) != 4 || len(again.Errors) > 0 {
			t.Errorf("re-import: %d added, %d existing, %v", len(again.Added), len(again.Existing), again.Errors)
		}
		if runs, _ := st.Runs(); len(runs) != 4 {
			t.Errorf("%d runs stored, want 4", len(runs))
		}
	})
}

// The re-key is one transaction: a failure at its second run leaves the first's fingerprint
// as it was too, and the next open of the library does it whole.
func TestRekeyUnhashedIsAllOrNothing(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	bundle := writeTree(t, map[string]string{
		"rate-inf.json": allFailed(t, `"inf"`),
		"rate-8.json":   strings.Replace(allFailed(t, "8.0"), "20260818-041350", "20260818-041359", 1), // keys of their own
	})
	rep := Import(st, []string{bundle}, Options{})
	if len(rep.Added) != 2 {
		t.Fatalf("import: %d added, %v", len(rep.Added), rep.Errors)
	}
	keyedWithoutHash(t, st, rep.Added...)
	before := fingerprints(t, st)
	st.Close()
	if st, err = store.Open(db); err != nil { // the import re-keyed what this Store held
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.DB().Exec(fmt.Sprintf(`CREATE TRIGGER fail BEFORE UPDATE OF fingerprint ON runs WHEN OLD.id = %d
		BEGIN SELECT RAISE(ABORT, 'the disk went away'); END`, max(rep.Added[0], rep.Added[1]))); err != nil {
		t.Fatal(err)
	}
	if n, err := st.RekeyUnhashed(Fingerprint); err == nil || !strings.Contains(err.Error(), "the disk went away") {
		t.Fatalf("re-key: %d changed, %v: want the trigger's failure", n, err)
	}
	if got := fingerprints(t, st); fmt.Sprint(got) != fmt.Sprint(before) {
		t.Errorf("a failed re-key changed fingerprints: %v -> %v", before, got)
	}
	if _, err := st.DB().Exec(`DROP TRIGGER fail`); err != nil {
		t.Fatal(err)
	}
	if n, err := st.RekeyUnhashed(Fingerprint); n != 2 || err != nil {
		t.Errorf("re-key after the failure: %d changed, %v; want 2", n, err)
	}
	if n, err := st.RekeyUnhashed(Fingerprint); n != 0 || err != nil {
		t.Errorf("a second re-key: %d changed, %v; want none", n, err)
	}
}
