package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
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
