package importers

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"benchlens/importers/position"
)

// A gzip of gigabytes of whitespace is refused after little work, with a message.
func TestDecompressionBombRefused(t *testing.T) {
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	const size = 1 << 30 // stands for any size: reading stops long before the end
	tw.WriteHeader(&tar.Header{Name: "big.json", Mode: 0o644, Size: size, Typeflag: tar.TypeReg})
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	for range size >> 20 {
		tw.Write(chunk)
	}
	tw.Close()
	gz.Close()
	path := filepath.Join(t.TempDir(), "bomb.tar.gz")
	os.WriteFile(path, buf.Bytes(), 0o644)

	start := time.Now()
	entries, errs := ReadBundle(path, DefaultLimits)
	if len(entries) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "decompression bomb") {
		t.Fatalf("entries %d, errors %v", len(entries), errs)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to refuse", d)
	}

	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("big.json")
	for range 200 {
		w.Write(chunk)
	}
	zw.Close()
	zpath := filepath.Join(t.TempDir(), "bomb.zip")
	os.WriteFile(zpath, zbuf.Bytes(), 0o644)
	if _, errs := ReadBundle(zpath, DefaultLimits); len(errs) != 1 || !strings.Contains(errs[0].Error(), "decompression bomb") {
		t.Errorf("zip bomb: %v", errs)
	}
}

func TestLimits(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".log"), []byte("INFO x"), 0o644)
	}
	entries, errs := ReadBundle(dir, Limits{MaxBytes: 1 << 20, MaxEntries: 3, MaxDepth: 1})
	if len(entries) != 3 || len(errs) != 2 {
		t.Errorf("entries %d errors %v", len(entries), errs)
	}
	_, errs = ReadBundle(dir, Limits{MaxBytes: 10, MaxEntries: 10, MaxDepth: 1})
	if len(errs) == 0 || !strings.Contains(errs[0].Error(), "bundle too large") {
		t.Errorf("size limit: %v", errs)
	}
}

// FuzzReadArchive: whatever bytes arrive as a .zip or .tar.gz, reading returns errors, never
// panics, never writes outside memory.
func FuzzReadArchive(f *testing.F) {
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, _ := zw.Create("a/r.json")
	w.Write([]byte(`{"date": "20250101-000000", "backend": "vllm", "model_id": "m"}`))
	zw.Close()
	f.Add(z.Bytes(), true)
	var tb bytes.Buffer
	gz := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "../x", Size: 1, Mode: 0o644, Typeflag: tar.TypeReg})
	tw.Write([]byte("x"))
	tw.Close()
	gz.Close()
	f.Add(tb.Bytes(), false)
	f.Fuzz(func(t *testing.T, data []byte, isZip bool) {
		r := newReader(Limits{MaxBytes: 1 << 24, MaxEntries: 100, MaxDepth: 2, MaxRatio: 200}, nil)
		name := "f.tar.gz"
		if isZip {
			name = "f.zip"
		}
		r.add(name, data, 0)
		for _, e := range r.entries {
			if escapes(e.Path) {
				t.Fatalf("entry escapes: %q", e.Path)
			}
		}
	})
}

// FuzzParseManifest: bundle.yaml of any shape gives a manifest or an error naming the file.
func FuzzParseManifest(f *testing.F) {
	f.Add([]byte("label: a\nrole: baseline\nworkload: {seed: 1}\n"))
	f.Add([]byte("role: [x]\n"))
	f.Add([]byte("{{{"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest("bundle.yaml", data)
		if err != nil && !strings.HasPrefix(err.Error(), "bundle.yaml") {
			t.Fatalf("error does not name the file: %v", err)
		}
		if err == nil {
			_ = m.String("workload", "seed")
		}
	})
}

// Bug: an archive of many empty members (or links), past the bundle's file limit, gave one
// error per further member: a 2 MB .tar.gz of 400,000 empty files printed 300,000 "refused"
// lines. The rest of the archive is now refused once.
func TestArchiveOverFileLimitRefusedOnce(t *testing.T) {
	lim := Limits{MaxBytes: 1 << 20, MaxEntries: 3, MaxDepth: 2, MaxRatio: 200}
	archives := map[string][]byte{}
	for _, kind := range []string{"files.tar.gz", "links.tar.gz", "files.zip"} {
		var b bytes.Buffer
		gz := gzip.NewWriter(&b)
		tw := tar.NewWriter(gz)
		zw := zip.NewWriter(&b)
		for i := range 1000 {
			name := fmt.Sprintf("d/%04d.log", i)
			switch kind {
			case "files.tar.gz":
				tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Typeflag: tar.TypeReg})
			case "links.tar.gz":
				tw.WriteHeader(&tar.Header{Name: name, Linkname: "x", Typeflag: tar.TypeSymlink})
			case "files.zip":
				zw.Create(name)
			}
		}
		if kind == "files.zip" {
			zw.Close()
		} else {
			tw.Close()
			gz.Close()
		}
		archives[kind] = b.Bytes()
	}
	for name, data := range archives {
		path := filepath.Join(t.TempDir(), name)
		os.WriteFile(path, data, 0o644)
		entries, errs := ReadBundle(path, lim)
		if len(entries) > 3 || len(errs) == 0 || len(errs) > 4 || !strings.Contains(errs[len(errs)-1].Error(), name+": more than 3 files") {
			t.Errorf("%s: %d entries, %d errors, last %v", name, len(entries), len(errs), errs[len(errs)-1])
		}
	}
}

// FuzzReadFSArchive: bytes of any shape named as a .zip, .tar.gz, .tar or .gz, read through
// ReadFS, give entries or errors that name a file; never a panic, an entry outside the bundle,
// more bytes than the budget or an error per byte of a small archive.
func FuzzReadFSArchive(f *testing.F) {
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, _ := zw.Create("a/r.json")
	w.Write([]byte(`{"date": "20250101-000000", "backend": "vllm", "model_id": "m"}`))
	inner, _ := zw.Create("a/inner.tar.gz")
	var tb bytes.Buffer
	gz := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "x.log", Size: 1, Mode: 0o644, Typeflag: tar.TypeReg})
	tw.Write([]byte("x"))
	tw.WriteHeader(&tar.Header{Name: "l", Linkname: "x.log", Typeflag: tar.TypeSymlink})
	tw.Close()
	gz.Close()
	inner.Write(tb.Bytes())
	zw.Close()
	f.Add(z.Bytes(), uint8(0))
	f.Add(tb.Bytes(), uint8(1))
	f.Add(tb.Bytes()[:len(tb.Bytes())/2], uint8(1))
	f.Add([]byte("PK\x03\x04"), uint8(2))
	f.Add([]byte{0x1f, 0x8b, 8, 0}, uint8(3))
	lim := Limits{MaxBytes: 1 << 22, MaxEntries: 50, MaxDepth: 3, MaxRatio: 200}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		name := "f" + []string{".zip", ".tar.gz", ".tar", ".gz"}[kind%4]
		entries, errs := ReadFS(fstest.MapFS{"b/" + name: {Data: data}}, "b", "bundle", lim)
		if len(entries)+len(errs) == 0 {
			t.Fatal("neither an entry nor an error")
		}
		var total int64
		for _, e := range entries {
			total += int64(len(e.Data))
			if !strings.HasPrefix(e.Path, "bundle/") || escapes(e.Path) {
				t.Errorf("entry escapes: %q", e.Path)
			}
			e.Close()
		}
		if total > lim.MaxBytes {
			t.Errorf("%d bytes kept, budget %d", total, lim.MaxBytes)
		}
		if len(errs) > 2*lim.MaxEntries+2*lim.MaxDepth {
			t.Errorf("%d errors", len(errs))
		}
		for _, err := range errs {
			var pe *position.Error
			if !errors.As(err, &pe) || pe.File == "" {
				t.Errorf("error names no file: %v", err)
			}
		}
	})
}

// escapes reports whether an entry's path leaves its bundle: absolute or with a ".." part (a
// name such as "0..0" stays inside).
func escapes(p string) bool {
	return strings.HasPrefix(p, "/") || slices.Contains(strings.Split(p, "/"), "..")
}
