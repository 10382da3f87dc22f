package library

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"benchlens/analysis/compare"
	"benchlens/analysis/slo"
	"benchlens/model"
)

// handAttainment is the attainment of one result file computed from its raw JSON alone, with
// no benchlens code: METHOD.md rule 14 over the requests rule 2 keeps. The first `warmup`
// requests by start time are dropped; a failed request (a non-empty error) is a miss; a
// request meets the SLO when its TTFT and its TPOT, (latency − TTFT) / (output tokens − 1), are
// within the limits (ms).
func handAttainment(t *testing.T, path string, warmup int, ttftMS, tpotMS float64) (att, goodput float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Duration   float64   `json:"duration"`
		TTFTs      []float64 `json:"ttfts"`
		Latencies  []float64 `json:"latencies"`
		OutputLens []int     `json:"output_lens"`
		StartTimes []float64 `json:"start_times"`
		Errors     []string  `json:"errors"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	order := make([]int, len(f.TTFTs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return f.StartTimes[order[a]] < f.StartTimes[order[b]] })
	good, n := 0, 0
	for _, i := range order[warmup:] {
		n++
		if f.Errors[i] != "" {
			continue
		}
		tpot := (f.Latencies[i] - f.TTFTs[i]) / float64(f.OutputLens[i]-1)
		if f.TTFTs[i]*1e3 <= ttftMS && tpot*1e3 <= tpotMS {
			good++
		}
	}
	return float64(good) / float64(n), float64(good) / f.Duration
}

// The sweep fixtures (testdata/slo-sweep, shaped as vllm bench serve --save-detailed writes
// them) imported as a lab commits them: every run's attainment and goodput under
// ttft<=200,tpot<=30 equal the hand computation from its file, and each point's median is
// the median of those.
func TestSLOSweepAttainmentMatchesTheFiles(t *testing.T) {
	st := openStore(t)
	if rep := Import(st, []string{"../testdata/slo-sweep"}, Options{}); len(rep.Errors) > 0 || len(rep.Added) != 40 {
		t.Fatalf("import: %d runs, %v", len(rep.Added), rep.Errors)
	}
	set := compare.DefaultSettings
	set.SLO = "ttft<=200,tpot<=30"
	rec, err := Compare(st, "slo-baseline", "slo-candidate", set)
	if err != nil {
		t.Fatal(err)
	}
	if rec.SLO == nil || len(rec.SLO.Points) != 4 {
		t.Fatalf("slo section: %+v", rec.SLO)
	}
	// Each run's file, found by the date the file states (the importer's run date).
	byDate := map[string]string{}
	paths, _ := filepath.Glob("../testdata/slo-sweep/*/*.json")
	for _, path := range paths {
		var head struct{ Date string }
		data, _ := os.ReadFile(path)
		if err := json.Unmarshal(data, &head); err != nil {
			t.Fatal(err)
		}
		byDate[head.Date] = path
	}
	files := map[int64]string{}
	for _, arm := range []string{"slo-baseline", "slo-candidate"} {
		a, err := LoadArm(st, arm)
		if err != nil {
			t.Fatal(err)
		}
		for _, rd := range a.Runs {
			d, err := time.Parse("2006-01-02T15:04:05", rd.Run.Date)
			if err != nil {
				t.Fatal(err)
			}
			files[rd.Run.ID] = byDate[d.Format("20060102-150405")]
		}
	}
	median := func(xs []float64) float64 {
		s := append([]float64(nil), xs...)
		sort.Float64s(s)
		if len(s)%2 == 1 {
			return s[len(s)/2]
		}
		return (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	checked := 0
	for _, p := range rec.SLO.Points {
		for _, ap := range []slo.ArmPoint{p.Baseline, p.Candidate} {
			var hands []float64
			for _, r := range ap.Runs {
				path := files[r.Run]
				if path == "" {
					t.Fatalf("run %d: no file", r.Run)
				}
				att, gp := handAttainment(t, path, 2, 200, 30)
				hands = append(hands, att)
				if math.Abs(r.Attainment.F()-att) > 1e-12 || math.Abs(r.Goodput.F()-gp) > 1e-9 {
					t.Errorf("%s run %d (%s): attainment %.4f goodput %.4f, the file gives %.4f, %.4f",
						p.Label, r.Run, filepath.Base(path), r.Attainment.F(), r.Goodput.F(), att, gp)
				}
				checked++
			}
			if m := median(hands); math.Abs(ap.Attainment.Median.F()-m) > 1e-12 {
				t.Errorf("%s: median attainment %.4f, the files give %.4f", p.Label, ap.Attainment.Median.F(), m)
			}
		}
	}
	if checked != 40 {
		t.Errorf("checked %d runs, want 40", checked)
	}
}

// handH100 is the attainment of one of the real H100 files (vLLM ≈0.8.1, no start times, no
// latencies) from its raw JSON: TPOT is the sum of the request's gaps over its output tokens
// less one, as vLLM's own latency is TTFT plus the gaps; no warm-up is declared.
func handH100(t *testing.T, path string, ttftMS, tpotMS float64) float64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		TTFTs      []float64   `json:"ttfts"`
		ITLs       [][]float64 `json:"itls"`
		OutputLens []int       `json:"output_lens"`
		Errors     []string    `json:"errors"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	good := 0
	for i := range f.TTFTs {
		if f.Errors[i] != "" {
			continue
		}
		var sum float64
		for _, g := range f.ITLs[i] {
			sum += g
		}
		if f.TTFTs[i]*1e3 <= ttftMS && sum/float64(f.OutputLens[i]-1)*1e3 <= tpotMS {
			good++
		}
	}
	return float64(good) / float64(len(f.TTFTs))
}

// The real H100 FP16/FP8 pair at ttft<=100,tpot<=15: each arm's attainment per point is what
// the files give.
func TestSLOH100PairAsTheFilesGive(t *testing.T) {
	fixtures := "../testdata/fixtures/results/h100-fp16-vs-fp8"
	files, _ := filepath.Glob(filepath.Join(fixtures, "*.json"))
	tree := map[string]string{"fp16/bundle.yaml": "label: fp16\nrole: baseline\n", "fp8/bundle.yaml": "label: fp8\nrole: candidate\n"}
	want := map[string]float64{} // "fp16 concurrency1" → attainment
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		arm := "fp16"
		if strings.HasPrefix(filepath.Base(f), "FP8") {
			arm = "fp8"
		}
		tree[arm+"/"+filepath.Base(f)] = string(data)
		conc := "concurrency1"
		if strings.Contains(f, "concurrency64") {
			conc = "concurrency64"
		}
		want[arm+" "+conc] = handH100(t, f, 100, 15)
	}
	st := openStore(t)
	if rep := Import(st, []string{writeTree(t, tree)}, Options{}); len(rep.Errors) > 0 || len(rep.Added) != 4 {
		t.Fatalf("import: %d runs, %v", len(rep.Added), rep.Errors)
	}
	set := compare.DefaultSettings
	set.SLO = "ttft<=100,tpot<=15"
	rec, err := Compare(st, "fp16", "fp8", set)
	if err != nil {
		t.Fatal(err)
	}
	if rec.SLO == nil || len(rec.SLO.Points) != 2 {
		t.Fatalf("slo section: %+v", rec.SLO)
	}
	for _, p := range rec.SLO.Points {
		conc := "concurrency" + model.FormatNum(p.Load.MaxConcurrency)
		for arm, ap := range map[string]slo.ArmPoint{"fp16": p.Baseline, "fp8": p.Candidate} {
			w := want[arm+" "+conc]
			if got := ap.Attainment.Median.F(); math.Abs(got-w) > 1e-12 || ap.From != "requests" {
				t.Errorf("%s at %s: attainment %.3f (from %q), the files give %.3f", arm, conc, got, ap.From, w)
			}
			t.Logf("%s at %s: attainment %.2f, goodput %.3f req/s", arm, conc, ap.Attainment.Median.F(), ap.Goodput.Median.F())
		}
	}
	// With one run per arm and point the difference is tested request by request.
	if d := rec.SLO.Points[1].Attainment; !d.PerRequest || !d.P.Known() {
		t.Errorf("concurrency 64: %+v, want a per-request test", d)
	}
}

// A point whose client was asked for 20 req/s and issued 12 is saturated (rule 14); a gain
// measured there alone is noted as such in the verdict.
func TestSLOSaturatedPointIsMarked(t *testing.T) {
	st := openStore(t)
	if rep := Import(st, []string{"../testdata/slo-saturated"}, Options{}); len(rep.Errors) > 0 || len(rep.Added) != 2 {
		t.Fatalf("import: %d runs, %v", len(rep.Added), rep.Errors)
	}
	set := compare.DefaultSettings
	set.SLO = "ttft<=200,tpot<=30"
	rec, err := Compare(st, "sat-baseline", "sat-candidate", set)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Saturated) != 2 {
		t.Fatalf("saturated points: %+v, want both arms", rec.Saturated)
	}
	for _, s := range rec.Saturated {
		if len(s.Reasons) != 1 || !strings.Contains(s.Reasons[0], "achieved 12 of 20 req/s requested (60 %, from the requests' start times)") {
			t.Errorf("%s: %q", s.Arm, s.Reasons)
		}
	}
	p := rec.SLO.Points[0]
	if !p.Baseline.Saturated || !p.Candidate.Saturated {
		t.Errorf("the SLO point is not marked saturated: %+v", p)
	}
	r := p.Candidate.Runs[0].Saturation
	if r.RequestedRate.F() != 20 || math.Abs(r.AchievedRate.F()-12) > 1e-6 {
		t.Errorf("requested %v achieved %v, want 20 and 12", r.RequestedRate, r.AchievedRate)
	}
	if !slices.ContainsFunc(rec.Notes, func(n string) bool { return strings.Contains(n, "only at saturated load points") }) {
		t.Errorf("notes %q: no word of a gain measured only at saturated points", rec.Notes)
	}
}
