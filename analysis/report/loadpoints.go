package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// loadPointRows writes rule 9's per-point table: the point, its repeats, its verdict with
// causes, and its stage deltas.
func loadPointRows(w io.Writer, rec compare.Record) {
	if len(rec.LoadPoints) == 0 && len(rec.Unmatched) == 0 {
		return
	}
	fmt.Fprintln(w, "by load point (each compared on its own; deltas with p < alpha, ~ otherwise)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	brief := model.BriefMetrics()
	fmt.Fprint(tw, "point\trepeats\t")
	for _, m := range brief {
		fmt.Fprint(tw, m.Short, "\t")
	}
	fmt.Fprintln(tw, "verdict\t")
	for _, p := range rec.LoadPoints {
		fmt.Fprintf(tw, "%s\t%d+%d\t%s\t%s\t\n", p.Label, p.Repeats.Baseline, p.Repeats.Candidate,
			strings.Join(PointDeltas(p), "\t"), PointVerdict(p))
	}
	for _, u := range rec.Unmatched {
		fmt.Fprintf(tw, "%s\t%s\t%sunmatched (%s only)\t\n", u.Label, unmatchedRepeats(u), strings.Repeat("\t", len(brief)), u.Arm)
	}
	tw.Flush()
	if rec.HoldsUnder != "" {
		fmt.Fprintf(w, "holds under: %s\n", rec.HoldsUnder)
	}
}

// FormatRepeats writes a point's repeats per arm: "5+5".
func FormatRepeats(baseline, candidate int) string { return fmt.Sprintf("%d+%d", baseline, candidate) }

func unmatchedRepeats(u compare.UnmatchedPoint) string {
	if u.Arm == "baseline" {
		return fmt.Sprintf("%d+0", len(u.Runs))
	}
	return fmt.Sprintf("0+%d", len(u.Runs))
}

// PointDeltas are a point's changes in the brief stage metrics (model.BriefMetrics), in
// order, each as ShortDelta writes it.
func PointDeltas(p compare.LoadPointResult) []string {
	var out []string
	for _, m := range model.BriefMetrics() {
		out = append(out, ShortDelta(p.Deltas[m.Key]))
	}
	return out
}

// PointVerdict is a point's status with its cause codes.
func PointVerdict(p compare.LoadPointResult) string {
	if len(p.Causes) == 0 {
		return string(p.Status)
	}
	codes := make([]string, len(p.Causes))
	for i, c := range p.Causes {
		codes[i] = string(c.Code)
	}
	return fmt.Sprintf("%s (%s)", p.Status, strings.Join(codes, ", "))
}
