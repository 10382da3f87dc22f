package store

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"benchlens/model"
)

// TestRunsWithRequestsAsOneByOne: the batched reads (and SeriesEvidence) give what Run and
// RunEvidence give run by run, in the order asked (an id twice is two runs), across batch boundaries, and a missing
// id is named.
func TestRunsWithRequestsAsOneByOne(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		var ids []int64
		for i := range batchRuns + 3 {
			run := sampleRun("vllm")
			run.Manifest = model.Manifest{"workload": map[string]any{"n": i % 3}}
			files := []Attached{resultFile(strings.Repeat("r", i+1))}
			if i%2 == 0 {
				log := &model.SourceFile{Name: "server.log", SHA256: "log-" + strings.Repeat("l", i+1), Size: 1, Kind: model.KindLog, Data: []byte("x")}
				files = append(files, Attached{File: log, Role: "attachment", Evidence: &model.Evidence{Kind: model.KindLog, Format: "vllm"}})
			}
			id, err := s.AddRun(NewRun{Run: run, Fingerprint: strings.Repeat("f", i+1), Files: files})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for _, tc := range []struct {
			name string
			ids  []int64
		}{
			{"all, across batches", ids},
			{"reversed, one twice", []int64{ids[4], ids[1], ids[4]}},
			{"none", nil},
		} {
			t.Run(tc.name, func(t *testing.T) {
				runs, err := s.RunsWithRequests(tc.ids)
				if err != nil {
					t.Fatal(err)
				}
				evs, err := s.SeriesEvidence(tc.ids)
				if err != nil {
					t.Fatal(err)
				}
				if len(runs) != len(tc.ids) {
					t.Fatalf("%d runs for %d ids", len(runs), len(tc.ids))
				}
				for i, id := range tc.ids {
					want, err := s.Run(id)
					if err != nil {
						t.Fatal(err)
					}
					if got, want := fmt.Sprintf("%+v", *runs[i].Point), fmt.Sprintf("%+v", *want.Point); got != want {
						t.Errorf("run %d: batched at %s, one by one at %s", id, got, want)
					}
					got, one := *runs[i], *want
					got.Point, one.Point = nil, nil                                                 // compared above, not by address
					if got, want := fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", one); got != want { // NaN prints as itself
						t.Errorf("run %d: batched %s, one by one %s", id, got, want)
					}
					wantEv, err := s.RunEvidence(id)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(evs[id], wantEv) {
						t.Errorf("run %d: batched evidence %+v, one by one %+v", id, evs[id], wantEv)
					}
				}
				if len(runs) == 3 && runs[0] == runs[2] {
					t.Error("an id asked twice came back as one shared run")
				}
			})
		}
		if _, err := s.RunsWithRequests([]int64{ids[0], 999999}); err == nil || !strings.Contains(err.Error(), "no run 999999") {
			t.Errorf("a missing id: %v", err)
		}
	})
}
