package report

import (
	"fmt"
	"io"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/analysis/history"
	"benchlens/internal/version"
	"benchlens/model"
)

// GateMarkdown writes a gate's summary for a pull-request comment: pass or fail with the
// threshold, each significantly worse stage, then the comparison's own summary (verdict,
// causes, stages, evidence checklist) as Markdown writes it.
func GateMarkdown(w io.Writer, g history.GateResult, rec compare.Record, build version.Info) error {
	var b strings.Builder
	if g.Fail {
		fmt.Fprintf(&b, "# ❌ benchlens gate: fail\n\n")
	} else {
		fmt.Fprintf(&b, "# ✅ benchlens gate: pass\n\n")
	}
	fmt.Fprintf(&b, "A stage fails the gate when it is significantly worse by more than %s %%.\n\n", trimFloat(g.MaxRegression))
	if len(g.Regressions) == 0 {
		b.WriteString("No stage is significantly worse.\n\n")
	} else {
		b.WriteString("| stage | load point | change | p | gate |\n|---|---|---|---|---|\n")
		for _, r := range g.Regressions {
			m, _ := model.StageMetricOf(r.Stage)
			verdict := "within the threshold"
			if r.Over {
				verdict = "**fails**"
			}
			fmt.Fprintf(&b, "| %s | %s | %+.1f %% | %.3g | %s |\n", m.Title, mdInline(OrDash(r.LoadPoint)), r.DeltaPct, r.P, verdict)
		}
		b.WriteString("\n")
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return Markdown(w, []Entry{{Record: rec, Benchlens: build}})
}

func trimFloat(f float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.2f", f), "0"), ".")
}
