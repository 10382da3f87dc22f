package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/model"
)

func openTemp(t *testing.T) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "lib.db")
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, path
}

func sampleRun(tool string) *model.Run {
	r := model.NewRun(tool)
	r.Label, r.Role, r.Model = "base", "baseline", "m"
	r.SetStat(model.TTFT, "mean", 12.5)
	r.RequestRate = model.Num(math.Inf(1))
	r.Requests = []model.Request{
		{InputLen: 5, OutputLen: 3, TTFT: 0.01, TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: []float64{0.001, 0.002}},
		{InputLen: -1, OutputLen: 0, TTFT: math.NaN(), TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), Error: "boom"},
	}
	return r
}

func resultFile(content string) Attached {
	return Attached{File: &model.SourceFile{Name: "r.json", Size: int64(len(content)), SHA256: "sha-" + content, Kind: model.KindResult, Data: []byte(content)}, Role: "result"}
}

func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestNewLibrary(t *testing.T) {
	s, path := openTemp(t)
	var v int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&v); err != nil || v != SchemaVersion {
		t.Errorf("user_version = %d (%v), want %d", v, err, SchemaVersion)
	}
	var mode string
	s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode)
	if mode != "wal" {
		t.Errorf("journal_mode = %s, want wal", mode)
	}
	var fk int
	s.db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	if fk != 1 {
		t.Error("foreign keys are off")
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("library mode %v (%v), want 0600", info.Mode().Perm(), err)
	}
}

func TestRunRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	run := sampleRun("vllm")
	run.Metadata = map[string]string{"framework": "vllm"}
	run.Manifest = model.Manifest{"label": "base", "node": map[string]any{"numa": 0}}
	id, err := s.AddRun(NewRun{Run: run, Fingerprint: "fp1", Files: []Attached{resultFile("{}")}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.Run(id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Label != "base" || got.Summary[model.TTFT]["mean"] != 12.5 || !math.IsInf(got.RequestRate.F(), 1) ||
		got.Metadata["framework"] != "vllm" || got.Manifest.String("node", "numa") != "0" {
		t.Errorf("run came back as %+v", got)
	}
	if len(got.Requests) != 2 || got.Requests[1].Error != "boom" || got.Requests[1].InputLen != -1 ||
		!math.IsNaN(got.Requests[1].TTFT) || len(got.Requests[0].ITL) != 2 {
		t.Errorf("requests came back as %+v", got.Requests)
	}
	if g := got.Requests[0].ITL[1]; math.Abs(g-0.002) > 1e-9 {
		t.Errorf("gap = %v, want 0.002", g)
	}
	data, err := s.FileContent(1)
	if err != nil || string(data) != "{}" {
		t.Errorf("file content %q, %v", data, err)
	}
}

func TestAddRunTwiceChangesNothing(t *testing.T) {
	s, _ := openTemp(t)
	id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "fp", Files: []Attached{resultFile("a")}})
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "fp", Files: []Attached{resultFile("a")}})
	if !errors.Is(err, ErrExists) || again != id {
		t.Fatalf("second add: id %d, %v", again, err)
	}
	if count(t, s, "runs") != 1 || count(t, s, "requests") != 2 || count(t, s, "source_files") != 1 {
		t.Error("second add changed the library")
	}
}

// A failure after the requests are written leaves no trace of the run.
func TestAddRunIsAtomic(t *testing.T) {
	s, _ := openTemp(t)
	run := sampleRun("vllm")
	run.Extra = map[string]any{"bad": math.Inf(1)} // JSON cannot hold it: fails after the requests
	if _, err := s.AddRun(NewRun{Run: run, Fingerprint: "fp", Files: []Attached{resultFile("x")}}); err == nil {
		t.Fatal("want an error")
	}
	for _, table := range []string{"runs", "requests", "source_files", "run_files"} {
		if n := count(t, s, table); n != 0 {
			t.Errorf("%s has %d rows after a failed add", table, n)
		}
	}
}

func TestRefusesForeignAndNewerFiles(t *testing.T) {
	dir := t.TempDir()
	foreign := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite3", foreign)
	if err != nil {
		t.Fatal(err)
	}
	db.Exec(`CREATE TABLE notes (x)`)
	db.Close()
	if _, err := Open(foreign); err == nil || !strings.Contains(err.Error(), "another program") {
		t.Errorf("foreign SQLite file: %v", err)
	}

	newer := filepath.Join(dir, "newer.db")
	s, err := Open(newer)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`PRAGMA user_version = 999`)
	s.Close()
	if _, err := Open(newer); err == nil || !strings.Contains(err.Error(), "newer benchlens") {
		t.Errorf("newer schema: %v", err)
	}

	garbage := filepath.Join(dir, "garbage.db")
	os.WriteFile(garbage, []byte(strings.Repeat("not a database ", 100)), 0o600)
	if _, err := Open(garbage); err == nil {
		t.Error("garbage file opened as a library")
	}
	if b, _ := os.ReadFile(garbage); !strings.HasPrefix(string(b), "not a database") {
		t.Error("garbage file was overwritten")
	}
}

func TestGapsPacking(t *testing.T) {
	gaps := []float64{0, 0.0123456, 1.5, 120}
	got := UnpackGaps(PackGaps(nil, gaps))
	for i := range gaps {
		if math.Abs(got[i]-gaps[i]) > 1e-6*math.Max(1, gaps[i]) {
			t.Errorf("gap %d: %v, want %v", i, got[i], gaps[i])
		}
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("BENCHLENS_DB", "/tmp/x.db")
	if p, _ := DefaultPath(); p != "/tmp/x.db" {
		t.Errorf("BENCHLENS_DB ignored: %s", p)
	}
	t.Setenv("BENCHLENS_DB", "")
	t.Setenv("XDG_DATA_HOME", "/data")
	if p, _ := DefaultPath(); p != "/data/benchlens/library.db" {
		t.Errorf("XDG_DATA_HOME ignored: %s", p)
	}
}

// Files larger than a chunk come back byte for byte; so do empty ones.
func TestFileContentRoundTrip(t *testing.T) {
	s, _ := openTemp(t)
	big := make([]byte, 2*ChunkSize+12345)
	for i := range big {
		big[i] = byte(i*7 + i/1000)
	}
	for _, data := range [][]byte{big, {}, []byte("small")} {
		f := &model.SourceFile{Name: "f", Size: int64(len(data)), SHA256: fmt.Sprint(len(data)), Kind: model.KindOther, Data: data}
		id, err := s.PutFile(f, nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err := s.FileContent(id)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%d bytes came back as %d (%v)", len(data), len(got), err)
		}
		if err := s.RemoveOrphans([]int64{id}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.FileContent(id); err == nil {
			t.Error("orphan not removed")
		}
	}
}

func TestDeleteAndRelabel(t *testing.T) {
	s, _ := openTemp(t)
	id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "a", Files: []Attached{resultFile("a")}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Relabel([]int64{id}, "other-arm", "candidate"); err != nil {
		t.Fatal(err)
	}
	r, _ := s.Run(id)
	if r.Label != "other-arm" || r.Role != "candidate" {
		t.Errorf("relabel: %q %q", r.Label, r.Role)
	}
	if err := s.DeleteRun(id); err != nil {
		t.Fatal(err)
	}
	for _, table := range []string{"runs", "requests", "source_files", "run_files", "file_chunks"} {
		if n := count(t, s, table); n != 0 {
			t.Errorf("%s has %d rows after delete", table, n)
		}
	}
	if err := s.DeleteRun(id); err == nil {
		t.Error("deleting twice succeeded")
	}
}

func TestAnnotationsKeepHistory(t *testing.T) {
	s, _ := openTemp(t)
	id, err := s.SaveComparison(Comparison{Baseline: "a", Candidate: "b", Settings: []byte("{}"), Record: []byte("{}"), Status: "zero"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Annotate(Annotation{ComparisonID: id, StatusOverride: "established"}); err != ErrOverrideNeedsReason {
		t.Errorf("override without reason: %v", err)
	}
	for _, note := range []string{"first", "=HYPERLINK(\"x\")"} {
		if _, err := s.Annotate(Annotation{ComparisonID: id, Author: "ana", Note: note, Tags: []string{"fa"}}); err != nil {
			t.Fatal(err)
		}
	}
	cur, _ := s.CurrentAnnotation(id)
	hist, _ := s.Annotations(id)
	if cur.Note != "=HYPERLINK(\"x\")" || len(hist) != 2 || hist[0].Note != "first" || cur.Tags[0] != "fa" {
		t.Errorf("current %+v history %d", cur, len(hist))
	}
}

// An older library is backed up, then migrated; the backup opens as the old schema.
func TestOlderSchemaMigratedAfterBackup(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "a", Files: []Attached{resultFile("a")}}); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{`DROP TABLE annotations`, `DROP TABLE comparisons`, `DROP TABLE evidence`, `PRAGMA user_version = 1`} {
		if _, err := s.db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	var v int
	s2.db.QueryRow(`PRAGMA user_version`).Scan(&v)
	if v != SchemaVersion || count(t, s2, "runs") != 1 {
		t.Errorf("after migration: version %d, %d runs", v, count(t, s2, "runs"))
	}
	backups, _ := filepath.Glob(path + ".schema1-*.bak")
	if len(backups) != 1 {
		t.Fatalf("backups: %v", backups)
	}
	old, err := sql.Open("sqlite3", backups[0])
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	old.QueryRow(`PRAGMA user_version`).Scan(&v)
	if v != 1 {
		t.Errorf("backup has schema %d", v)
	}
}

func TestBackupAndCheck(t *testing.T) {
	s, path := openTemp(t)
	if _, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "a", Files: []Attached{resultFile("a")}}); err != nil {
		t.Fatal(err)
	}
	dest := path + ".copy"
	if err := s.Backup(dest); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(dest); err == nil {
		t.Error("a backup overwrote an existing file")
	}
	if info, err := os.Stat(dest); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("backup mode: %v %v", info, err)
	}
	copyStore, err := Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	if count(t, copyStore, "requests") != 2 {
		t.Error("backup lacks the requests")
	}
	copyStore.Close()

	rep, err := s.Check()
	if err != nil || !rep.OK() {
		t.Fatalf("healthy library: %v %v", rep, err)
	}
	if _, err := s.PutFile(&model.SourceFile{Name: "lost", Size: 4, SHA256: "lost", Kind: model.KindOther, Data: []byte("lost")}, nil); err != nil {
		t.Fatal(err)
	}
	if rep, _ := s.Check(); len(rep.OrphanFiles) != 1 || rep.OK() {
		t.Errorf("orphan not found: %v", rep)
	}
}
