// Package report writes comparison records for people and other programs: the text report
// `compare` prints (Text), the YAML and JSON record, CSV tables (CSV) and the xlsx workbook
// with its native charts (XLSX), and the Markdown summary for a pull request (Markdown). It
// takes Entry values (a saved record with its annotations and runs, which library reads) and
// renders them; the verdict, causes and figures are the record's, never decided here. No
// Fyne, no database.
//
// A stage metric appears in every table by its row in model.StageMetrics. A new table is a
// builder listed in tables (tables.go): CSV writes it as a file and XLSX as a sheet.
package report

import (
	"benchlens/internal/textsafe"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Text writes a readable report: a benchstat-style table per stage with p and n beside every
// delta and ~ where the change is not significant, the buckets, the evidence checklist, and
// the verdict with its causes.
func Text(w io.Writer, rec compare.Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "baseline:  %s (%s: %s)\n", textsafe.Quote(rec.Arms.Baseline.Label), Count(len(rec.Arms.Baseline.Runs), "run", "runs"), ids(rec.Arms.Baseline.Runs))
	fmt.Fprintf(&b, "candidate: %s (%s: %s)\n", textsafe.Quote(rec.Arms.Candidate.Label), Count(len(rec.Arms.Candidate.Runs), "run", "runs"), ids(rec.Arms.Candidate.Runs))
	fmt.Fprintf(&b, "headline:  %s: %s\n\n", rec.Status, HeadlineOf(rec))

	if len(rec.LoadPoints) > 0 {
		// A sweep is judged point by point: pooling unlike loads would mislead.
		loadPointRows(&b, rec)
		for i, p := range rec.LoadPoints {
			fmt.Fprintf(&b, "\nat %s (%s runs, %s)\n", p.Label, FormatRepeats(p.Repeats.Baseline, p.Repeats.Candidate), p.Status)
			stageTables(&b, rec.AtPoint(i))
		}
	} else {
		stageTables(&b, rec)
		if len(rec.Unmatched) > 0 { // the points of arms that share none
			b.WriteString("\n")
			loadPointRows(&b, rec)
		}
	}

	sloText(&b, rec)
	familiesText(&b, rec.Families)

	fmt.Fprintln(&b, "\nevidence")
	for _, c := range rec.Checklist() {
		fmt.Fprintf(&b, "  %-4s %-12s %s\n", map[model.CheckState]string{model.CheckOK: "ok", model.CheckWarn: "??", model.CheckFail: "!!"}[c.State], c.Name, c.Reason)
		if c.Hint != "" {
			fmt.Fprintf(&b, "  %-4s %-12s next time: %s\n", "", "", c.Hint)
		}
	}

	fmt.Fprintf(&b, "\nverdict: %s\n", rec.Status)
	for _, c := range rec.Causes {
		fmt.Fprintf(&b, "  %s: %s\n", CauseLabel(c.Code), c.Reason)
	}
	for _, n := range rec.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	for _, w := range SortedWarnings(rec.Warnings) {
		fmt.Fprintf(&b, "  warning: %s\n", w.English())
	}
	if len(rec.Path.Evidence) > 0 {
		fmt.Fprintln(&b, "\nbackend lines")
		for _, l := range rec.Path.Evidence {
			fmt.Fprintf(&b, "  %s run %d", l.Arm, l.Run)
			if l.File != "" {
				fmt.Fprintf(&b, ", %s", l.File)
			}
			if l.Line > 0 {
				fmt.Fprintf(&b, ", line %d", l.Line)
			}
			if l.Runs > 1 {
				fmt.Fprintf(&b, " (and %d more runs)", l.Runs-1)
			}
			fmt.Fprintf(&b, ":\n    %s\n", l.Text)
		}
	}
	fmt.Fprintln(&b, "\nreproduce (benchlens reproduce prints it as a shell script)")
	for _, line := range strings.Split(strings.TrimRight(rec.Reproduce.Script(), "\n"), "\n") {
		if line == "" {
			b.WriteString("\n")
			continue
		}
		fmt.Fprintf(&b, "  %s\n", line)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// stageTables writes the stage table and the input-length buckets.
func stageTables(b *strings.Builder, rec compare.Record) {
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	rows := 0
	for _, m := range model.StageMetrics {
		d, ok := rec.Perf[m.Key]
		if !ok || !d.Baseline.Known() {
			continue
		}
		if rows == 0 { // no header over no stage: arms that share no load point compare none
			fmt.Fprintln(tw, "stage\tbaseline\tcandidate\tdelta\tinterval\t")
		}
		rows++
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t\n", m.Title, value(d.Baseline, d.Unit), value(d.Candidate, d.Unit), Delta(d), interval(d))
	}
	tw.Flush()
	if rows == 0 {
		fmt.Fprintln(b, "no stage compared")
	}
	if perRequest(rec) {
		fmt.Fprintln(b, "(one run per arm: medians and intervals over requests, n = requests or gaps)")
	}

	if len(rec.Buckets.Rows) > 0 {
		fmt.Fprintf(b, "\nby input length (Holm-adjusted p)")
		if !rec.Buckets.OneLength && len(rec.Buckets.Edges) == 2 {
			fmt.Fprintf(b, ": short <= %.0f < mixed (all) < %.0f < long tokens", rec.Buckets.Edges[0], rec.Buckets.Edges[1])
		}
		fmt.Fprintln(b)
		tw = tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
		stages := model.BucketMetrics()
		fmt.Fprint(tw, "bucket\t")
		for _, m := range stages {
			fmt.Fprint(tw, m.Short, "\t")
		}
		fmt.Fprintln(tw)
		for _, row := range rec.Buckets.Rows {
			fmt.Fprint(tw, row.Bucket, "\t")
			for _, m := range stages {
				fmt.Fprint(tw, Delta(row.Stages[m.Key]), "\t")
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
}

func perRequest(rec compare.Record) bool {
	for _, d := range rec.Perf {
		if d.PerRequest && d.P.Known() {
			return true
		}
	}
	return false
}

func ids(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, ",")
}

func value(n model.Num, unit string) string {
	return n.Readable() + " " + unit
}

// Delta prints a stage delta benchstat's way, in the app's number format: "−9.3 % (p=0.008
// n=5+5)", or "~ +0.4 % …" when the change is not significant.
func Delta(d compare.StageDelta) string {
	s := ShortDelta(d)
	if d.Delta.Known() && d.P.Known() {
		s += fmt.Sprintf(" (p%s n=%d+%d)", P(d.P.F()), d.N[0], d.N[1])
	}
	return s
}

// interval is Interval, left blank when there is none.
func interval(d compare.StageDelta) string {
	if s := Interval(d); s != "-" {
		return s
	}
	return ""
}

// P prints a p-value after "p": "=0.0079" (three significant digits) or "<0.001".
func P(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmt.Sprintf("=%.3g", p)
}
