package library

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// deflatedZeros returns n zero bytes deflated, and their CRC.
func deflatedZeros(t *testing.T, n int) ([]byte, uint32) {
	t.Helper()
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestSpeed)
	zeros := make([]byte, n)
	w.Write(zeros)
	w.Close()
	return b.Bytes(), crc32.ChecksumIEEE(zeros)
}

// gzipMembers concatenates gzip members: head's, then count members of size zero bytes each,
// an honest multi-gigabyte stream made in milliseconds.
func gzipMembers(t *testing.T, head []byte, size, count int) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(head)
	w.Close()
	one := gz(t, make([]byte, size))
	for range count {
		b.Write(one)
	}
	return b.Bytes()
}

// A decompression bomb is refused by the bytes it actually yields, after a few megabytes,
// whatever its entries declare; a result beside it still imports.
func TestDecompressionBombs(t *testing.T) {
	d63, crc := deflatedZeros(t, 63<<20)
	bombZip := func(lie bool) []byte {
		var b bytes.Buffer
		zw := zip.NewWriter(&b)
		for i := range 140 {
			h := &zip.FileHeader{Name: fmt.Sprintf("r%03d.json", i), Method: zip.Deflate, CRC32: crc,
				CompressedSize64: uint64(len(d63)), UncompressedSize64: 63 << 20}
			if lie && i < 10 { // claims a compressed size that puts it in ratio
				h.CompressedSize64 = 4 << 20
			}
			w, _ := zw.CreateRaw(h)
			w.Write(d63)
		}
		zw.Close()
		return b.Bytes()
	}
	trace := []byte(`{"schemaVersion": 1, "deviceProperties": [], "traceEvents": [{"ph": "X", "name": "`)
	var nested bytes.Buffer
	zw := zip.NewWriter(&nested)
	w, _ := zw.Create("inner.zip")
	w.Write(bombZip(false))
	zw.Close()
	for name, data := range map[string][]byte{
		"zeros140.zip":   bombZip(false),
		"lying.zip":      bombZip(true),
		"trace.json.gz":  gzipMembers(t, trace, 64<<20, 256), // 16 GiB that starts like a trace
		"honest.json.gz": gzipMembers(t, nil, 64<<20, 144),   // 9 GiB
		"nested.zip":     nested.Bytes(),
	} {
		t.Run(name, func(t *testing.T) {
			dir := writeTree(t, map[string]string{"result.json": vllmResult(t, "20250101-000000")})
			os.WriteFile(filepath.Join(dir, name), data, 0o644)
			rep := Import(openStore(t), []string{dir}, Options{})
			if len(rep.Added) != 1 {
				t.Errorf("added %d runs, want the result beside the bomb", len(rep.Added))
			}
			if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), strings.TrimSuffix(name, ".zip")) ||
				!strings.Contains(rep.Errors[0].Error(), "decompression bomb") {
				t.Fatalf("errors %v", rep.Errors)
			}
			m := regexp.MustCompile(`\((\d+) bytes from`).FindStringSubmatch(rep.Errors[0].Error())
			if n, _ := strconv.Atoi(m[1]); n > 16<<20 {
				t.Errorf("refused only after %d bytes", n)
			}
		})
	}
}
