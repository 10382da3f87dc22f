package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/model"
)

// bigManifest is a bundle.yaml of about 1 MB, as the runs of one bundle share it.
func bigManifest() model.Manifest {
	return model.Manifest{"label": "base", "notes": strings.Repeat("a long note ", 1<<20/12)}
}

// A 1 MB manifest over 20 runs is stored once, in either engine, and read back by each run;
// it goes with its last run. Before, each run row held its own copy (20 MB).
func TestManifestStoredOnce(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		var ids []int64
		for i := range 20 {
			run := sampleRun("vllm")
			run.Manifest = bigManifest()
			name := fmt.Sprintf("r%d", i)
			id, err := s.AddRun(NewRun{Run: run, Fingerprint: name, Files: []Attached{resultFile(name)}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		var stored int64
		if err := s.db.QueryRow(`SELECT coalesce(sum(length(content)), 0) + (SELECT coalesce(sum(length(manifest)), 0) FROM runs) FROM manifests`).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored > 3<<19 {
			t.Errorf("20 runs sharing a 1 MB manifest store %d bytes of manifests", stored)
		}
		runs, err := s.Runs()
		if err != nil || len(runs) != 20 {
			t.Fatalf("%d runs (%v)", len(runs), err)
		}
		for _, r := range runs {
			if len(r.Manifest.String("notes")) < 1<<19 || r.Manifest.String("label") != "base" {
				t.Fatalf("run %d came back with manifest of %d note bytes", r.ID, len(r.Manifest.String("notes")))
			}
		}
		for i, id := range ids {
			if err := s.DeleteRun(id); err != nil {
				t.Fatal(err)
			}
			if want := map[bool]int{true: 0, false: 1}[i == len(ids)-1]; count(t, s, "manifests") != want {
				t.Fatalf("after deleting %d of 20 runs: %d manifests, want %d", i+1, count(t, s, "manifests"), want)
			}
		}
	})
}

// A library of schema 9, whose runs each hold their manifest, is migrated to one row per
// distinct manifest, in either engine; check finds nothing, the runs read as before, and a
// backup and a copy carry the shared rows.
func TestManifestMigration(t *testing.T) {
	for _, e := range testEngines {
		t.Run(e.name, func(t *testing.T) {
			loc := e.location(t)
			SchemaVersion = 9
			s, err := Open(loc)
			SchemaVersion = len(migrations)
			if err != nil {
				t.Fatal(err)
			}
			notes := strings.Repeat("n", 100_000)
			for id := 1; id <= 4; id++ {
				manifest := fmt.Sprintf(`{"label":"arm-%d","notes":"%s"}`, id%2, notes)
				for _, q := range []string{
					fmt.Sprintf(`INSERT INTO source_files (id, sha256, name, size, kind, imported_at) VALUES (%d, 'sha%d', 'r%d.json', 1, 'result', 'now')`, id, id, id),
					fmt.Sprintf(`INSERT INTO file_chunks (file_id, seq, compression, content) VALUES (%d, 0, 's2', ?)`, id),
					fmt.Sprintf(`INSERT INTO runs (id, fingerprint, source_id, source_index, bundle, label, role, tool, model, date, header, summary, recomputed, extra, manifest, imported_at)
						VALUES (%d, 'fp%d', %d, 0, 'b', 'l', 'baseline', 'vllm', 'm', '', '{}', '{}', '{}', '{}', '%s', 'now')`, id, id, id, manifest),
					fmt.Sprintf(`INSERT INTO run_files VALUES (%d, %d, 'result')`, id, id),
				} {
					var args []any
					if strings.Contains(q, "?") {
						args = append(args, []byte{1, 0x78}) // s2 of "x"
					}
					if _, err := s.db.Exec(q, args...); err != nil {
						t.Fatal(q[:60], err)
					}
				}
			}
			if e.name == "postgres" {
				for _, table := range []string{"runs", "source_files"} {
					if _, err := s.db.Exec(`SELECT setval(pg_get_serial_sequence(?, 'id'), 4, true)`, table); err != nil {
						t.Fatal(err)
					}
				}
			}
			s.Close()
			if s, err = Open(loc); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if n := count(t, s, "manifests"); n != 2 {
				t.Errorf("%d manifests after the migration, want 2", n)
			}
			var inline int64
			s.db.QueryRow(`SELECT coalesce(sum(length(manifest)), 0) FROM runs`).Scan(&inline)
			if inline != 0 {
				t.Errorf("runs still hold %d bytes of manifests", inline)
			}
			runs, err := s.Runs()
			if err != nil || len(runs) != 4 {
				t.Fatalf("%d runs (%v)", len(runs), err)
			}
			for _, r := range runs {
				if want := fmt.Sprintf("arm-%d", r.ID%2); r.Manifest.String("label") != want || len(r.Manifest.String("notes")) != len(notes) {
					t.Errorf("run %d: manifest label %q, want %q", r.ID, r.Manifest.String("label"), want)
				}
			}
			rep, err := s.Check()
			if err != nil || !rep.OK() {
				t.Errorf("check after the migration: %+v %v", rep, err)
			}
			// A new run of an arm shares the migrated row.
			run := sampleRun("vllm")
			run.Manifest = runs[0].Manifest
			if _, err := s.AddRun(NewRun{Run: run, Fingerprint: "new", Files: []Attached{resultFile("new")}}); err != nil {
				t.Fatal(err)
			}
			if n := count(t, s, "manifests"); n != 2 {
				t.Errorf("%d manifests after a run sharing one, want 2", n)
			}
			backup := filepath.Join(t.TempDir(), "backup.db")
			if _, err := s.Backup(backup); err != nil {
				t.Fatal(err)
			}
			b, err := Open(backup)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if got, err := b.Runs(); err != nil || len(got) != 5 || got[4].Manifest.String("label") != runs[0].Manifest.String("label") {
				t.Errorf("the backup: %d runs (%v)", len(got), err)
			}
			if n := count(t, b, "manifests"); n != 2 {
				t.Errorf("the backup has %d manifests, want 2", n)
			}
			run = sampleRun("vllm")
			run.Manifest = model.Manifest{"label": "third"}
			if _, err := b.AddRun(NewRun{Run: run, Fingerprint: "third", Files: []Attached{resultFile("third")}}); err != nil {
				t.Errorf("a run added to the backup: %v", err)
			}
		})
	}
}

// A run whose shared manifest went missing is named by check, in either engine's way.
func TestCheckFindsRunsWithoutTheirManifest(t *testing.T) {
	s, _ := openTemp(t)
	ids := addRuns(t, s, "a", 2)
	if _, err := s.db.Exec(`DELETE FROM manifests`); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("runs row %d → manifests", ids[0])
	if len(rep.ForeignKeys) != 2 || rep.ForeignKeys[0] != want {
		t.Errorf("check: %q, want %q first", rep.ForeignKeys, want)
	}
}

// A backup of a library whose damaged page held shared manifests keeps every run: the runs
// whose manifest was lost are rescued without it, and the rescue names the manifests lost.
func TestRescueKeepsRunsWhoseManifestWasLost(t *testing.T) {
	s, path := openTemp(t)
	for i := 1; i <= 30; i++ {
		run := sampleRun("vllm")
		run.Manifest = map[string]any{"notes": strings.Repeat(fmt.Sprintf("mf-%02d ", i), 3000)} // ~3 manifests a page
		if _, err := s.AddRun(NewRun{Run: run, Fingerprint: fmt.Sprintf("fp-%02d", i), Files: []Attached{resultFile(fmt.Sprint(i))}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const page = 65536
	damaged := false
	for p := 1; p < len(data)/page && !damaged; p++ {
		pg := data[p*page : (p+1)*page]
		if pg[0] == 0x0d && bytes.Contains(pg, []byte("mf-15 ")) {
			for i := range 8 {
				pg[i] ^= 0x5a
			}
			damaged = true
		}
	}
	if !damaged {
		t.Fatal("no leaf page holds manifest 15")
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if s, err = Open(path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	dest := filepath.Join(t.TempDir(), "rescued.db")
	rescue, err := s.Backup(dest)
	if err != nil || rescue == nil || !strings.Contains(rescue.String(), "lost: manifests: ") {
		t.Fatalf("backup: %v %v", rescue, err)
	}
	r, err := Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	runs, err := r.Runs()
	if err != nil || len(runs) != 30 {
		t.Fatalf("%d runs rescued (%v), want all 30", len(runs), err)
	}
	without := 0
	for _, run := range runs {
		if run.Manifest == nil {
			without++
		}
	}
	if without == 0 || without > 5 {
		t.Errorf("%d runs rescued without their manifest", without)
	}
	if check, err := r.Check(); err != nil || !check.OK() {
		t.Errorf("the rescued library: %v %v", check, err)
	}
}
