package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The checks of issue 28 against what compare --slo --format json prints: every figure is
// computed here from the result files' raw JSON with nothing of benchlens but the command.

// sloFile is the part of a vllm bench serve result file the hand computation reads.
type sloFile struct {
	Duration       float64     `json:"duration"`
	MaxConcurrency int         `json:"max_concurrency"`
	TTFTs          []float64   `json:"ttfts"`
	ITLs           [][]float64 `json:"itls"`
	Latencies      []float64   `json:"latencies"`
	OutputLens     []int       `json:"output_lens"`
	StartTimes     []float64   `json:"start_times"`
	Errors         []string    `json:"errors"`
}

func readSLOFile(t *testing.T, path string) sloFile {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f sloFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// hand is rule 14 over one file: the first warmup requests by start time dropped, a failed
// request (non-empty error) a miss, a request good when its TTFT and its TPOT are within the
// limits (ms). TPOT is (latency − TTFT) / (output tokens − 1), or the sum of the request's
// gaps over its tokens less one when the file has no latencies (vLLM 0.8: its latency is TTFT
// plus the gaps). Goodput is the good requests per second of the run's duration.
func (f sloFile) hand(warmup int, ttftMS, tpotMS float64) (att, goodput float64, good, n int) {
	order := make([]int, len(f.TTFTs))
	for i := range order {
		order[i] = i
	}
	if len(f.StartTimes) == len(order) {
		sort.SliceStable(order, func(a, b int) bool { return f.StartTimes[order[a]] < f.StartTimes[order[b]] })
	}
	for _, i := range order[warmup:] {
		n++
		if f.Errors[i] != "" {
			continue
		}
		var tpot float64
		if len(f.Latencies) == len(f.TTFTs) {
			tpot = (f.Latencies[i] - f.TTFTs[i]) / float64(f.OutputLens[i]-1)
		} else {
			var sum float64
			for _, g := range f.ITLs[i] {
				sum += g
			}
			tpot = sum / float64(f.OutputLens[i]-1)
		}
		if f.TTFTs[i]*1e3 <= ttftMS && tpot*1e3 <= tpotMS {
			good++
		}
	}
	return float64(good) / float64(n), float64(good) / f.Duration, good, n
}

// sloJSON is the part of compare --slo --format json the checks read.
type sloJSON struct {
	SLO struct {
		Points []struct {
			Label string `json:"label"`
			Load  struct {
				MaxConcurrency float64 `json:"max_concurrency"`
			} `json:"load"`
			Baseline  sloArmJSON `json:"baseline"`
			Candidate sloArmJSON `json:"candidate"`
		} `json:"points"`
	} `json:"slo"`
}

type sloArmJSON struct {
	Attainment struct{ Median float64 } `json:"attainment"`
	Goodput    struct{ Median float64 } `json:"goodput"`
	From       string                   `json:"from"`
	Runs       []struct {
		Attainment float64 `json:"attainment"`
		Goodput    float64 `json:"goodput"`
		Good       int     `json:"good"`
		Requests   int     `json:"requests"`
	} `json:"runs"`
}

func medianOf(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func compareSLOJSON(t *testing.T, db, base, cand, objective string) sloJSON {
	t.Helper()
	out, stderr, code := bl(t, "--db", db, "compare", "--baseline", base, "--candidate", cand, "--slo", objective, "--format", "json")
	if code != 0 {
		t.Fatalf("compare: exit %d %s", code, stderr)
	}
	var rec sloJSON
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatalf("compare --format json: %v", err)
	}
	return rec
}

// On the sweep fixtures (per-request data, testdata/slo-sweep) under ttft<=200,tpot<=30 each
// point's runs per arm have the attainments and goodputs their files give, and the point's
// medians are those of the files.
func TestCompareSLOJSONEqualsTheFiles(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "import", "../../testdata/slo-sweep"); code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	// arm → concurrency → each run's (attainment, goodput), from the files alone.
	type fig struct{ att, gp float64 }
	want := map[string]map[int][]fig{}
	for _, arm := range []string{"baseline", "candidate"} {
		paths, _ := filepath.Glob(filepath.Join("../../testdata/slo-sweep", arm, "*.json"))
		want[arm] = map[int][]fig{}
		for _, p := range paths {
			f := readSLOFile(t, p)
			att, gp, _, _ := f.hand(2, 200, 30) // bundle.yaml: warmup_iters 2
			want[arm][f.MaxConcurrency] = append(want[arm][f.MaxConcurrency], fig{att, gp})
		}
	}
	rec := compareSLOJSON(t, db, "slo-baseline", "slo-candidate", "ttft<=200,tpot<=30")
	if len(rec.SLO.Points) != 4 {
		t.Fatalf("%d SLO points, want 4", len(rec.SLO.Points))
	}
	checked := 0
	for _, p := range rec.SLO.Points {
		c := int(p.Load.MaxConcurrency)
		for arm, got := range map[string]sloArmJSON{"baseline": p.Baseline, "candidate": p.Candidate} {
			w := want[arm][c]
			var wantAtt, wantGP, gotAtt, gotGP []float64
			for _, x := range w {
				wantAtt, wantGP = append(wantAtt, x.att), append(wantGP, x.gp)
			}
			for _, r := range got.Runs {
				gotAtt, gotGP = append(gotAtt, r.Attainment), append(gotGP, r.Goodput)
			}
			sort.Float64s(wantAtt)
			sort.Float64s(wantGP)
			sort.Float64s(gotAtt)
			sort.Float64s(gotGP)
			if len(gotAtt) != len(wantAtt) || len(wantAtt) != 5 {
				t.Fatalf("%s at c=%d: %d runs, the files give %d", arm, c, len(gotAtt), len(wantAtt))
			}
			for i := range wantAtt {
				if math.Abs(gotAtt[i]-wantAtt[i]) > 1e-9 || math.Abs(gotGP[i]-wantGP[i]) > 1e-6 {
					t.Errorf("%s at c=%d: attainments %v goodputs %v, the files give %v %v", arm, c, gotAtt, gotGP, wantAtt, wantGP)
					break
				}
			}
			if m := medianOf(wantAtt); math.Abs(got.Attainment.Median-m) > 1e-9 {
				t.Errorf("%s at c=%d: median attainment %v, the files give %v", arm, c, got.Attainment.Median, m)
			}
			if m := medianOf(wantGP); math.Abs(got.Goodput.Median-m) > 1e-6 {
				t.Errorf("%s at c=%d: median goodput %v, the files give %v", arm, c, got.Goodput.Median, m)
			}
			checked += len(gotAtt)
		}
	}
	if checked != 40 {
		t.Errorf("checked %d runs, want 40", checked)
	}
}

// The real H100 FP16/FP8 pair at ttft<=100,tpot<=15: each arm's attainment and goodput per
// point are what the files give; the figures are a golden file (compare_slo_h100.golden.txt).
func TestCompareSLOH100Golden(t *testing.T) {
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(fixtures, "h100-fp16-vs-fp8", "*.json"))
	if len(files) != 4 {
		t.Fatalf("%d H100 files, want 4", len(files))
	}
	hand := map[string]string{} // "fp16 c=1" → its line
	for _, arm := range []string{"fp16", "fp8"} {
		role := map[string]string{"fp16": "baseline", "fp8": "candidate"}[arm]
		os.MkdirAll(filepath.Join(dir, arm), 0o755)
		os.WriteFile(filepath.Join(dir, arm, "bundle.yaml"), []byte("label: "+arm+"\nrole: "+role+"\n"), 0o644)
	}
	for _, p := range files {
		arm := "fp16"
		if strings.HasPrefix(filepath.Base(p), "FP8") {
			arm = "fp8"
		}
		data, _ := os.ReadFile(p)
		os.WriteFile(filepath.Join(dir, arm, filepath.Base(p)), data, 0o644)
		f := readSLOFile(t, p)
		att, gp, good, n := f.hand(0, 100, 15)
		hand[fmt.Sprintf("%s c=%d", arm, f.MaxConcurrency)] = fmt.Sprintf("%d/%d %.4f %.4f", good, n, att, gp)
	}
	db := filepath.Join(dir, "lib.db")
	if _, stderr, code := bl(t, "--db", db, "import", dir); code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	rec := compareSLOJSON(t, db, "fp16", "fp8", "ttft<=100,tpot<=15")
	if len(rec.SLO.Points) != 2 {
		t.Fatalf("%d SLO points, want 2", len(rec.SLO.Points))
	}
	var b strings.Builder
	b.WriteString("# arm, point: good/judged requests, attainment, goodput (req/s) under ttft<=100,tpot<=15\n")
	for _, p := range rec.SLO.Points {
		for _, side := range []struct {
			arm string
			a   sloArmJSON
		}{{"fp16", p.Baseline}, {"fp8", p.Candidate}} {
			key := fmt.Sprintf("%s c=%d", side.arm, int(p.Load.MaxConcurrency))
			if len(side.a.Runs) != 1 || side.a.From != "requests" {
				t.Fatalf("%s: %d runs from %q, want 1 judged request by request", key, len(side.a.Runs), side.a.From)
			}
			r := side.a.Runs[0]
			line := fmt.Sprintf("%d/%d %.4f %.4f", r.Good, r.Requests, side.a.Attainment.Median, side.a.Goodput.Median)
			if line != hand[key] {
				t.Errorf("%s: compare says %s, the file gives %s", key, line, hand[key])
			}
			fmt.Fprintf(&b, "%s: %s\n", key, line)
		}
	}
	golden(t, "compare_slo_h100.golden.txt", b.String())
}

// A point of our own asked for 20 req/s whose client issued 12 (testdata/slo-saturated) is
// marked saturated in the JSON and the text, for both arms, with the rates the files give.
func TestCompareSLOSaturatedPoint(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "import", "../../testdata/slo-saturated"); code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	for _, arm := range []string{"baseline", "candidate"} {
		paths, _ := filepath.Glob(filepath.Join("../../testdata/slo-saturated", arm, "*.json"))
		f := readSLOFile(t, paths[0])
		first, last := slicesMinMax(f.StartTimes)
		if rate := float64(len(f.StartTimes)-1) / (last - first); math.Abs(rate-12) > 0.01 {
			t.Fatalf("%s: the file issues %.2f req/s, the fixture means 12", arm, rate)
		}
	}
	args := []string{"--db", db, "compare", "--baseline", "sat-baseline", "--candidate", "sat-candidate", "--slo", "ttft<=200,tpot<=30"}
	out, _, code := bl(t, append(args, "--format", "json")...)
	var rec struct {
		Saturated []struct {
			Arm     string   `json:"arm"`
			Reasons []string `json:"reasons"`
		} `json:"saturated"`
		SLO struct {
			Points []struct {
				Baseline, Candidate struct{ Saturated bool }
			} `json:"points"`
		} `json:"slo"`
	}
	if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil {
		t.Fatalf("json: exit %d %v", code, err)
	}
	if len(rec.Saturated) != 2 || len(rec.SLO.Points) != 1 || !rec.SLO.Points[0].Baseline.Saturated || !rec.SLO.Points[0].Candidate.Saturated {
		t.Fatalf("saturated %+v, points %+v: want the one point saturated on both arms", rec.Saturated, rec.SLO.Points)
	}
	for _, s := range rec.Saturated {
		if !strings.Contains(strings.Join(s.Reasons, ";"), "achieved 12 of 20 req/s requested") {
			t.Errorf("%s: %q", s.Arm, s.Reasons)
		}
	}
	text, _, _ := bl(t, args...)
	if strings.Count(text, "(saturated)") != 2 || !strings.Contains(text, "saturated: ") {
		t.Errorf("the text does not mark the point saturated:\n%s", text)
	}
}

func slicesMinMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	return lo, hi
}
