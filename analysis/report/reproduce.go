package report

import (
	"fmt"
	"strings"

	"benchlens/analysis/reproduce"
	"benchlens/internal/version"
)

// SheetReproduce is the workbook sheet (and reproduce.csv the file) with every comparison's
// rerun recipe, one command or pin a row.
const SheetReproduce = "Reproduce"

func reproduceTable(entries []Entry) *table {
	t := &table{sheet: SheetReproduce, file: "reproduce.csv", cols: []column{
		{"comparison", kInt, 11}, {"title", kText, 24}, {"arm", kText, 10}, {"label", kText, 16}, {"kind", kText, 10},
		{"tool", kText, 30}, {"runs", kText, 14}, {"command_or_value", kText, 100}, {"notes", kText, 60},
	}}
	for _, e := range entries {
		r := e.Record.Reproduce
		for i, a := range []reproduce.Arm{r.Baseline, r.Candidate} {
			arm := [2]string{"baseline", "candidate"}[i]
			row := func(kind, tool, runs, text, notes string) {
				t.rows = append(t.rows, []any{e.ID, title(e), arm, a.Label, kind, tool, runs, text, notes})
			}
			for _, c := range a.Server {
				row("server", c.Tool, idList(c.Runs), c.Shell(), strings.Join(c.Notes, "; "))
			}
			for _, c := range a.Benchmark {
				row("benchmark", c.Tool, idList(c.Runs), c.Shell(), strings.Join(c.Notes, "; "))
			}
			for _, p := range a.Pins {
				row("pin", p.Name, "", p.Value, "")
			}
			if a.Warmup != "" {
				row("warmup", "", "", a.Warmup, "")
			}
		}
	}
	return t
}

func idList(xs []int64) string { return ids(xs) }

// markdownRecipe writes the recipe as a shell block under a heading.
func markdownRecipe(b *strings.Builder, r reproduce.Recipe) {
	if len(r.Baseline.Benchmark)+len(r.Candidate.Benchmark) == 0 {
		return
	}
	b.WriteString("\nReproduce (`benchlens reproduce` prints the same):\n\n```sh\n")
	b.WriteString(r.Script())
	b.WriteString("```\n")
}

// markdownFooter names the benchlens that wrote the summary.
func markdownFooter(b *strings.Builder, v version.Info) {
	if v.Version == "" {
		return
	}
	fmt.Fprintf(b, "\n---\n\n_Written by %s._\n", v)
}
