package library

import (
	"bytes"
	"compress/gzip"
	"strings"
	"testing"
)

// TestTruncatedGzipSaysOnlyUnexpectedEOF: a cut-off .json.gz was refused with a bare
// "unexpected EOF"; the refusal names the file and says it is a truncated gzip.
func TestTruncatedGzipSaysOnlyUnexpectedEOF(t *testing.T) {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(vllmResult(t, "20250101-000001")))
	w.Close()
	cut := b.Bytes()[:b.Len()/2]
	root := writeTree(t, map[string]string{"r.json.gz": string(cut), "ok.json": vllmResult(t, "20250101-000002")})
	st := openStore(t)
	rep := Import(st, []string{root}, Options{})
	if len(rep.Added) != 1 || len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "r.json.gz: truncated gzip") {
		t.Errorf("added %d, errors %v; want the cut file refused as a truncated gzip", len(rep.Added), rep.Errors)
	}
}
