package library

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"benchlens/analysis/history"
	"benchlens/model"
	"benchlens/store"
)

// TestRowsAsFullyDecoded: a listing decodes only the fields a row shows (store.List), and
// every row is what Row makes of the fully decoded run: the demo's runs (logs, traces,
// sweeps, samples) and runs with unknown, infinite, escaped and non-ASCII values, listed
// from their packed listings, from their JSON (as runs without one) and from the listings
// the migrations packed for a library of schema 11 or 12; and each brief row's request shape
// is its whole run's, stored at import or computed by the migration from its requests.
func TestRowsAsFullyDecoded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lib.db")
	st, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { st.Close() }()
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	odd := []func(r *model.Run){
		func(r *model.Run) {
			r.Model, r.ToolVersion, r.Precision = "org/模型-\"quoted\"\\path\t", "0.13.0\n", "FP8"
			r.RequestRate, r.MaxConcurrency, r.DurationS = model.Num(math.Inf(1)), model.Unknown, model.Num(1e-7)
			r.Sampled = &model.Sample{Records: 10, Population: 100, Why: "--num-prompts «10»"}
			r.ToolWarmup = &model.Warmup{Requests: 3, InFile: true}
			r.Definitions = map[string]string{model.TTFT: "time to first token, \u2028 ms"}
			r.Recomputed = map[string]model.Stats{model.ITL: {"median": 12.5, "p99": model.Num(math.Inf(-1))}, "queue": {"mean": 1}}
			r.Manifest = model.Manifest{"path": map[string]any{"target_backend": "flashinfer"}}
		},
		func(r *model.Run) {
			r.Summary = map[string]model.Stats{model.E2EL: {"mean": 0, "median": model.Unknown}}
			r.Extra = map[string]any{"model": "not the model", "summary": 1}
			r.Metadata = map[string]string{"tool": "not the tool"}
		},
	}
	for i, edit := range odd {
		run := model.NewRun("vllm")
		run.Label, run.Role, run.Bundle = "odd", model.RoleCandidate, "odd/bundle"
		edit(run)
		name := string(rune('a'+i)) + ".json"
		f := &model.SourceFile{Name: name, Size: 1, SHA256: name, Kind: model.KindResult, Data: []byte("x")}
		if _, err := st.AddRun(store.NewRun{Run: run, Fingerprint: name, Files: []store.Attached{{File: f, Role: model.FileResult}}}); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	evidence, err := st.EvidenceSummaries()
	if err != nil {
		t.Fatal(err)
	}
	// A brief row's shape is its stored point's, PointOf of the whole run, requests included.
	ids := make([]int64, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	whole, err := st.RunsWithRequests(ids)
	if err != nil {
		t.Fatal(err)
	}
	shapes := map[int64]string{}
	for _, r := range whole {
		shapes[r.ID] = model.PointOf(r).BriefShape()
	}
	if distinct := slices.Compact(slices.Sorted(maps.Values(shapes))); len(distinct) < 3 {
		t.Fatalf("the runs have too few shapes to tell a listing's from another's: %q", distinct)
	}
	// Schema 12 without listings is what a migration from 11 killed before its next step left.
	back := map[string][]string{
		"listing migrated from schema 11": {`ALTER TABLE runs DROP COLUMN point`, `ALTER TABLE runs DROP COLUMN measured`, `ALTER TABLE runs DROP COLUMN listing`, `DROP INDEX runs_label_role`, `PRAGMA user_version = 11`},
		"listing migrated from schema 12": {`ALTER TABLE runs DROP COLUMN point`, `ALTER TABLE runs DROP COLUMN measured`, `UPDATE runs SET listing = NULL`, `DROP INDEX runs_label_role`, `PRAGMA user_version = 12`},
	}
	for _, from := range []string{"listing", "JSON", "listing migrated from schema 11", "listing migrated from schema 12"} {
		switch from {
		case "JSON":
			if _, err := st.DB().Exec(`UPDATE runs SET listing = NULL`); err != nil {
				t.Fatal(err)
			}
		case "listing migrated from schema 11", "listing migrated from schema 12":
			for _, q := range back[from] {
				if _, err := st.DB().Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			st.Close()
			if st, err = store.Open(path); err != nil {
				t.Fatal(err)
			}
			var without int
			if err := st.DB().QueryRow(`SELECT count(*) FROM runs WHERE listing IS NULL`).Scan(&without); err != nil || without != 0 {
				t.Fatalf("%d runs without a listing after the migration (%v)", without, err)
			}
		}
		got, err := Rows(st)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(runs) || len(runs) < 10 {
			t.Fatalf("%d rows listed, %d runs stored", len(got), len(runs))
		}
		for i, r := range runs {
			want, _ := json.Marshal(Row(r, evidence[r.ID]))
			have, _ := json.Marshal(got[i])
			if string(want) != string(have) {
				t.Errorf("run %d listed from its %s as\n%s\nfully decoded:\n%s", r.ID, from, have, want)
			}
		}
		n := 0
		if err := EachBriefRows(st, func(rows []BriefRow) error {
			for _, b := range rows {
				if b.Shape != shapes[b.ID] {
					t.Errorf("run %d listed from its %s with shape %q, its whole run's is %q", b.ID, from, b.Shape, shapes[b.ID])
				}
				n++
			}
			return nil
		}); err != nil || n != len(runs) {
			t.Fatalf("%d brief rows of %d runs (%v)", n, len(runs), err)
		}
	}
}

// SeriesNames reads the distinct labels and manifests (store.SeriesKeys) rather than every run
// whole, and names the same series as the runs read whole: every label and bundle.yaml
// series, never of a warm-up run only, but of a label whose measured run comes after more
// warm-ups than one read of a pair takes.
func TestSeriesNamesAsFullyDecoded(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "lib.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if rep := LoadDemo(st); len(rep.Errors) > 0 {
		t.Fatal(rep.Errors)
	}
	edits := []func(r *model.Run){
		func(r *model.Run) { r.Label, r.Phase = "warm-only", model.PhaseWarmup },
		func(r *model.Run) {
			r.Label, r.Manifest = "nightly-arm", model.Manifest{"series": map[string]any{"name": "nightly-h100"}}
		},
	}
	for range 40 {
		edits = append(edits, func(r *model.Run) { r.Label, r.Phase = "late-measured", model.PhaseWarmup })
	}
	edits = append(edits, func(r *model.Run) { r.Label = "late-measured" })
	for i, edit := range edits {
		run := model.NewRun("vllm")
		edit(run)
		name := fmt.Sprintf("series-%d.json", i)
		f := &model.SourceFile{Name: name, Size: 1, SHA256: name, Kind: model.KindResult, Data: []byte("x")}
		if _, err := st.AddRun(store.NewRun{Run: run, Fingerprint: name, Files: []store.Attached{{File: f, Role: model.FileResult}}}); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := st.Runs()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, r := range runs {
		if !r.IsWarmup() {
			seen[r.Label] = true
			if s := history.SeriesOf(r); s != "" {
				seen[s] = true
			}
		}
	}
	delete(seen, "")
	want := slices.Sorted(maps.Keys(seen))
	got, err := SeriesNames(st)
	if err != nil || !slices.Equal(got, want) || slices.Contains(got, "warm-only") || !slices.Contains(got, "nightly-h100") || !slices.Contains(got, "late-measured") {
		t.Errorf("series %q (%v), want %q", got, err, want)
	}
}
