package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The expansion ratio holds over the whole bundle, not per gzip: a folder of many small gzips,
// each under the size from which one archive's ratio is checked, is refused once together
// they expand past it, with one line. Before, 300 of them (1.2 MB) took 1.6 GB.
func TestManySmallGzipsAreOneBomb(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gzips")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	zw.Write(make([]byte, 3<<20)) // 3 MiB of zeros: about 3 KB, each under the 4 MiB floor
	zw.Close()
	for i := range 60 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("trace-%02d.json.gz", i)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	out, stderr, code := bl(t, "--db", db, "import", dir)
	all := out + stderr
	if code != exitRejected || strings.Count(all, "together expand more than the allowed ratio") != 1 {
		t.Errorf("import: exit %d\n%.3000s", code, all)
	}
	if n := strings.Count(all, "\n"); n > 12 {
		t.Errorf("%d lines for one bomb:\n%.3000s", n, all)
	}
}

// junkFolder writes a folder of files no format knows (random bytes) and a server log with
// no result beside it: nothing for a run.
func junkFolder(t *testing.T, junk int) string {
	dir := filepath.Join(t.TempDir(), "junk")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, junk)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for i := range 5 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("blob-%d.bin", i)), data[i*junk/5:(i+1)*junk/5], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	log, err := os.ReadFile("../../demo/samples/baseline/run-1/server.log")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "server.log"), bytes.Repeat(log, 8<<20/len(log)), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Junk bytes are not kept for good: importing a folder of 40 MB of unknown files and a log
// with no run beside it leaves the library its size. Before, the bytes were stored ahead,
// deleted once no run took them, and their pages never given back (50 MB of junk grew a
// library by 50 MB for good).
func TestJunkDoesNotGrowTheLibrary(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", "../../demo/samples/baseline"); code != 0 {
		t.Fatalf("import: exit %d %s %s", code, out, stderr)
	}
	size := func() int64 {
		fi, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	before := size()
	out, stderr, _ := bl(t, "--db", db, "import", junkFolder(t, 40<<20))
	if !strings.Contains(out+stderr, "no benchmark result found") {
		t.Errorf("import of the junk:\n%s%s", out, stderr)
	}
	if after := size(); after > before+1<<20 {
		t.Errorf("the library grew from %d to %d bytes with a folder of junk", before, after)
	}
}

// A 1 MB manifest over 20 runs is stored once: the library grows by about one copy, not 20
// (before, each run row held its own and 20 runs took 25 MB).
func TestBigManifestStoredOnce(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	results, _ := filepath.Glob("../../demo/samples/baseline/run-1/vllm-*.json")
	if len(results) != 1 {
		t.Fatal("no sample result")
	}
	sample, err := os.ReadFile(results[0])
	if err != nil {
		t.Fatal(err)
	}
	manifest, err := os.ReadFile("../../demo/samples/baseline/bundle.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	notes := make([]byte, 1<<20) // random letters: they do not compress away
	for i := range notes {
		notes[i] = 'a' + byte(rng.IntN(26))
	}
	manifest = append(manifest, fmt.Sprintf("lab_notes: %q\n", notes)...)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bundle.yaml"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		run := filepath.Join(dir, fmt.Sprintf("run-%02d", i))
		// Another date makes each run its own.
		data := bytes.Replace(sample, []byte(`"date": "20260112-094148"`), fmt.Appendf(nil, `"date": "20260112-0941%02d"`, i), 1)
		if err := os.MkdirAll(run, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(run, filepath.Base(results[0])), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(t.TempDir(), "lib.db")
	out, stderr, code := bl(t, "--db", db, "import", dir)
	if code != 0 || !strings.Contains(out, "imported 20 runs") {
		t.Fatalf("import: exit %d\n%s%s", code, out, stderr)
	}
	fi, err := os.Stat(db)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > 6<<20 {
		t.Errorf("20 runs sharing a 1 MB manifest take %d bytes", fi.Size())
	}
	if out, stderr, code := bl(t, "--db", db, "check"); code != 0 {
		t.Errorf("check: exit %d\n%s%s", code, out, stderr)
	}
	backup := filepath.Join(t.TempDir(), "copy.db")
	if out, stderr, code := bl(t, "--db", db, "backup", backup); code != 0 {
		t.Fatalf("backup: exit %d\n%s%s", code, out, stderr)
	}
	if out, _, code := bl(t, "--db", backup, "runs"); code != 0 || strings.Count(out, "baseline") < 20 {
		t.Errorf("runs of the backup: exit %d\n%s", code, out)
	}
}
