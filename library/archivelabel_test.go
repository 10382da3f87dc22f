package library

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"testing"
)

// TestLabelsKeepTheArchiveExtension: fixtures.zip and fixtures.tar.gz labelled their runs with
// the extension while the same folder gave "fixtures"; a lone result file is named without its
// .json too.
func TestLabelsKeepTheArchiveExtension(t *testing.T) {
	result := []byte(vllmResult(t, "20250101-000001"))
	dir := t.TempDir()
	folder := filepath.Join(dir, "fixtures")
	os.Mkdir(folder, 0o755)
	os.WriteFile(filepath.Join(folder, "r.json"), result, 0o644)

	var zbuf, tbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	w, _ := zw.Create("r.json")
	w.Write(result)
	zw.Close()
	gz := gzip.NewWriter(&tbuf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Name: "r.json", Mode: 0o644, Size: int64(len(result))})
	tw.Write(result)
	tw.Close()
	gz.Close()
	inputs := map[string][]byte{"fixtures.zip": zbuf.Bytes(), "fixtures.tar.gz": tbuf.Bytes(), "fixtures.tgz": tbuf.Bytes(), "fixtures.json": result}
	paths := []string{folder}
	for name, data := range inputs {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		paths = append(paths, p)
	}
	for _, p := range paths {
		st := openStore(t)
		if rep := Import(st, []string{p}, Options{}); len(rep.Errors) > 0 || len(rep.Added) != 1 {
			t.Fatalf("%s: added %d, errors %v", p, len(rep.Added), rep.Errors)
		}
		runs, _ := st.Runs()
		if runs[0].Label != "fixtures" {
			t.Errorf("%s: label %q, want fixtures", filepath.Base(p), runs[0].Label)
		}
	}
}
