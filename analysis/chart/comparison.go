package chart

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Keys are the charts ForComparison builds, in the order to show them; they are stable and
// serve as file names.
var Keys = []string{"ttft_cdf", "tpot_cdf", "itl_cdf", "stage_deltas", "spread", "bucket_deltas", "utilisation",
	"load_ttft", "load_tpot", "load_deltas", "slo_capacity", "slo_pareto"}

// Titles of the standard charts.
var (
	TitleTTFT         = "Time to first token (prefill)"
	TitleTPOT         = "Time per output token (decode)"
	TitleITL          = "Inter-token latency (decode)"
	TitleStageDeltas  = "Change per stage, candidate vs baseline"
	TitleBucketDeltas = "Change per input-length bucket, candidate vs baseline"
	TitleUtilisation  = "Device utilisation"
)

// distCharts are the CDFs ForComparison draws.
var distCharts = []struct{ key, metric, xLabel, yLabel string }{
	{"ttft_cdf", model.TTFT, "time to first token (ms)", "share of requests"},
	{"tpot_cdf", model.TPOT, "time per output token (ms)", "share of requests"},
	{"itl_cdf", model.ITL, "gap between tokens (ms)", "share of token gaps"},
}

// ForComparison builds the standard charts of a comparison, keyed by Keys:
//
//   - ttft_cdf, tpot_cdf, itl_cdf: both arms' CDFs of the metric (Samples), baseline in
//     BaselineColor, candidate in CandidateColor. An arm without per-request samples is left
//     out and named under the title; the chart is omitted when neither arm has samples. For a
//     sweep the curves pool its load points: the title says so and the legends give no median
//     (ForPoint draws one point's).
//   - stage_deltas: StageDeltas of rec; omitted when rec.Perf is empty.
//   - spread: Spread of rec (the per-run values the tests compared); omitted when every stage
//     was compared request by request.
//   - bucket_deltas: BucketDeltas of rec; omitted when rec has no buckets. It shares its
//     y axis with stage_deltas, as the two are shown side by side.
//   - utilisation: Timeline of every device of every run of both arms, one legend entry per
//     arm; omitted when no arm has utilisation.
//   - load_ttft, load_tpot, load_deltas: LoadCurves and LoadDeltas of a record whose arms ran
//     several load points (rule 9); omitted otherwise.
//   - slo_capacity, slo_pareto: SLOCapacity and SLOPareto of a record judged against an SLO
//     (rule 14) across several load points; omitted otherwise.
//
// opt sets the CDFs' x axis and translates titles and axes. Beside the charts it returns how
// each reads out under the mouse, keyed like the charts. An error means a chart could not be
// built from data that is there.
func ForComparison(base, cand compare.Arm, rec compare.Record, opt Options) (map[string]*plot.Plot, map[string]Reader, error) {
	opt.pooled = len(rec.LoadPoints)
	bl, cl := armLabels(base.Label, cand.Label)
	out := map[string]*plot.Plot{}
	reads := map[string]Reader{}
	titles := map[string]string{"ttft_cdf": TitleTTFT, "tpot_cdf": TitleTPOT, "itl_cdf": TitleITL}
	for _, dc := range distCharts {
		var series []Series
		var missing []string
		for _, a := range []struct {
			label string
			arm   compare.Arm
			col   color.Color
		}{{bl, base, BaselineColor}, {cl, cand, CandidateColor}} {
			if xs := Samples(a.arm, dc.metric); len(xs) > 0 {
				s := Series{Label: a.label, Values: xs, Color: a.col}
				if dc.metric == model.ITL {
					s.N = SampleCount(a.arm, model.ITL)
				}
				series = append(series, s)
			} else {
				missing = append(missing, a.label)
			}
		}
		if len(series) == 0 {
			continue
		}
		title := opt.tr(titles[dc.key])
		if opt.pooled > 1 {
			title += "\n(" + fmt.Sprintf(opt.tr("pooled over %d load points: pick one for its distribution"), opt.pooled) + ")"
		}
		for _, m := range missing {
			title += fmt.Sprintf("\n(%s: "+opt.tr("no per-request samples")+")", m)
		}
		p, at, err := CDF(opt, title, opt.tr(dc.xLabel), series...)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", dc.key, err)
		}
		p.Y.Label.Text = opt.tr(dc.yLabel)
		out[dc.key], reads[dc.key] = p, Reader{Series: at}
	}
	if len(rec.Perf) > 0 {
		p, bars, err := StageDeltas(opt.tr(TitleStageDeltas), rec)
		if err != nil {
			return nil, nil, fmt.Errorf("stage_deltas: %w", err)
		}
		out["stage_deltas"], reads["stage_deltas"] = p, Reader{Bars: bars}
		if p, err := Spread(opt.tr(TitleSpread), rec); err == nil {
			out["spread"] = p
		}
	}
	if len(rec.Buckets.Rows) > 0 {
		p, bars, err := BucketDeltas(opt.tr(TitleBucketDeltas), rec)
		if err != nil {
			return nil, nil, fmt.Errorf("bucket_deltas: %w", err)
		}
		out["bucket_deltas"], reads["bucket_deltas"] = p, Reader{Bars: bars}
	}
	ShareY(out["stage_deltas"], out["bucket_deltas"])
	lines := append(utilLines(base, bl, BaselineColor), utilLines(cand, cl, CandidateColor)...)
	if len(lines) > 0 {
		p, err := Timeline(opt.tr(TitleUtilisation), lines...)
		if err != nil {
			return nil, nil, fmt.Errorf("utilisation: %w", err)
		}
		out["utilisation"], reads["utilisation"] = p, Reader{Series: TimelineAt(lines...)}
	}
	if err := loadCharts(out, reads, rec); err != nil {
		return nil, nil, err
	}
	sloCharts(out, opt, rec)
	for k, p := range out {
		if _, cdf := titles[k]; !cdf { // the CDFs' labels are translated already, with their notes
			p.X.Label.Text, p.Y.Label.Text = opt.tr(p.X.Label.Text), opt.tr(p.Y.Label.Text)
		}
	}
	return out, reads, nil
}

// ForPoint builds the charts of matched load point i of a sweep (rule 9) as ForComparison
// builds them for a comparison of one point: the CDFs of the point's runs, its stage changes,
// spread and input-length buckets.
func ForPoint(base, cand compare.Arm, rec compare.Record, i int, opt Options) (map[string]*plot.Plot, map[string]Reader, error) {
	if i < 0 || i >= len(rec.LoadPoints) {
		return nil, nil, fmt.Errorf("chart: no load point %d of %d", i, len(rec.LoadPoints))
	}
	at := rec.AtPoint(i)
	return ForComparison(base.Only(at.Arms.Baseline.Runs), cand.Only(at.Arms.Candidate.Runs), at, opt)
}

// loadCharts adds the load-point charts of a sweep.
func loadCharts(out map[string]*plot.Plot, reads map[string]Reader, rec compare.Record) error {
	if len(rec.LoadPoints) == 0 {
		return nil
	}
	for _, c := range []struct{ key, title, metric string }{
		{"load_ttft", TitleLoadTTFT, model.TTFT}, {"load_tpot", TitleLoadTPOT, model.TPOT}} {
		p, err := LoadCurves(c.title, rec, c.metric)
		if err != nil {
			continue // no point has both numbers: nothing to draw
		}
		out[c.key] = p
	}
	ShareX(out["load_ttft"], out["load_tpot"])
	p, bars, err := LoadDeltas(TitleLoadDeltas, rec)
	if err != nil {
		return fmt.Errorf("load_deltas: %w", err)
	}
	out["load_deltas"], reads["load_deltas"] = p, Reader{Bars: bars}
	return nil
}

// armLabels are the legend names of the arms: their labels, "baseline" and "candidate" when
// empty, and told apart when equal.
func armLabels(b, c string) (string, string) {
	if b == "" {
		b = "baseline"
	}
	if c == "" {
		c = "candidate"
	}
	if b == c {
		b, c = b+" (baseline)", c+" (candidate)"
	}
	return b, c
}

// utilLines are the busy timelines of every device of an arm's runs that has samples, all
// under the arm's label and colour (with the arm's most common shape, when known).
func utilLines(a compare.Arm, label string, col color.Color) []TimelineSeries {
	var out []TimelineSeries
	count := map[model.ShapeClass]int{}
	for _, rd := range a.Runs {
		for _, u := range rd.Util {
			if u == nil {
				continue
			}
			for _, d := range u.Devices {
				if len(d.T) == 0 || len(d.T) != len(d.Busy) || !anyKnown(d.Busy) {
					continue
				}
				out = append(out, TimelineSeries{T: d.T, Busy: d.Busy, Color: col, Device: d.ID})
				if d.Shape != nil {
					count[d.Shape.Class]++
				}
			}
		}
	}
	shape, best := model.ShapeClass(""), 0
	for _, class := range model.ShapeClasses {
		if count[class] > best {
			shape, best = class, count[class]
		}
	}
	if shape != "" {
		label = fmt.Sprintf("%s, %s", label, shapeName(shape))
	}
	for i := range out {
		out[i].Label = label
	}
	return out
}

func shapeName(class model.ShapeClass) string {
	switch class {
	case model.ShapeSustainedHigh:
		return "sustained high"
	case model.ShapeIntermittent:
		return "intermittent"
	case model.ShapeLow:
		return "low"
	}
	return string(class)
}

func anyKnown(xs []float64) bool {
	for _, v := range xs {
		if finite(v) {
			return true
		}
	}
	return false
}
