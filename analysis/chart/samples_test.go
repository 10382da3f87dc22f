package chart_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/model"
)

func TestSamples(t *testing.T) {
	nan := math.NaN()
	run := model.NewRun("vllm")
	run.Requests = []model.Request{
		// Issued out of order: the warm-up is the earliest by start time.
		{InputLen: 8, OutputLen: 3, TTFT: 0.050, TPOT: nan, Latency: 0.090, Start: 1, ITL: []float64{0.020, 0.020}},
		{InputLen: 8, OutputLen: 3, TTFT: 0.900, TPOT: nan, Latency: 1.000, Start: 0, ITL: []float64{0.050, 0.050}}, // warm-up
		{InputLen: 8, OutputLen: 2, TTFT: 0.040, TPOT: 0.010, Latency: 0.070, Start: 2, ITL: []float64{0.030}},
		{InputLen: 8, OutputLen: 3, TTFT: 0.500, TPOT: nan, Latency: 0.600, Start: 3, Error: "timeout"}, // failed
		{InputLen: 8, OutputLen: 1, TTFT: nan, TPOT: nan, Latency: 0.080, Start: 4},                     // no TTFT, no TPOT
	}
	run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 1}}
	arm := compare.Arm{Label: "a", Runs: []compare.RunData{{Run: run}, {Run: model.NewRun("vllm")}}}

	for _, tc := range []struct {
		metric string
		want   []float64
	}{
		{model.TTFT, []float64{40, 50}}, // sorted
		{model.TPOT, []float64{10, 20}},
		{model.ITL, []float64{20, 20, 30}},
		{model.E2EL, []float64{70, 80, 90}},
		{"bogus", nil},
	} {
		t.Run(tc.metric, func(t *testing.T) {
			got := chart.Samples(arm, tc.metric)
			if len(got) != len(tc.want) {
				t.Fatalf("Samples(%s) = %v, want %v", tc.metric, got, tc.want)
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-9 {
					t.Fatalf("Samples(%s) = %v, want %v", tc.metric, got, tc.want)
				}
			}
		})
	}
}

func TestSamplesThinsITL(t *testing.T) {
	run := model.NewRun("vllm")
	gaps := make([]float64, 25000)
	for i := range gaps {
		gaps[i] = float64(i) / 1e6
	}
	run.Requests = []model.Request{{InputLen: 1, OutputLen: 25001, TTFT: 0.01, TPOT: math.NaN(), Latency: 1, Start: 0, ITL: gaps}}
	got := chart.Samples(compare.Arm{Runs: []compare.RunData{{Run: run}}}, model.ITL)
	if len(got) != chart.MaxITLPoints {
		t.Fatalf("got %d gaps, want %d", len(got), chart.MaxITLPoints)
	}
	if !slices.IsSorted(got) || got[0] != 0 || got[len(got)-1] < 24 {
		t.Fatalf("thinned gaps are not spread over the sample: first %v, last %v", got[0], got[len(got)-1])
	}
	arm := compare.Arm{Runs: []compare.RunData{{Run: run}}}
	if n := chart.SampleCount(arm, model.ITL); n != 25000 {
		t.Errorf("SampleCount = %d, want every gap (25000)", n)
	}
	// The legend counts the gaps, not the thinned sample drawn.
	p, _, err := chart.CDF(chart.Options{}, "ITL", "ITL (ms)", chart.Series{Label: "a", Values: got, N: 25000})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := chart.SVG(p, 800, 500)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(svg), "n = 25000 (20000 drawn)") {
		t.Error("the ITL legend does not give the real gap count")
	}
}

// Five runs traced on one GPU are five traces of one device, not five devices.
func TestTimelineCountsDevices(t *testing.T) {
	var one, many []chart.TimelineSeries
	for i := range 5 {
		s := chart.TimelineSeries{Label: "base", T: []float64{0, 1, 2}, Busy: []float64{90, 95, 92}, Device: "0"}
		one = append(one, s)
		s.Device = string(rune('0' + i))
		many = append(many, s)
	}
	for _, c := range []struct {
		lines []chart.TimelineSeries
		want  string
	}{{one, "base (5 traces, one device)"}, {many, "base (5 devices)"}} {
		p, err := chart.Timeline("util", c.lines...)
		if err != nil {
			t.Fatal(err)
		}
		svg, _ := chart.SVG(p, 800, 500)
		if !strings.Contains(string(svg), c.want) {
			t.Errorf("legend lacks %q", c.want)
		}
	}
}

// Spread shows each run the test compared, as % of the baseline median; a record compared
// request by request has nothing to show.
func TestSpread(t *testing.T) {
	rec := compare.Record{Arms: compare.Arms{Baseline: compare.ArmInfo{Label: "base"}, Candidate: compare.ArmInfo{Label: "cand"}},
		Perf: map[string]compare.StageDelta{model.TPOT: {Baseline: 10, Candidate: 9, CILow: -12, CIHigh: -8,
			BaselineRuns: []float64{9.9, 10, 10.2}, CandidateRuns: []float64{8.8, 9, 9.1}}}}
	p, err := chart.Spread(chart.TitleSpread, rec)
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := chart.SVG(p, 800, 500)
	for _, want := range []string{"base: one point per run", "cand: one point per run", "TPOT"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("spread lacks %q", want)
		}
	}
	if ymin, ymax := p.Y.Min, p.Y.Max; ymin > -12 || ymax < 2 {
		t.Errorf("y axis %v..%v misses the runs or the interval", ymin, ymax)
	}
	d := rec.Perf[model.TPOT]
	d.BaselineRuns, d.CandidateRuns, d.PerRequest = nil, nil, true
	rec.Perf[model.TPOT] = d
	if _, err := chart.Spread(chart.TitleSpread, rec); err == nil {
		t.Error("a per-request record drew a spread")
	}
}

// Readout inverts what gonum/plot draws: the pixel where a data point lands reads back as it.
func TestReadoutRoundTrip(t *testing.T) {
	p, _, err := chart.CDF(chart.Options{}, "TTFT", "TTFT (ms)", chart.Series{Label: "a", Values: []float64{10, 20, 30, 40, 50}})
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 600, 400
	img, _ := chart.Image(p, w, h) // renders as the app does; Readout must agree with it
	if img == nil {
		t.Fatal("no image")
	}
	l, err := chart.Layout(p, w, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, pt := range [][2]float64{{20, 0.4}, {35, 0.8}} {
		px := l.Data.X0 + (pt[0]-p.X.Min)/(p.X.Max-p.X.Min)*(l.Data.X1-l.Data.X0)
		py := l.Data.Y1 - (pt[1]-p.Y.Min)/(p.Y.Max-p.Y.Min)*(l.Data.Y1-l.Data.Y0)
		x, y, ok := chart.Readout(p, w, h, px, py)
		if !ok || math.Abs(x-pt[0]) > 0.01 || math.Abs(y-pt[1]) > 0.001 {
			t.Errorf("readout at %v: %v %v %v", pt, x, y, ok)
		}
	}
	if _, _, ok := chart.Readout(p, w, h, 1, 1); ok {
		t.Error("the top-left corner is outside the data area")
	}
}
