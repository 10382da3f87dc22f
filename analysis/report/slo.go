package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"benchlens/analysis/compare"
	"benchlens/analysis/slo"
	"benchlens/model"
)

// The SLO section of a comparison (METHOD.md rule 14) for people: per point each arm's
// attainment and goodput with their changes, the capacity under the SLO, the Pareto frontier
// and the saturated points. The text report, Markdown, CSV and the workbook all write it
// from here.

// Share prints an attainment (0-1) as a percentage: "62 %", "-" when unknown.
func Share(n model.Num) string {
	if !n.Known() {
		return "-"
	}
	return fmt.Sprintf("%.0f %%", 100*n.F())
}

// SLODelta prints a change of attainment or goodput benchstat's way: "+30.0 pp (p=0.0117
// n=5+5)", "~ +2.1%" when not significant, "-" when unknown.
func SLODelta(d slo.Delta) string {
	if !d.Delta.Known() {
		return "-"
	}
	unit := " %"
	if d.Unit == "pp" {
		unit = " pp"
	}
	s := compare.Signed(d.Delta.F()) + unit
	if !d.Significant {
		s = "~ " + s
	}
	if d.P.Known() {
		s += fmt.Sprintf(" (p%s n=%d+%d)", P(d.P.F()), d.N[0], d.N[1])
	}
	return s
}

// SLOInterval prints a delta's interval: "[+26.0, +36.0] pp".
func SLOInterval(d slo.Delta) string {
	if !d.CILow.Known() || !d.CIHigh.Known() {
		return ""
	}
	unit := " %"
	if d.Unit == "pp" {
		unit = " pp"
	}
	return "[" + compare.Signed(d.CILow.F()) + ", " + compare.Signed(d.CIHigh.F()) + "]" + unit
}

// ArmSLO prints one arm's attainment at a point with its range over the repeats and its
// goodput: "62 % [58-64] · 3.1 req/s", or why it is not computable.
func ArmSLO(a slo.ArmPoint) string {
	if !a.Attainment.Median.Known() {
		return "not computable"
	}
	s := Share(a.Attainment.Median)
	if a.Attainment.Min != a.Attainment.Max {
		s += fmt.Sprintf(" [%.0f-%.0f]", 100*a.Attainment.Min.F(), 100*a.Attainment.Max.F())
	}
	if a.Goodput.Median.Known() {
		s += " · " + a.Goodput.Median.Readable() + " req/s"
	}
	if a.Saturated {
		s += " (saturated)"
	}
	return s
}

// CapacityText says each arm's capacity under the SLO and their change:
// "concurrency 7.16 [6.4, 7.33] → 16.5 [13.6, 17.5]: +131 % [+98, +166]".
func CapacityText(c *slo.Capacity) string {
	if c == nil {
		return ""
	}
	axis := strings.ReplaceAll(c.Axis, "_", " ")
	s := fmt.Sprintf("%s %s → %s", axis, c.Baseline.Text(), c.Candidate.Text())
	if c.Unit != "" {
		s += " " + c.Unit
	}
	if c.Delta.Known() {
		s += fmt.Sprintf(": %+.0f %%", c.Delta.F())
		if c.CILow.Known() && c.CIHigh.Known() {
			s += fmt.Sprintf(" [%+.0f, %+.0f]", c.CILow.F(), c.CIHigh.F())
		}
	}
	if c.Note != "" {
		s += " (" + c.Note + ")"
	}
	return s
}

// SLOHeadline is the change a verdict can rest on in a service owner's terms: "SLO
// attainment 51 → 75 % at c=1–8, p=0.008"; ok false when attainment changed nowhere.
func SLOHeadline(sec *slo.Section) (string, bool) {
	if sec == nil {
		return "", false
	}
	g, ok := sec.Gain()
	if !ok {
		return "", false
	}
	return fmt.Sprintf("SLO attainment %.0f → %.0f %% at %s, p%s", 100*g.Baseline, 100*g.Candidate, g.Where, P(g.P)), true
}

// frontierLabels names an arm's points on its Pareto frontier along the sweep's axis.
func frontierLabels(sec *slo.Section, ps []slo.ParetoPoint) string {
	var out []string
	for _, p := range ps {
		if p.Frontier {
			out = append(out, p.Label)
		}
	}
	return sec.Where(out)
}

// ParetoText names each arm's points on its Pareto frontier: "(output tok/s per GPU against
// tok/s per user): baseline c=1–16; candidate c=1–16"; "" for fewer than two points.
func ParetoText(sec *slo.Section) string {
	pr := sec.Pareto
	if pr == nil || len(sec.Points) < 2 {
		return ""
	}
	per := "per GPU"
	if !pr.PerGPUKnown {
		per = "per server (GPU count unknown)"
	}
	return fmt.Sprintf("(output tok/s %s against tok/s per user): baseline %s; candidate %s",
		per, frontierLabels(sec, pr.Baseline), frontierLabels(sec, pr.Candidate))
}

// sloText writes the section in the text report.
func sloText(w io.Writer, rec compare.Record) {
	sec := rec.SLO
	if sec == nil {
		saturatedText(w, rec)
		return
	}
	fmt.Fprintf(w, "\nSLO %s (capacity at attainment >= %.0f %%; deltas with p < alpha, ~ otherwise)\n", sec.Objective, 100*sec.Target)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "point\tbaseline\tcandidate\tattainment\tinterval\tgoodput\t")
	for _, p := range sec.Points {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", p.Label, ArmSLO(p.Baseline), ArmSLO(p.Candidate),
			SLODelta(p.Attainment), SLOInterval(p.Attainment), SLODelta(p.Goodput))
	}
	tw.Flush()
	if h, ok := SLOHeadline(sec); ok {
		fmt.Fprintf(w, "change: %s\n", h)
	}
	if sec.Binding != "" {
		fmt.Fprintf(w, "binding limit: %s\n", sec.Binding)
	}
	if c := CapacityText(sec.Capacity); c != "" {
		fmt.Fprintf(w, "capacity under the SLO: %s\n", c)
	}
	if pr := ParetoText(sec); pr != "" {
		fmt.Fprintf(w, "Pareto frontier %s\n", pr)
	}
	for _, n := range sec.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	saturatedText(w, rec)
}

// saturatedText lists the saturated points.
func saturatedText(w io.Writer, rec compare.Record) {
	for _, s := range rec.Saturated {
		fmt.Fprintf(w, "saturated: %s (%s): %s\n", s.Label, s.Arm, strings.Join(s.Reasons, "; "))
	}
}

// sloMarkdown writes the section in the Markdown summary.
func sloMarkdown(b *strings.Builder, rec compare.Record) {
	sec := rec.SLO
	if sec == nil {
		return
	}
	fmt.Fprintf(b, "\nSLO `%s`", sec.Objective)
	if h, ok := SLOHeadline(sec); ok {
		fmt.Fprintf(b, ": **%s**", mdInline(h))
	}
	b.WriteString("\n\n| point | baseline | candidate | attainment | goodput |\n|---|---:|---:|---:|---:|\n")
	for _, p := range sec.Points {
		fmt.Fprintf(b, "| %s | %s | %s | %s %s | %s |\n", mdInline(p.Label), ArmSLO(p.Baseline), ArmSLO(p.Candidate),
			SLODelta(p.Attainment), SLOInterval(p.Attainment), SLODelta(p.Goodput))
	}
	if sec.Binding != "" {
		fmt.Fprintf(b, "\nBinding limit: %s.\n", mdInline(sec.Binding))
	}
	if c := CapacityText(sec.Capacity); c != "" {
		fmt.Fprintf(b, "\nCapacity under the SLO (attainment ≥ %.0f %%): %s.\n", 100*sec.Target, mdInline(c))
	}
	for _, n := range sec.Notes {
		fmt.Fprintf(b, "\n> %s\n", mdInline(n))
	}
}

// SheetSLO holds, per comparison with an SLO, each matched point's attainment and goodput per
// arm with their changes, and native charts of attainment against load and of the Pareto plane.
const SheetSLO = "SLO"

// Columns of the SLO sheet the charts read (1-based, as sheetRange takes them).
const (
	sloLoad     = 4
	sloBaseAtt  = 5
	sloCandAtt  = 8
	sloBaseGPU  = 19
	sloBaseUser = 20
	sloCandGPU  = 21
	sloCandUser = 22
)

var sloCols = []column{
	{"comparison", kInt, 11}, {"slo", kText, 20}, {"load point", kText, 24}, {"load", kNum, 0},
	{"baseline.attainment", kShare, 0}, {"baseline.attainment.min", kShare, 0}, {"baseline.attainment.max", kShare, 0},
	{"candidate.attainment", kShare, 0}, {"candidate.attainment.min", kShare, 0}, {"candidate.attainment.max", kShare, 0},
	{"attainment.delta_pp", kPP, 0}, {"attainment.ci_low_pp", kPP, 0}, {"attainment.ci_high_pp", kPP, 0},
	{"attainment.p", kP, 0}, {"attainment.significant", kBool, 0},
	{"baseline.goodput", kReqS, 0}, {"candidate.goodput", kReqS, 0}, {"goodput.delta_pct", kPct, 0},
	{"baseline.output_tok_s_per_gpu", kTokS, 0}, {"baseline.output_tok_s_per_user", kTokS, 0},
	{"candidate.output_tok_s_per_gpu", kTokS, 0}, {"candidate.output_tok_s_per_user", kTokS, 0},
	{"baseline.saturated", kBool, 0}, {"candidate.saturated", kBool, 0},
	{"binding", kText, 40}, {"capacity", kText, 40}, {"capacity.delta_pct", kPct, 0},
}

// hasSLO reports whether any entry was judged against an SLO.
func hasSLO(entries []Entry) bool {
	for _, e := range entries {
		if e.Record.SLO != nil && len(e.Record.SLO.Points) > 0 {
			return true
		}
	}
	return false
}

// sloTable is one row per point of every comparison with an SLO.
func sloTable(entries []Entry) (*table, []rowSpan) {
	t := &table{sheet: SheetSLO, file: "slo.csv", cols: sloCols}
	var spans []rowSpan
	for i, e := range entries {
		sec := e.Record.SLO
		if sec == nil || len(sec.Points) == 0 {
			continue
		}
		_, _, loadOf := loadAxis(sec)
		capText, capDelta := CapacityText(sec.Capacity), model.Unknown
		if sec.Capacity != nil {
			capDelta = sec.Capacity.Delta
		}
		sp := rowSpan{index: i, entry: e, first: len(t.rows) + 2}
		for _, p := range sec.Points {
			b, c := p.Baseline, p.Candidate
			t.rows = append(t.rows, []any{e.ID, sec.Objective, p.Label, loadOf(p),
				b.Attainment.Median, b.Attainment.Min, b.Attainment.Max,
				c.Attainment.Median, c.Attainment.Min, c.Attainment.Max,
				p.Attainment.Delta, p.Attainment.CILow, p.Attainment.CIHigh, p.Attainment.P, p.Attainment.Significant,
				b.Goodput.Median, c.Goodput.Median, p.Goodput.Delta,
				b.PerGPU.Median, b.PerUser.Median, c.PerGPU.Median, c.PerUser.Median,
				b.Saturated, c.Saturated, sec.Binding, capText, capDelta})
		}
		sp.last = len(t.rows) + 1
		spans = append(spans, sp)
	}
	return t, spans
}

// loadAxis is the sweep's load axis for the charts: its name and each point's value on it
// (concurrency when the points differ in it, else the request rate).
func loadAxis(sec *slo.Section) (string, bool, func(slo.Point) model.Num) {
	if sec.Capacity != nil && sec.Capacity.Axis == "request_rate" {
		return "request rate (req/s)", true, func(p slo.Point) model.Num { return p.Load.RequestRate }
	}
	if sec.Capacity != nil {
		return "concurrency", true, func(p slo.Point) model.Num { return p.Load.MaxConcurrency }
	}
	return "concurrency", false, func(p slo.Point) model.Num { return p.Load.MaxConcurrency }
}
