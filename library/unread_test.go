//go:build unix

package library

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"benchlens/importers"
	"benchlens/model"
)

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// lineFor returns the one report line (refusal or note) that names file, failing unless there
// is exactly one.
func lineFor(t *testing.T, rep Report, file string) string {
	t.Helper()
	var lines []string
	for _, err := range append(append([]error{}, rep.Errors...), rep.Skipped...) {
		if strings.Contains(err.Error(), file) {
			lines = append(lines, err.Error())
		}
	}
	if len(lines) != 1 {
		t.Errorf("%s: want one line, got %q", file, lines)
		return ""
	}
	return lines[0]
}

// Every input of a folder that is not imported as evidence gets one line saying what was done
// with it and why; an SGLang log that starts with '[' is read as a log, not filed away.
func TestNothingUnreadGoesUnnamed(t *testing.T) {
	sglang, err := os.ReadFile("../importers/serverlog/testdata/sglang-0.4.9-default-fa3.log")
	if err != nil || sglang[0] != '[' {
		t.Fatalf("fixture: %v", err)
	}
	outside := filepath.Join(t.TempDir(), "outside.json")
	os.WriteFile(outside, []byte(vllmResult(t, "20250101-000009")), 0o644)
	var emptyZip bytes.Buffer
	zip.NewWriter(&emptyZip).Close()
	var linkZip bytes.Buffer
	zw := zip.NewWriter(&linkZip)
	h := &zip.FileHeader{Name: "link.json"}
	h.SetMode(os.ModeSymlink | 0o777)
	w, _ := zw.CreateHeader(h)
	w.Write([]byte("/etc/passwd"))
	zw.Close()
	dir := writeTree(t, map[string]string{
		"result.json":        vllmResult(t, "20250101-000000"),
		"server.log":         string(sglang),
		"empty.json.gz":      "",
		"blank.json.gz":      string(gz(t, []byte(" \n\t\n"))),
		"zipped.json.gz":     string(gz(t, []byte(vllmResult(t, "20250101-000001")))),
		"wrong-shape.json":   `{"date": "20250101-000002", "backend": "vllm", "model_id": "m", "completed": "two", "mean_ttft_ms": "fast"}`,
		"notes.txt":          "we ran this on a Tuesday\n",
		"empty.zip":          emptyZip.String(),
		"links.zip":          linkZip.String(),
		"sub/placeholder.md": "x",
	})
	os.Symlink("loop-b", filepath.Join(dir, "loop-a"))
	os.Symlink("loop-a", filepath.Join(dir, "loop-b"))
	os.Symlink(outside, filepath.Join(dir, "outside.json"))
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.json"), 0o644); err != nil {
		t.Fatal(err)
	}

	st := openStore(t)
	rep := Import(st, []string{dir}, Options{})
	if len(rep.Added) != 2 {
		t.Errorf("added %d runs, want result.json and the gzipped one", len(rep.Added))
	}
	for file, frag := range map[string]string{
		"loop-a":           "does not resolve",
		"loop-b":           "does not resolve",
		"outside.json":     "outside the folder",
		"pipe.json":        "named pipe",
		"empty.json.gz":    "empty file",
		"blank.json.gz":    "empty file",
		"wrong-shape.json": "expected a number, found a string",
		"notes.txt":        "unread",
		"sub/placeholder":  "unread",
		"empty.zip":        "no files",
		"links.zip!link":   "symbolic link in the archive; not followed",
	} {
		if line := lineFor(t, rep, file); !strings.Contains(line, frag) {
			t.Errorf("%s: %q lacks %q", file, line, frag)
		}
	}
	for _, err := range append(rep.Errors, rep.Skipped...) {
		if strings.Contains(err.Error(), "server.log") || strings.Contains(err.Error(), "result.json") {
			t.Errorf("a good file named: %v", err)
		}
	}
	// The SGLang log is read as evidence of the runs beside it.
	files, err := st.RunFiles(rep.Added[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f.Name, "server.log") && f.Kind != model.KindLog {
			t.Errorf("server.log stored as %q", f.Kind)
		}
	}
}

// Special files given on the command line are refused at once: a FIFO must not hang the
// import, /dev/zero must not fill memory; the other inputs go on.
func TestSpecialFilesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.json")
	os.WriteFile(good, []byte(vllmResult(t, "20250101-000000")), 0o644)
	st := openStore(t)
	rep := Import(st, []string{fifo, "/dev/zero", good}, Options{})
	if len(rep.Added) != 1 {
		t.Errorf("added %d", len(rep.Added))
	}
	if len(rep.Errors) != 2 || !strings.Contains(rep.Errors[0].Error(), "named pipe") ||
		!strings.Contains(rep.Errors[1].Error(), "/dev/zero: device") {
		t.Errorf("errors %v", rep.Errors)
	}
}

// A mapped file truncated while it is imported is refused with its name instead of killing
// the process with SIGBUS; the rest of the batch is stored.
func TestFileShrinkingUnderImport(t *testing.T) {
	dir := writeTree(t, map[string]string{"small.json": vllmResult(t, "20250101-000000")})
	big := filepath.Join(dir, "big.json")
	pad := bytes.Repeat([]byte("x"), 40<<20)
	os.WriteFile(big, append(append([]byte(`{"date": "20250101-000001", "backend": "vllm", "model_id": "m", "pad": "`), pad...), `"}`...), 0o644)
	entries, errs := importers.ReadBundle(dir, importers.DefaultLimits)
	if len(errs) > 0 || len(entries) != 2 {
		t.Fatalf("read: %d entries, %v", len(entries), errs)
	}
	if err := os.Truncate(big, 0); err != nil { // the mapping now reaches past the file's end
		t.Fatal(err)
	}
	st := openStore(t)
	rep := ImportEntries(st, dir, entries, Options{})
	if len(rep.Added) != 1 {
		t.Errorf("added %d, want small.json", len(rep.Added))
	}
	if len(rep.Errors) != 1 {
		t.Errorf("want one line for the truncated file: %v", rep.Errors)
	}
	for _, err := range rep.Errors {
		if !strings.Contains(err.Error(), "big.json") || !strings.Contains(err.Error(), "shrank") {
			t.Errorf("error %v", err)
		}
	}
}
