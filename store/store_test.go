package store

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"benchlens/internal/pagedamage"
	"benchlens/internal/pgtest"
	"benchlens/model"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// testEngines name each engine with where a test makes a new library of it.
var testEngines = []struct {
	name     string
	location func(testing.TB) string
}{
	{"sqlite", func(t testing.TB) string { return filepath.Join(t.TempDir(), "lib.db") }},
	{"postgres", pgtest.NewDatabase},
}

// engines runs a test on a new, empty library in each engine.
func engines(t *testing.T, test func(t *testing.T, s *Store)) {
	for _, e := range testEngines {
		t.Run(e.name, func(t *testing.T) {
			s, err := Open(e.location(t))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			if s.Engine() != e.name {
				t.Fatalf("opened as %s", s.Engine())
			}
			test(t, s)
		})
	}
}

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
	var fk, pageSize, vacuum int
	s.db.QueryRow(`PRAGMA foreign_keys`).Scan(&fk)
	if fk != 1 {
		t.Error("foreign keys are off")
	}
	s.db.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
	s.db.QueryRow(`PRAGMA auto_vacuum`).Scan(&vacuum)
	if pageSize != 65536 || vacuum != 2 {
		t.Errorf("page_size %d, auto_vacuum %d; want 65536 and 2 (incremental)", pageSize, vacuum)
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("library mode %v (%v), want 0600", info.Mode().Perm(), err)
	}
}

func TestRunRoundTrip(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
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
	})
}

func TestAddRunTwiceChangesNothing(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
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
	})
}

// Attaching names only the files the run lacked; the result and parts are left alone.
func TestAttachFilesAddsOnlyWhatIsNew(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "fp", Files: []Attached{resultFile("a")}})
		if err != nil {
			t.Fatal(err)
		}
		log := &model.SourceFile{Name: "server.log", Kind: model.KindLog, Data: []byte("INFO up\n"), Size: 8, SHA256: "log"}
		files := []Attached{resultFile("a"), {File: log, Role: "attachment"}}
		added, _, err := s.AttachFiles(id, files)
		if err != nil || len(added) != 1 || added[0] != "server.log" {
			t.Fatalf("first attach: %q, %v", added, err)
		}
		if added, _, err = s.AttachFiles(id, files); err != nil || len(added) != 0 {
			t.Errorf("second attach: %q, %v", added, err)
		}
		if count(t, s, "run_files") != 2 || count(t, s, "source_files") != 2 {
			t.Errorf("run_files %d, source_files %d; want 2 and 2", count(t, s, "run_files"), count(t, s, "source_files"))
		}
	})
}

// A failure after the requests are written leaves no trace of the run.
func TestAddRunIsAtomic(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
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
	})
}

// Another program's SQLite file, one with a foreign application id and a newer library (in
// rollback-journal mode, as another tool may leave it) are refused byte for byte untouched:
// no switch to WAL, no side files.
func TestRefusesForeignAndNewerFiles(t *testing.T) {
	dir := t.TempDir()
	sqliteFile := func(name string, stmts ...string) string {
		p := filepath.Join(dir, name)
		db, err := sql.Open("sqlite3", p)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range stmts {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		db.Close()
		return p
	}
	newer := filepath.Join(dir, "newer.db")
	s, err := Open(newer)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`PRAGMA user_version = 999`)
	s.db.Exec(`PRAGMA journal_mode = DELETE`)
	s.Close()
	for _, c := range []struct{ path, want string }{
		{sqliteFile("other.db", `CREATE TABLE notes (x)`, `INSERT INTO notes VALUES (1)`), "another program"},
		{sqliteFile("app.db", `PRAGMA application_id = 7`), "application id 0x7"},
		{newer, "newer benchlens"},
	} {
		before, _ := os.ReadFile(c.path)
		if _, err := Open(c.path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.path, err, c.want)
		}
		if after, _ := os.ReadFile(c.path); !bytes.Equal(before, after) {
			t.Errorf("%s changed while being refused", c.path)
		}
		for _, side := range []string{"-wal", "-shm", "-journal"} {
			if _, err := os.Stat(c.path + side); err == nil {
				t.Errorf("%s%s created", c.path, side)
			}
		}
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

// One import's clean-up never removes a file another import has stored ahead and claimed;
// the other import's run then finds its bytes. Without claims it found none and was stored
// with a 0-chunk file.
func TestClaimedFileSurvivesAnotherCleanUp(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		log := &model.SourceFile{Name: "server.log", Size: 5, SHA256: "sha-log", Kind: model.KindLog, Data: []byte("hello")}
		a, b := NewOwner(), NewOwner()
		if _, err := s.PutFile(log, b, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := s.PutFile(log, a, nil); err != nil {
			t.Fatal(err)
		}
		if n, err := s.ReleaseFiles(a); err != nil || n != 0 {
			t.Fatalf("A's clean-up removed %d files (%v) that B claims", n, err)
		}
		res := resultFile("r")
		if _, err := s.PutFile(res.File, b, nil); err != nil {
			t.Fatal(err)
		}
		res.File.Data, log.Data = nil, nil // dropped after storing ahead, as library.Import does
		if _, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "b", Files: []Attached{res, {File: log, Role: "attachment", Evidence: &model.Evidence{Kind: model.KindLog, Format: "vllm"}}}}); err != nil {
			t.Fatal(err)
		}
		if n, err := s.ReleaseFiles(b); err != nil || n != 0 {
			t.Fatalf("B's clean-up removed %d files (%v)", n, err)
		}
		if rep, err := s.Check(); err != nil || !rep.OK() {
			t.Errorf("check: %v %v", rep, err)
		}
	})
}

// A run whose file could not be stored ahead (disk full) is refused, not stored without its
// bytes; a file that lost its bytes is caught by check and restored by storing it again.
func TestRunAndBytesTogether(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		res := resultFile("content")
		res.File.Data = nil
		if _, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "a", Files: []Attached{res}}); !errors.Is(err, ErrBytesMissing) {
			t.Errorf("run stored without its bytes: %v", err)
		}
		if n := count(t, s, "runs") + count(t, s, "source_files"); n != 0 {
			t.Errorf("%d rows after a refused run", n)
		}
		res = resultFile("content")
		id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "a", Files: []Attached{res}})
		if err != nil {
			t.Fatal(err)
		}
		s.db.Exec(`DELETE FROM file_chunks`) // what the old race and a full disk left
		rep, _ := s.Check()
		if len(rep.MissingBytes) != 1 || rep.OK() {
			t.Errorf("check missed a file without bytes: %v", rep)
		}
		owner := NewOwner()
		fid, err := s.PutFile(res.File, owner, nil)
		if err != nil {
			t.Fatal(err)
		}
		s.ReleaseFiles(owner)
		if got, err := s.FileContent(fid); err != nil || string(got) != "content" {
			t.Errorf("bytes not restored: %q %v", got, err)
		}
		if rep, _ := s.Check(); !rep.OK() {
			t.Errorf("after restoring: %v", rep)
		}
		if _, err := s.Run(id); err != nil {
			t.Error(err)
		}
	})
}

// Repair removes files no run refers to once the import that claimed them is gone (a dead
// process), and leaves claimed files of a running one.
func TestRepairRemovesOrphansOfDeadImports(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		live, dead := NewOwner(), NewOwner()
		for i, owner := range []string{live, dead} {
			f := &model.SourceFile{Name: "f", Size: 1, SHA256: fmt.Sprint(i), Kind: model.KindOther, Data: []byte("x")}
			if _, err := s.PutFile(f, owner, nil); err != nil {
				t.Fatal(err)
			}
		}
		// A pid far above pid_max stands for a killed importer.
		s.db.Exec(`UPDATE file_claims SET pid = 99999999 WHERE owner = ?`, dead)
		if rep, _ := s.Check(); len(rep.OrphanFiles) != 1 {
			t.Errorf("check: %v, want the dead import's file as an orphan", rep)
		}
		if n, err := s.Repair(); err != nil || n != 1 {
			t.Errorf("repair removed %d (%v), want 1", n, err)
		}
		if rep, _ := s.Check(); !rep.OK() {
			t.Errorf("after repair: %v", rep)
		}
		if n := count(t, s, "source_files"); n != 1 {
			t.Errorf("%d files left, want the live import's one", n)
		}
	})
}

// A claim made in another container or on another machine (another host identity) is not
// judged by this machine's processes: it holds its file for a day, then counts as stale.
// A claim written before claims said where (host ”) is judged here, as before.
func TestClaimsOfOtherHostsExpireByAge(t *testing.T) {
	s, _ := openTemp(t)
	owners := map[string]string{} // what each claim stands for → its owner
	for i, what := range []string{"other host, now", "other host, two days ago", "no host, dead pid"} {
		owner := NewOwner()
		owners[what] = owner
		f := &model.SourceFile{Name: what, Size: 1, SHA256: fmt.Sprint(i), Kind: model.KindOther, Data: []byte("x")}
		if _, err := s.PutFile(f, owner, nil); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now().UTC()
	for what, set := range map[string][]any{
		"other host, now":          {"lab-2 pid:[4026531836]", now.Format(time.RFC3339)},
		"other host, two days ago": {"lab-2 pid:[4026531836]", now.Add(-48 * time.Hour).Format(time.RFC3339)},
		"no host, dead pid":        {"", ""},
	} {
		// A pid far above pid_max: dead here, whatever it was where it was claimed.
		if _, err := s.db.Exec(`UPDATE file_claims SET pid = 99999999, host = ?, claimed_at = ? WHERE owner = ?`, set[0], set[1], owners[what]); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.ReleaseFiles(NewOwner()); err != nil || n != 2 {
		t.Fatalf("clean-up removed %d files (%v), want the expired claim's and the dead pid's", n, err)
	}
	var left string
	if err := s.db.QueryRow(`SELECT name FROM source_files`).Scan(&left); err != nil || left != "other host, now" {
		t.Errorf("file left: %q (%v), want the one another host claimed just now", left, err)
	}
}

// A library with damaged pages refuses writes (pointing to backup and recovery) instead of
// spreading the damage; reads that still work go on.
func TestDamagedLibraryRefusesWrites(t *testing.T) {
	s, path := openTemp(t)
	for i := range 40 {
		content := strings.Repeat(fmt.Sprintf("row %d ", i), 3000)
		if _, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: fmt.Sprint(i), Files: []Attached{resultFile(content)}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	pagedamage.BTreePages(t, path)
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	_, err = s2.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "new", Files: []Attached{resultFile("new")}})
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "backup") {
		t.Errorf("write to a damaged library: %v", err)
	}
	if _, err := s2.SaveComparison(Comparison{Settings: []byte("{}"), Record: []byte("{}")}); !errors.Is(err, ErrDamaged) {
		t.Errorf("comparison saved to a damaged library: %v", err)
	}
	// A backup that fails leaves nothing behind; one that works is whole and private.
	dest := path + ".bak"
	if _, err := s2.Backup(dest); err == nil {
		if fi, _ := os.Stat(dest); fi.Mode().Perm() != 0o600 {
			t.Errorf("backup mode %v", fi.Mode().Perm())
		}
	} else if _, serr := os.Stat(dest); serr == nil {
		t.Errorf("failed backup (%v) left %s", err, dest)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*part-*")); len(left) > 0 {
		t.Errorf("temporary backup files left: %v", left)
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
	engines(t, func(t *testing.T, s *Store) {
		big := make([]byte, 2*ChunkSize+12345)
		for i := range big {
			big[i] = byte(i*7 + i/1000)
		}
		for _, data := range [][]byte{big, {}, []byte("small")} {
			f := &model.SourceFile{Name: "f", Size: int64(len(data)), SHA256: fmt.Sprint(len(data)), Kind: model.KindOther, Data: data}
			owner := NewOwner()
			id, err := s.PutFile(f, owner, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.FileContent(id)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%d bytes came back as %d (%v)", len(data), len(got), err)
			}
			if _, err := s.ReleaseFiles(owner); err != nil {
				t.Fatal(err)
			}
			if _, err := s.FileContent(id); err == nil {
				t.Error("orphan not removed")
			}
		}
	})
}

func TestDeleteAndRelabel(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
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
	})
}

func TestAnnotationsKeepHistory(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		id, err := s.SaveComparison(Comparison{Baseline: "a", Candidate: "b", Settings: []byte("{}"), Record: []byte("{}"), Status: "zero"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Annotate(Annotation{ComparisonID: id, StatusOverride: "established"}); err != ErrOverrideNeedsReason {
			t.Errorf("override without reason: %v", err)
		}
		var last int64
		for _, note := range []string{"first", "=HYPERLINK(\"x\")"} {
			a, err := s.Annotate(Annotation{ComparisonID: id, Replaces: last, Author: "ana", Note: note, Tags: []string{"fa"}})
			if err != nil {
				t.Fatal(err)
			}
			last = a.ID
		}
		cur, _ := s.CurrentAnnotation(id)
		hist, _ := s.Annotations(id)
		if cur.Note != "=HYPERLINK(\"x\")" || len(hist) != 2 || hist[0].Note != "first" || cur.Tags[0] != "fa" {
			t.Errorf("current %+v history %d", cur, len(hist))
		}
	})
}

// reopenAs turns a library file into an older one by the statements given, closes it and
// opens it again (migrating it).
func reopenAs(t *testing.T, s *Store, path string, stmts ...string) *Store {
	t.Helper()
	for _, q := range stmts {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()
	s2, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s2.Close() })
	return s2
}

// openAtSchema opens (creating) the library at loc as a benchlens of schema v would, for
// writing an older library in its own words.
func openAtSchema(t *testing.T, loc string, v int) *Store {
	t.Helper()
	SchemaVersion = v
	s, err := Open(loc)
	SchemaVersion = len(migrations)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// An older library is backed up, then migrated; the backup opens as the old schema.
func TestOlderSchemaMigratedAfterBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lib.db")
	s := openAtSchema(t, path, 1)
	s2 := reopenAs(t, s, path, `INSERT INTO source_files VALUES (1, 'sha-a', 'r.json', 0, 'result', 'now')`,
		`INSERT INTO runs VALUES (1, 'a', 1, 0, 'b', 'l', 'baseline', 'vllm', 'm', '', '{}', '{}', '{}', '{}', '{"label":"l"}', 'now')`,
		`INSERT INTO run_files VALUES (1, 1, 'result')`)
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
	if _, err := s.Backup(dest); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Backup(dest); err == nil {
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
	owner := NewOwner()
	if _, err := s.PutFile(&model.SourceFile{Name: "lost", Size: 4, SHA256: "lost", Kind: model.KindOther, Data: []byte("lost")}, owner, nil); err != nil {
		t.Fatal(err)
	}
	if rep, _ := s.Check(); !rep.OK() {
		t.Errorf("a file claimed by a running import counted as an orphan: %v", rep)
	}
	if _, err := s.db.Exec(`DELETE FROM file_claims WHERE owner = ?`, owner); err != nil {
		t.Fatal(err)
	}
	if rep, _ := s.Check(); len(rep.OrphanFiles) != 1 || rep.OK() {
		t.Errorf("orphan not found: %v", rep)
	}
}

// Two analysts edit the same version of an annotation: the second edit is refused, naming
// the first analyst, instead of overwriting it; made again from the newer version, it is
// saved. Many writers racing from one version leave exactly one edit.
func TestAnnotationEditConflict(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		other, err := Open(s.Path()) // another analyst's app
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		id, err := s.SaveComparison(Comparison{Settings: []byte("{}"), Record: []byte("{}"), Status: "zero"})
		if err != nil {
			t.Fatal(err)
		}
		base, err := s.Annotate(Annotation{ComparisonID: id, Author: "ana", Note: "seen"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Annotate(Annotation{ComparisonID: id, Replaces: base.ID, Author: "ana", Note: "regression in TTFT"}); err != nil {
			t.Fatal(err)
		}
		_, err = other.Annotate(Annotation{ComparisonID: id, Replaces: base.ID, Author: "bo", Note: "noise"})
		if !errors.Is(err, ErrEditConflict) || !strings.Contains(err.Error(), "ana") {
			t.Fatalf("stale edit: %v, want a conflict naming ana", err)
		}
		cur, _ := other.CurrentAnnotation(id)
		if cur.Note != "regression in TTFT" {
			t.Fatalf("current note %q: the stale edit overwrote the newer one", cur.Note)
		}
		if _, err := other.Annotate(Annotation{ComparisonID: id, Replaces: cur.ID, Author: "bo", Note: "agreed"}); err != nil {
			t.Fatalf("edit from the current version: %v", err)
		}
		if _, err := s.Annotate(Annotation{ComparisonID: id, Replaces: 999, Author: "ana"}); err == nil {
			t.Error("an edit replacing an unknown edit was saved")
		}

		// A sitting's revisions in place: an edit made from an older revision is refused, and
		// a revision of an edit someone replaced meanwhile too.
		cur, _ = s.CurrentAnnotation(id)
		seen := cur
		cur.Note, cur.Author = "agreed, with a caveat", "bo"
		if cur, err = other.ReviseAnnotation(cur); err != nil {
			t.Fatalf("revising the current edit: %v", err)
		}
		if _, err := s.Annotate(Annotation{ComparisonID: id, Replaces: seen.ID, ReplacesRevision: seen.Revision, Author: "ana", Note: "from before the revision"}); !errors.Is(err, ErrEditConflict) {
			t.Errorf("edit made from an older revision: %v", err)
		}
		if _, err := s.Annotate(Annotation{ComparisonID: id, Replaces: cur.ID, ReplacesRevision: cur.Revision, Author: "ana", Note: "after"}); err != nil {
			t.Fatal(err)
		}
		cur.Note = "bo types on"
		if _, err := other.ReviseAnnotation(cur); !errors.Is(err, ErrEditConflict) || !strings.Contains(err.Error(), "ana") {
			t.Errorf("revising a replaced edit: %v", err)
		}
		if now, _ := s.CurrentAnnotation(id); now.Note != "after" {
			t.Errorf("current note %q", now.Note)
		}

		id2, _ := s.SaveComparison(Comparison{Settings: []byte("{}"), Record: []byte("{}"), Status: "zero"})
		results := make(chan error, 8)
		for i := range cap(results) {
			st := []*Store{s, other}[i%2]
			go func() {
				_, err := st.Annotate(Annotation{ComparisonID: id2, Author: fmt.Sprint("analyst", i), Note: "first look"})
				results <- err
			}()
		}
		saved := 0
		for range cap(results) {
			err := <-results
			switch {
			case err == nil:
				saved++
			case !errors.Is(err, ErrEditConflict):
				t.Error(err)
			}
		}
		if hist, _ := s.Annotations(id2); saved != 1 || len(hist) != 1 {
			t.Errorf("%d edits saved, %d in the history; want exactly 1", saved, len(hist))
		}
	})
}

// Writers importing at once (CI nodes) store each run and each file once: the fingerprint
// and the file hash are unique constraints, so the losers of a race get the winner's run.
func TestConcurrentImportsDeduplicate(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		const writers = 6
		stores := []*Store{s}
		for range writers - 1 {
			w, err := Open(s.Path())
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			stores = append(stores, w)
		}
		type result struct {
			id  int64
			err error
		}
		results := make(chan result, 2*writers)
		for i, w := range stores {
			for _, fp := range []string{"same-run", fmt.Sprint("run", i)} {
				go func() {
					log := &model.SourceFile{Name: "server.log", Size: 6, SHA256: "shared-log", Kind: model.KindLog, Data: []byte("shared")}
					id, err := w.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: fp,
						Files: []Attached{resultFile(fp), {File: log, Role: "attachment", Evidence: &model.Evidence{Kind: model.KindLog, Format: "vllm"}}}})
					if errors.Is(err, ErrExists) {
						err = nil
					}
					results <- result{id, err}
				}()
			}
		}
		for range 2 * writers {
			if r := <-results; r.err != nil || r.id == 0 {
				t.Errorf("import: id %d, %v", r.id, r.err)
			}
		}
		if n := count(t, s, "runs"); n != writers+1 {
			t.Errorf("%d runs, want %d", n, writers+1)
		}
		if n := count(t, s, "source_files"); n != writers+2 {
			t.Errorf("%d files, want %d (one result each and one shared log)", n, writers+2)
		}
		if n := count(t, s, "requests"); n != 2*(writers+1) {
			t.Errorf("%d requests, want %d", n, 2*(writers+1))
		}
		if rep, err := s.Check(); err != nil || !rep.OK() {
			t.Errorf("check: %v %v", rep, err)
		}
	})
}

// A team library refuses a database holding another program's tables, and one written by a
// newer benchlens, changing nothing; its password never shows in messages.
func TestPostgresRefusesForeignAndNewer(t *testing.T) {
	foreign := pgtest.NewDatabase(t)
	db, err := sql.Open("pgx", foreign)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE notes (x int)`); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(foreign); err == nil || !strings.Contains(err.Error(), "another program") {
		t.Errorf("foreign database: %v", err)
	}
	var tables int
	db.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&tables)
	if tables != 1 {
		t.Errorf("the foreign database now has %d tables", tables)
	}

	// A version table of our name is not enough: the tables of its schema must be there.
	named := pgtest.NewDatabase(t)
	ndb, err := sql.Open("pgx", named)
	if err != nil {
		t.Fatal(err)
	}
	defer ndb.Close()
	for _, q := range []string{`CREATE TABLE benchlens_schema (version INTEGER NOT NULL)`, `INSERT INTO benchlens_schema VALUES (3)`, `CREATE TABLE notes (x int)`} {
		if _, err := ndb.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(named); err == nil || !strings.Contains(err.Error(), "another program") {
		t.Errorf("a database with our version table only: %v", err)
	}
	var version int
	ndb.QueryRow(`SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'`).Scan(&tables)
	ndb.QueryRow(`SELECT version FROM benchlens_schema`).Scan(&version)
	if tables != 2 || version != 3 {
		t.Errorf("the foreign database now has %d tables, version %d", tables, version)
	}

	newer := pgtest.NewDatabase(t)
	s, err := Open(newer)
	if err != nil {
		t.Fatal(err)
	}
	s.db.Exec(`UPDATE benchlens_schema SET version = 999`)
	s.Close()
	if _, err := Open(newer); err == nil || !strings.Contains(err.Error(), "newer benchlens") {
		t.Errorf("newer library: %v", err)
	}

	for _, loc := range []string{"postgres://ana:secret@db.lab:5432/bench", "postgresql:///bench?host=/run&password=secret"} {
		if got := Redacted(loc); strings.Contains(got, "secret") || !strings.Contains(got, "bench") {
			t.Errorf("Redacted(%s) = %s", loc, got)
		}
	}
	for loc, want := range map[string]string{
		"postgres://ana:secret@db.lab:5432/bench":       "postgres://ana@db.lab:5432/bench",
		"postgresql:///bench?host=/run&password=secret": "postgresql:///bench?host=%2Frun",
		"postgres://ana@db.lab/bench?sslmode=require":   "postgres://ana@db.lab/bench?sslmode=require",
		"/home/ana/.local/share/benchlens/library.db":   "/home/ana/.local/share/benchlens/library.db",
	} {
		if got := WithoutPassword(loc); got != want {
			t.Errorf("WithoutPassword(%s) = %s, want %s", loc, got, want)
		}
	}
}

// dump prints every copied table, row by row, for comparing two libraries.
func dump(t *testing.T, s *Store) string {
	t.Helper()
	var b strings.Builder
	for _, c := range copied {
		rows, err := s.db.Query(`SELECT * FROM ` + c + ` ORDER BY 1, 2`)
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		fmt.Fprintln(&b, c, cols)
		for rows.Next() {
			vals, err := scanAny(rows, len(cols))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%q\n", vals)
		}
		rows.Close()
	}
	return b.String()
}

// A library file copied into a team library and back to a file loses nothing: runs, files,
// requests, evidence, comparisons, annotation history and settings; both pass check, and
// the team library goes on numbering after the copied ids.
func TestCopyBetweenEngines(t *testing.T) {
	file, _ := openTemp(t)
	run := sampleRun("vllm")
	log := &model.SourceFile{Name: "server.log", Size: 5, SHA256: "sha-log", Kind: model.KindLog, Data: []byte("hello")}
	if _, err := file.AddRun(NewRun{Run: run, Fingerprint: "a", Files: []Attached{resultFile("a"), {File: log, Role: "attachment"}}}); err != nil {
		t.Fatal(err)
	}
	if err := file.PutEvidence(2, &model.Evidence{Kind: model.KindLog, Format: "vllm"}); err != nil {
		t.Fatal(err)
	}
	cmp, _ := file.SaveComparison(Comparison{Baseline: "a", Candidate: "b", BaselineRuns: []int64{1}, Settings: []byte("{}"), Record: []byte(`{"x":1}`), Status: "zero"})
	first, _ := file.Annotate(Annotation{ComparisonID: cmp, Author: "ana", Note: "first", Tags: []string{"t"}})
	if _, err := file.Annotate(Annotation{ComparisonID: cmp, Replaces: first.ID, Author: "bo", Note: "second", StatusOverride: "offset", OverrideReason: "known"}); err != nil {
		t.Fatal(err)
	}
	if err := file.SetSettings(map[string]string{"alpha": "0.01"}, nil); err != nil {
		t.Fatal(err)
	}
	want := dump(t, file)
	// Every table is copied but the claims of running imports: a table a later migration
	// adds must join the list.
	rows, _ := file.db.Query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)
	for rows.Next() {
		var name string
		rows.Scan(&name)
		if name != "file_claims" && name != "sqlite_sequence" && !slices.Contains(copied, name) {
			t.Errorf("table %s is not copied", name)
		}
	}
	rows.Close()

	team, err := Open(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer team.Close()
	if err := file.CopyTo(team); err != nil {
		t.Fatal(err)
	}
	if got := dump(t, team); got != want {
		t.Errorf("team library differs:\n%s\nwant\n%s", got, want)
	}
	if rep, err := team.Check(); err != nil || !rep.OK() {
		t.Errorf("check of the team library: %v %v", rep, err)
	}
	if err := file.CopyTo(team); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("copy into a library with content: %v", err)
	}

	back := filepath.Join(t.TempDir(), "back.db")
	if _, err := team.Backup(back); err != nil {
		t.Fatal(err)
	}
	again, err := Open(back)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := dump(t, again); got != want {
		t.Errorf("file copied back differs:\n%s\nwant\n%s", got, want)
	}
	if rep, err := again.Check(); err != nil || !rep.OK() {
		t.Errorf("check of the copy: %v %v", rep, err)
	}

	id, err := team.AddRun(NewRun{Run: sampleRun("sglang"), Fingerprint: "b", Files: []Attached{resultFile("b")}})
	if err != nil || id != 2 {
		t.Errorf("next run in the team library: id %d, %v", id, err)
	}
	if c, err := team.SaveComparison(Comparison{Settings: []byte("{}"), Record: []byte("{}")}); err != nil || c != 2 {
		t.Errorf("next comparison: id %d, %v", c, err)
	}
}

// A library of schema 6 keeps its annotation history when migrated: each edit then names
// the one before it, and the next edit is made from the newest.
func TestAnnotationHistoryMigrated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lib.db")
	s := openAtSchema(t, path, 6)
	id, other := int64(1), int64(2)
	stmts := []string{`INSERT INTO comparisons VALUES (1, '', '', '', '[]', '[]', '{}', '', '{}')`, `INSERT INTO comparisons VALUES (2, '', '', '', '[]', '[]', '{}', '', '{}')`}
	for i, c := range []int64{id, other, id, id} {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO annotations (comparison_id, at, author, note, tags, status_override, override_reason) VALUES (%d, '', 'ana', '%d', '[]', '', '')`, c, i))
	}
	s2 := reopenAs(t, s, path, stmts...)
	hist, _ := s2.Annotations(id)
	if len(hist) != 3 || hist[0].Replaces != 0 || hist[1].Replaces != hist[0].ID || hist[2].Replaces != hist[1].ID {
		t.Errorf("history after migration: %+v", hist)
	}
	if _, err := s2.Annotate(Annotation{ComparisonID: id, Replaces: hist[1].ID}); !errors.Is(err, ErrEditConflict) {
		t.Errorf("edit from an old version after migration: %v", err)
	}
	if _, err := s2.Annotate(Annotation{ComparisonID: id, Replaces: hist[2].ID}); err != nil {
		t.Error(err)
	}
}

// Four writers opening a new team library at once (CI nodes) all get it: one creates the
// schema, the others wait and find it. A cached catalog lookup once made the waiters call the
// new library another program's database. (Processes opening a library file at once are
// library's TestOldLibraryOpenedByFourProcesses.)
func TestNewTeamLibraryOpenedByFourAtOnce(t *testing.T) {
	for range 3 {
		location := pgtest.NewDatabase(t)
		errs := make(chan error, 4)
		for range cap(errs) {
			go func() {
				st, err := Open(location)
				if err == nil {
					st.Close()
				}
				errs <- err
			}()
		}
		for range cap(errs) {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	}
}

// A new team library stands at the newest schema, and its stored chunks are not compressed
// again by PostgreSQL (they are compressed already).
func TestNewTeamLibrary(t *testing.T) {
	s, err := Open(pgtest.NewDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := s.schemaVersion(s.db); err != nil || v != SchemaVersion {
		t.Errorf("schema %d (%v), want %d", v, err, SchemaVersion)
	}
	var storage string
	if err := s.db.QueryRow(`SELECT attstorage FROM pg_attribute WHERE attrelid = 'file_chunks'::regclass AND attname = 'content'`).Scan(&storage); err != nil || storage != "e" {
		t.Errorf("file_chunks.content storage %q (%v), want e (external, uncompressed)", storage, err)
	}
}
