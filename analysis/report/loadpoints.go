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
	fmt.Fprintln(tw, "point\trepeats\tTTFT\tTPOT\tITL\tout tok/s\tverdict\t")
	for _, p := range rec.LoadPoints {
		fmt.Fprintf(tw, "%s\t%d+%d\t%s\t%s\t%s\t%s\t%s\t\n", p.Label, p.Repeats.Baseline, p.Repeats.Candidate,
			ShortDelta(p.Deltas[model.TTFT]), ShortDelta(p.Deltas[model.TPOT]), ShortDelta(p.Deltas[model.ITL]),
			ShortDelta(p.Deltas["e2e_throughput"]), PointVerdict(p))
	}
	for _, u := range rec.Unmatched {
		fmt.Fprintf(tw, "%s\t%s\t\t\t\t\tunmatched (%s only)\t\n", u.Label, unmatchedRepeats(u), u.Arm)
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

// ShortDelta is a delta without its p and n: "-9.3%", "~ +0.4%", "-".
func ShortDelta(d compare.StageDelta) string {
	switch {
	case !d.Delta.Known():
		return "-"
	case !d.Significant:
		return fmt.Sprintf("~ %+.1f%%", d.Delta.F())
	}
	return fmt.Sprintf("%+.1f%%", d.Delta.F())
}
