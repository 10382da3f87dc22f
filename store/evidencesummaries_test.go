package store

import (
	"fmt"
	"testing"

	"benchlens/model"
)

// Runs whose files hold the same evidence read one decoded summary each with their own
// file's name, in file order, each run's slice its own.
func TestEvidenceSummariesOfRunsSharingOne(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		logged := func(backend string) *model.Evidence {
			return &model.Evidence{Kind: "log", Log: &model.LogEvidence{Engine: "vllm", TargetBackend: backend, Resolved: backend}}
		}
		file := func(name, content string, ev *model.Evidence) Attached {
			return Attached{File: &model.SourceFile{Name: name, Size: int64(len(content)), SHA256: "sha-" + content, Kind: "vllm-log",
				Data: []byte(content)}, Role: model.FileAttachment, Evidence: ev}
		}
		add := func(i int, files ...Attached) int64 {
			id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: fmt.Sprint("run ", i),
				Files: append([]Attached{resultFile(fmt.Sprint("result ", i))}, files...)})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		a := add(1, file("a.log", "log a", logged("FLASH_ATTN")))
		b := add(2, file("b.log", "log b", logged("FLASH_ATTN")), file("b2.log", "log b2", logged("TRITON_ATTN")))
		c := add(3)
		got, err := s.EvidenceSummaries()
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			run   int64
			files []string
			back  []string
		}{
			{a, []string{"a.log"}, []string{"FLASH_ATTN"}},
			{b, []string{"b.log", "b2.log"}, []string{"FLASH_ATTN", "TRITON_ATTN"}},
			{c, nil, nil},
		} {
			sums := got[tc.run]
			if len(sums) != len(tc.files) {
				t.Fatalf("run %d: %+v, want the files %v", tc.run, sums, tc.files)
			}
			for i, sum := range sums {
				if sum.File != tc.files[i] || sum.ResolvedBackend != tc.back[i] || sum.TargetBackend != tc.back[i] {
					t.Errorf("run %d file %d: %+v, want %s resolving %s", tc.run, i, sum, tc.files[i], tc.back[i])
				}
			}
		}
		_ = append(got[a], model.EvidenceSummary{File: "appended"})
		if got[b][0].File != "b.log" {
			t.Errorf("appending to run %d's summaries changed run %d's: %+v", a, b, got[b])
		}
	})
}
