package store

import (
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// batchRun is the i-th run of a test batch, with a result file of its own.
func batchRun(i int) NewRun {
	return NewRun{Run: sampleRun("vllm"), Fingerprint: fmt.Sprint("fp-", i), Files: []Attached{resultFile(fmt.Sprint("result ", i))}}
}

// outcome is what a batch told one run.
type outcome struct {
	id  int64
	err error
}

// addBatch writes runs as one batch and returns what each was told, in order.
func addBatch(s *Store, runs []NewRun) []outcome {
	out := make([]outcome, len(runs))
	told := make([]bool, len(runs))
	b := s.NewBatch(BatchLimits{Runs: len(runs) + 1})
	for i, n := range runs {
		b.Add(n, func(id int64, err error) { out[i], told[i] = outcome{id, err}, true })
	}
	b.Flush()
	for i := range told {
		if !told[i] {
			out[i].err = errors.New("never told")
		}
	}
	return out
}

// A run of a batch that fails on its own (here its extra keys cannot be encoded, after its
// requests are written) is undone alone: every other run of the batch, before and after it,
// is stored whole, and only the bad run is told an error.
func TestBatchUndoesOneRun(t *testing.T) {
	for _, bad := range []int{0, 3, 9} {
		t.Run(fmt.Sprint("bad run ", bad), func(t *testing.T) {
			engines(t, func(t *testing.T, s *Store) {
				runs := make([]NewRun, 10)
				for i := range runs {
					runs[i] = batchRun(i)
				}
				runs[bad].Run.Extra = map[string]any{"bad": math.Inf(1)}
				out := addBatch(s, runs)
				for i, o := range out {
					switch {
					case i == bad && (o.err == nil || errors.Is(o.err, ErrExists)):
						t.Errorf("run %d: %d, %v; want its error", i, o.id, o.err)
					case i != bad && (o.err != nil || o.id == 0):
						t.Errorf("run %d: %d, %v; want stored", i, o.id, o.err)
					}
				}
				if n, reqs := count(t, s, "runs"), count(t, s, "requests"); n != 9 || reqs != 18 {
					t.Errorf("%d runs and %d requests stored, want 9 and 18", n, reqs)
				}
				if n := count(t, s, "run_files"); n != 9 {
					t.Errorf("%d run files, want 9", n)
				}
				if rep, err := s.Check(); err != nil || len(rep.ForeignKeys) > 0 || len(rep.RunsNoResult) > 0 {
					t.Errorf("check: %v %v", rep, err)
				}
			})
		})
	}
}

// A run met twice in one batch is stored once: the second is told ErrExists with the first's
// id, as a run stored by an earlier import is.
func TestBatchSameRunTwice(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		out := addBatch(s, []NewRun{batchRun(1), batchRun(2), batchRun(1)})
		if out[0].err != nil || out[1].err != nil || !errors.Is(out[2].err, ErrExists) || out[2].id != out[0].id {
			t.Errorf("told %v", out)
		}
		if n := count(t, s, "runs"); n != 2 {
			t.Errorf("%d runs stored, want 2", n)
		}
	})
}

// A batch that cannot commit (here the library's file is replaced while it is written) stores
// none of its runs, and each is told so, with the batch's size and the reason: what an import
// reports is what the library holds. The runs stored before the batch stay.
func TestBatchNotCommitted(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.AddRun(batchRun(0)); err != nil {
		t.Fatal(err)
	}
	runs := make([]NewRun, 5)
	for i := range runs {
		runs[i] = batchRun(i + 1)
	}
	runs[3].Ready = func() *RunColumns {
		if err := os.Rename(path, path+".moved"); err != nil {
			t.Error(err)
		}
		return nil
	}
	for i, o := range addBatch(s, runs) {
		if !errors.Is(o.err, ErrReplaced) || !strings.Contains(o.err.Error(), "its batch of 5 runs was not committed") || o.id != 0 {
			t.Errorf("run %d: %d, %v; want not committed", i, o.id, o.err)
		}
		if runs[i].Run.ID != 0 {
			t.Errorf("run %d was given id %d", i, runs[i].Run.ID)
		}
	}
	kept, _ := filepath.Glob(path + ".displaced-*.db")
	if len(kept) != 1 {
		t.Fatalf("saved copies: %v", kept)
	}
	saved, err := Open(kept[0])
	if err != nil {
		t.Fatal(err)
	}
	defer saved.Close()
	if n, reqs := count(t, saved, "runs"), count(t, saved, "requests"); n != 1 || reqs != 2 {
		t.Errorf("the library holds %d runs and %d requests, want the 1 run stored before the batch", n, reqs)
	}
}

// Files stored ahead many to a transaction: one whose storing fails (here a fault on its
// bytes, as a mapped file truncated meanwhile gives) is undone alone, the others are stored
// and claimed.
func TestPutFilesUndoesOneFile(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		var puts []Put
		for i := range 4 {
			puts = append(puts, Put{File: resultFile(fmt.Sprint("file ", i)).File})
		}
		fault := errors.New("fault")
		guard := func(name string, put func() error) error {
			if err := put(); err != nil {
				return err
			}
			if name == puts[2].File.Name {
				return fault // after its rows are written: they must go
			}
			return nil
		}
		for i := range puts {
			puts[i].File.Name = fmt.Sprint("f", i)
		}
		ids, errs := s.PutFiles(puts, NewOwner(), guard)
		for i := range puts {
			if (i == 2) != (errs[i] != nil) || (i == 2) != (ids[i] == 0) {
				t.Errorf("file %d: %d, %v", i, ids[i], errs[i])
			}
		}
		if files, claims, chunks := count(t, s, "source_files"), count(t, s, "file_claims"), count(t, s, "file_chunks"); files != 3 || claims != 3 || chunks != 3 {
			t.Errorf("%d files, %d claims, %d chunks stored; want 3 each", files, claims, chunks)
		}
	})
}

// insertID tells a row kept out by its conflict (sql.ErrNoRows) from a new one (its id), in
// both engines: SQLite is asked without RETURNING, and its count of changed rows decides.
func TestInsertIDKeptOutByConflict(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		tx, err := s.begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		const q = `INSERT INTO manifests (sha256, content) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING`
		first, err := tx.insertID(q, "k1", "a")
		if err != nil || first == 0 {
			t.Fatalf("first insert: %d, %v", first, err)
		}
		if id, err := tx.insertID(q, "k1", "b"); !errors.Is(err, sql.ErrNoRows) {
			t.Errorf("the same key again: %d, %v; want sql.ErrNoRows", id, err)
		}
		if id, err := tx.insertID(q, "k2", "c"); err != nil || id == first || id == 0 {
			t.Errorf("another key: %d, %v", id, err)
		}
	})
}
