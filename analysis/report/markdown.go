package report

import (
	"fmt"
	"io"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/internal/textsafe"
	"benchlens/model"
)

var checkMark = map[model.CheckState]string{model.CheckOK: "✅", model.CheckWarn: "⚠️", model.CheckFail: "❌"}

// Markdown writes a short summary per comparison to paste into a pull request: the title,
// the verdict (and the analyst's override with its reason), the causes, a stage table, the
// evidence checklist, the analyst's note and the rerun recipe; the footer names the
// benchlens that wrote it.
func Markdown(w io.Writer, entries []Entry) error {
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteString("\n---\n\n")
		}
		markdownEntry(&b, e)
	}
	if len(entries) > 0 {
		markdownFooter(&b, entries[0].Benchlens)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func markdownEntry(b *strings.Builder, e Entry) {
	r, a := e.Record, e.Annotation
	fmt.Fprintf(b, "## %s vs %s", mdInline(OrDash(r.Arms.Baseline.Label)), mdInline(OrDash(r.Arms.Candidate.Label)))
	if e.ID != 0 {
		fmt.Fprintf(b, " (comparison #%d)", e.ID)
	}
	b.WriteString("\n\n")
	if r.Benchlens != nil {
		fmt.Fprintf(b, "Judged by %s.\n\n", r.Benchlens)
	}
	fmt.Fprintf(b, "Baseline: %s (%s); candidate: %s (%s).\n\n",
		Count(len(r.Arms.Baseline.Runs), "run", "runs"), ids(r.Arms.Baseline.Runs), Count(len(r.Arms.Candidate.Runs), "run", "runs"), ids(r.Arms.Candidate.Runs))
	if a.StatusOverride != "" && a.StatusOverride != r.Status {
		fmt.Fprintf(b, "**Verdict: %s** (analyst override of the proposed `%s`", a.StatusOverride, r.Status)
		if a.OverrideReason != "" {
			fmt.Fprintf(b, ": %s", mdInline(a.OverrideReason))
		}
		b.WriteString(")\n")
	} else {
		fmt.Fprintf(b, "**Verdict: %s**\n", r.Status)
	}
	fmt.Fprintf(b, "\n%s\n", mdInline(HeadlineOf(r).String()))
	if len(r.Causes) > 0 {
		b.WriteString("\nCauses:\n\n")
		for _, c := range r.Causes {
			fmt.Fprintf(b, "- %s `%s`: %s\n", CauseWords(c.Code), c.Code, mdInline(c.Reason))
		}
	}

	if len(r.Perf) > 0 {
		b.WriteString("\n")
		markdownStages(b, r.Perf)
		b.WriteString("\n~ marks a change that is not significant; intervals in brackets.\n")
	}

	if len(r.LoadPoints) > 0 || len(r.Unmatched) > 0 {
		brief := model.BriefMetrics()
		b.WriteString("\n| load point | repeats |")
		for _, m := range brief {
			b.WriteString(" " + m.Short + " |")
		}
		b.WriteString(" verdict |\n|---|---:|" + strings.Repeat("---:|", len(brief)) + "---|\n")
		for _, p := range r.LoadPoints {
			fmt.Fprintf(b, "| %s | %d+%d | %s | %s |\n", mdInline(p.Label), p.Repeats.Baseline, p.Repeats.Candidate,
				strings.Join(PointDeltas(p), " | "), mdInline(PointVerdict(p)))
		}
		for _, u := range r.Unmatched {
			fmt.Fprintf(b, "| %s | %s |%s unmatched (%s only) |\n", mdInline(u.Label), unmatchedRepeats(u), strings.Repeat(" |", len(brief)), u.Arm)
		}
		if r.HoldsUnder != "" {
			fmt.Fprintf(b, "\nHolds under: %s.\n", mdInline(r.HoldsUnder))
		}
		// Each point's stages, as a comparison of one point shows them: never pooled.
		for i, p := range r.LoadPoints {
			fmt.Fprintf(b, "\nAt %s (%d+%d runs, %s):\n\n", mdInline(p.Label), p.Repeats.Baseline, p.Repeats.Candidate, p.Status)
			markdownStages(b, r.AtPoint(i).Perf)
		}
		if len(r.LoadPoints) > 0 {
			b.WriteString("\n~ marks a change that is not significant; intervals in brackets.\n")
		}
	}
	sloMarkdown(b, r)

	b.WriteString("\nEvidence:\n\n")
	for _, c := range r.Checklist() {
		mark := checkMark[c.State]
		if mark == "" {
			mark = string(c.State)
		}
		fmt.Fprintf(b, "- %s **%s**: %s", mark, c.Name, mdInline(c.Reason))
		if c.Hint != "" {
			fmt.Fprintf(b, " (next time: %s)", mdInline(c.Hint))
		}
		b.WriteString("\n")
	}

	if a.Note != "" || len(a.Tags) > 0 {
		b.WriteString("\n")
		if a.Note != "" {
			who := ""
			if a.Author != "" {
				who = " (" + mdInline(a.Author) + ")"
			}
			fmt.Fprintf(b, "**Note**%s:\n\n", who)
			for _, line := range strings.Split(strings.TrimRight(a.Note, "\n"), "\n") {
				fmt.Fprintf(b, "> %s\n", line)
			}
		}
		if len(a.Tags) > 0 {
			if a.Note != "" {
				b.WriteString("\n")
			}
			fmt.Fprintf(b, "Tags: %s\n", mdInline(strings.Join(a.Tags, ", ")))
		}
	}
	markdownRecipe(b, r.Reproduce)
}

// markdownStages is a stage table: each metric's medians, change with its interval, and test.
func markdownStages(b *strings.Builder, perf map[string]compare.StageDelta) {
	b.WriteString("| metric | baseline | candidate | delta | p |\n|---|---:|---:|---:|---:|\n")
	for _, k := range metricOrder(perf) {
		d := perf[k]
		delta, p := ShortDelta(d), "-"
		if iv := Interval(d); d.Delta.Known() && iv != "-" {
			delta += " " + iv
		}
		if d.P.Known() {
			p = "p" + P(d.P.F()) + fmt.Sprintf(" n=%d+%d", d.N[0], d.N[1])
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", k, value(d.Baseline, d.Unit), value(d.Candidate, d.Unit), delta, p)
	}
}

// mdInline keeps text on one line and stops it from breaking a table cell.
func mdInline(s string) string {
	s = strings.ReplaceAll(s, "\r", "")
	s = strings.ReplaceAll(s, "\n", " ")
	s = textsafe.Escape(s) // an escape sequence in a label never reaches a terminal raw
	return strings.ReplaceAll(s, "|", `\|`)
}
