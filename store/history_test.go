package store

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/text/unicode/norm"

	"benchlens/model"
)

// A series is read without the rest of the library: the runs with its label (either Unicode
// form) and those whose manifest names it, each run's evidence in one read.
func TestSeriesRuns(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		add := func(label string, manifest model.Manifest, log string) int64 {
			r := sampleRun("vllm")
			r.Label, r.Manifest = label, manifest
			content := fmt.Sprint(label, manifest, log)
			files := []Attached{resultFile(content)}
			if log != "" {
				files = append(files, Attached{File: &model.SourceFile{Name: "server.log", Size: int64(len(log)), SHA256: "log-" + content,
					Kind: "vllm-log", Data: []byte(log)}, Role: model.FileAttachment, Evidence: &model.Evidence{Kind: "vllm-log"}})
			}
			id, err := s.AddRun(NewRun{Run: r, Fingerprint: content, Files: files})
			if err != nil {
				t.Fatal(err)
			}
			return id
		}
		named := model.Manifest{"series": map[string]any{"name": "nightly"}}
		a := add("nightly", nil, "log a")
		b := add("ci-h100", named, "log b")
		c := add("ci-h100", model.Manifest{"series": "other"}, "")
		d := add("café", nil, "")
		inNightly := func(m model.Manifest) bool {
			return m.String("series", "name") == "nightly" || m.String("series") == "nightly"
		}
		for _, tc := range []struct {
			label string
			in    func(model.Manifest) bool
			want  []int64
		}{
			{"nightly", inNightly, []int64{a, b}},
			{norm.NFD.String("café"), func(model.Manifest) bool { return false }, []int64{d}},
			{"none", func(model.Manifest) bool { return false }, nil},
		} {
			runs, err := s.SeriesRuns(tc.label, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, r := range runs {
				got = append(got, r.ID)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("series %q: runs %v, want %v", tc.label, got, tc.want)
			}
		}
		runs, _ := s.SeriesRuns("nightly", inNightly)
		if runs[1].Manifest.String("series", "name") != "nightly" || runs[1].Tool != "vllm" {
			t.Errorf("run %d read without its manifest or header: %+v", b, runs[1])
		}
		evs, err := s.SeriesEvidence([]int64{a, b, c})
		if err != nil {
			t.Fatal(err)
		}
		if len(evs[a]) != 1 || len(evs[b]) != 1 || len(evs[c]) != 0 || evs[b][0].File != "server.log" {
			t.Errorf("evidence %+v", evs)
		}
	})
}
