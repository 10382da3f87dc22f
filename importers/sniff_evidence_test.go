package importers

import (
	"os"
	"path/filepath"
	"testing"

	"benchlens/importers/format"
	"benchlens/model"
)

// Bug: evidence taken for the wrong kind. A vLLM 0.4.1 log with Ray's comma-millisecond
// timestamps was sniffed as an nvidia-smi query CSV (and refused), a vLLM log written as JSON
// lines and a rocm-smi --json file were kept unread as "other".
func TestEvidenceSniffedAsItsKind(t *testing.T) {
	tests := []struct{ file, kind string }{
		{"serverlog/testdata/vllm-0.4.1-turing-ray.log", model.KindLog},
		{"serverlog/testdata/vllm-0.12-json-env.log", model.KindLog},
		{"utilisation/testdata/rocm.json", model.KindUtilisation},
		{"utilisation/testdata/query_units.csv", model.KindUtilisation},
		{"serverlog/testdata/sglang-0.4.9-default-fa3.log", model.KindLog},
	}
	for _, tt := range tests {
		data, err := os.ReadFile(tt.file)
		if err != nil {
			t.Fatal(err)
		}
		row, p, err := identify(&format.File{Name: filepath.Base(tt.file), Data: data})
		if kind := storedKind(row, len(p.Runs), p.Part); err != nil || kind != tt.kind {
			t.Errorf("%s: kind %q, error %v; want %q", tt.file, kind, err, tt.kind)
			continue
		}
		f := &model.SourceFile{Name: tt.file, Kind: row.Kind, Data: data}
		if ev, err := ReadEvidence(Reading{Format: row, Files: []*model.SourceFile{f}}, DefaultLimits); err != nil || ev == nil {
			t.Errorf("%s: read as evidence: %v", tt.file, err)
		}
	}
}
