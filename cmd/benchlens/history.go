package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/analysis/history"
	"benchlens/analysis/report"
	"benchlens/internal/textsafe"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// historyCmd prints a series' change points (METHOD.md rule 13), each explained by the
// comparison of its windows, with its outliers and condition changes.
func (c *cli) historyCmd(args []string) int {
	fs := c.flags("history", "SERIES [--stage S] [--format text|json] [--xlsx FILE] [--md FILE] [--png DIR]")
	stage := fs.String("stage", "", "only this metric ("+strings.Join(stageNames()[:len(stageNames())-3], ", ")+") or stage (prefill, decode, both)")
	format := fs.String("format", "text", "text or json")
	accept := fs.Int64("accept", 0, "accept the change points that start at this run (of --stage, when given): known steps")
	reject := fs.Int64("reject", 0, "reject the change points that start at this run (of --stage, when given)")
	note := fs.String("note", "", "the analyst's note with --accept or --reject")
	author := fs.String("author", os.Getenv("USER"), "who triages")
	xlsx := fs.String("xlsx", "", "also write the history as a workbook: History sheet with line charts, Change points")
	md := fs.String("md", "", "also write the history as Markdown")
	png := fs.String("png", "", "also write the series charts as PNG files into this folder, one per stage metric and load point")
	hset := history.DefaultSettings
	fs.Float64Var(&hset.Alpha, "series-alpha", hset.Alpha, "significance of a change point's permutation test (rule 13)")
	fs.Float64Var(&hset.MinMagnitude, "min-magnitude", hset.MinMagnitude, "relative change of the segment medians a step needs (0.02 = 2 %)")
	fs.IntVar(&hset.Window, "window", hset.Window, "runs each side a step is judged on")
	valued := map[string]bool{"stage": true, "format": true, "accept": true, "reject": true, "note": true, "author": true, "xlsx": true, "md": true, "png": true,
		"series-alpha": true, "min-magnitude": true, "window": true}
	if !c.parse(fs, interspersed(args, valued), oneArg) {
		return exitUsage
	}
	if err := hset.Validate(); err != nil {
		fmt.Fprintf(c.stderr, "benchlens: history: %v\n", err)
		return exitUsage
	}
	if *accept != 0 && *reject != 0 {
		fmt.Fprintln(c.stderr, "benchlens: history: --accept or --reject, not both")
		return exitUsage
	}
	if *format != "text" && *format != "json" {
		fs.Usage()
		return exitUsage
	}
	if *stage != "" && !knownStage(*stage) {
		fmt.Fprintf(c.stderr, "benchlens: history: unknown stage %q (%s)\n", *stage, strings.Join(stageNames(), ", "))
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int {
		set, err := library.Settings(st)
		if err != nil {
			return c.fail(err)
		}
		rep, err := library.History(st, fs.Arg(0), hset, set)
		if errors.Is(err, library.ErrUsage) {
			fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
			return exitUsage
		}
		if err != nil {
			return c.fail(err)
		}
		if *stage != "" {
			rep = rep.OnlyStage(*stage)
		}
		if run, state := max(*accept, *reject), map[bool]string{true: history.Accepted, false: history.Rejected}[*accept != 0]; run != 0 {
			n := 0
			for i := range rep.ChangePoints {
				cp := &rep.ChangePoints[i]
				if cp.FirstRun != run {
					continue
				}
				t, err := library.TriageChangePoint(st, rep.Series, *cp, state, *note, *author)
				if err != nil {
					return c.fail(err)
				}
				cp.Triage, n = &t, n+1
			}
			if n == 0 {
				return c.fail(fmt.Errorf("history: no change point of %s starts at run %d", rep.Series, run))
			}
			fmt.Fprintf(c.stderr, "%s %d change point(s) starting at run %d\n", state, n, run)
		}
		for _, out := range [][2]string{{"xlsx", *xlsx}, {"md", *md}} {
			if out[1] != "" {
				if err := library.ExportHistory(st, rep, out[0], out[1]); err != nil {
					return c.fail(err)
				}
			}
		}
		if *png != "" {
			shown, err := library.ExportHistoryCharts(st, rep, *png)
			if err != nil {
				return c.fail(err)
			}
			for _, f := range shown {
				fmt.Fprintf(c.stderr, "wrote %s\n", f)
			}
		}
		if *format == "json" {
			enc := json.NewEncoder(c.stdout)
			enc.SetIndent("", "  ")
			err = enc.Encode(rep)
		} else {
			err = historyText(c.stdout, rep)
		}
		if err != nil {
			return c.fail(err)
		}
		return exitOK
	})
}

// interspersed moves flags given after the positional argument in front of it, so
// `history nightly --format json` reads as users type it.
func interspersed(args []string, valued map[string]bool) []string {
	var flags, rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") && a != "-" {
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if valued[name] && !strings.Contains(name, "=") && i+1 < len(args) {
				flags = append(flags, args[i+1])
				i++
			}
			continue
		}
		rest = append(rest, a)
	}
	return append(flags, rest...)
}

func knownStage(s string) bool { return slices.Contains(stageNames(), s) || s == "throughput" }

// stageNames are what --stage takes: each metric's key (the SLO metrics' too), then each stage.
func stageNames() []string {
	var out []string
	for _, m := range append(slices.Clone(model.StageMetrics), history.SLOMetrics...) {
		out = append(out, m.Key)
	}
	return append(out, string(model.StagePrefill), string(model.StageDecode), string(model.StageBoth))
}

// historyText is the history for a terminal: the steps with their verdicts, the outliers and
// the condition changes that moved nothing.
func historyText(w io.Writer, rep history.Report) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "series %s: %s ordered by %s, %s\n", textsafe.Quote(rep.Series), report.Count(len(rep.Runs), "run", "runs"), rep.Order, report.Count(len(rep.LoadPoints), "load point", "load points"))
	if len(rep.ChangePoints) == 0 {
		b.WriteString("\nno change point\n")
	} else {
		fmt.Fprintf(&b, "\nchange points (%d):\n", len(rep.ChangePoints))
		for _, cp := range rep.ChangePoints {
			fmt.Fprintf(&b, "  %s\n", cp.Verdict)
			fmt.Fprintf(&b, "    %.4g → %.4g %s, p %.3g; windows: runs %s | %s", cp.Before, cp.After, cp.Unit, cp.P,
				library.Selector(cp.Windows.Before), library.Selector(cp.Windows.After))
			if cp.Triage != nil {
				fmt.Fprintf(&b, "; %s: %s", cp.Triage.State, cp.Triage.Note)
			}
			b.WriteString("\n")
		}
	}
	if len(rep.Outliers) > 0 {
		fmt.Fprintf(&b, "\noutliers (%d):\n", len(rep.Outliers))
		for _, o := range rep.Outliers {
			fmt.Fprintf(&b, "  run %d (%s) %s at %s: %.4g against a level of %.4g\n", o.Run, report.When(o.Date), o.Stage, o.LoadPoint, o.Value, o.Level)
		}
	}
	if len(rep.Timeline) > 0 {
		fmt.Fprintf(&b, "\ncondition changes (%d):\n", len(rep.Timeline))
		for _, t := range rep.Timeline {
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(t.Changed)) {
				parts = append(parts, fmt.Sprintf("%s %s → %s", k, t.Changed[k][0], t.Changed[k][1]))
			}
			moved := "nothing moved"
			if len(t.Steps) > 0 {
				moved = "steps: " + strings.Join(t.Steps, "; ")
			}
			fmt.Fprintf(&b, "  run %d (%s): %s (%s)\n", t.Run, report.When(t.Date), strings.Join(parts, ", "), moved)
		}
	}
	_, err := w.Write(b.Bytes())
	return err
}

// gateCmd is a CI gate: exit 1 when the candidate is significantly worse than the baseline
// in any stage by more than --max-regression percent, with a Markdown summary for the
// pull request on stdout (or --md FILE).
func (c *cli) gateCmd(args []string) int {
	fs := c.flags("gate", "--baseline SEL --candidate SEL [--max-regression PCT] [--md FILE]")
	base := fs.String("baseline", "", "baseline arm: a label or comma-separated run ids")
	cand := fs.String("candidate", "", "candidate arm: a label or comma-separated run ids")
	maxReg := fs.Float64("max-regression", 0, "percent a stage may be significantly worse and still pass")
	md := fs.String("md", "", "write the Markdown summary to this file instead of stdout")
	if !c.parse(fs, args, noArgs) {
		return exitUsage
	}
	if *base == "" || *cand == "" || *maxReg < 0 {
		fs.Usage()
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int {
		set, err := library.Settings(st)
		if err != nil {
			return c.fail(err)
		}
		rec, err := library.Compare(st, *base, *cand, set)
		if errors.Is(err, library.ErrUsage) {
			fmt.Fprintf(c.stderr, "benchlens: gate: %v\n", err)
			return exitUsage
		}
		if err != nil {
			return c.fail(err)
		}
		g := history.Gate(rec, *maxReg)
		var out bytes.Buffer
		if err := report.GateMarkdown(&out, g, rec, library.Version()); err != nil {
			return c.fail(err)
		}
		if *md != "" {
			if err := os.WriteFile(*md, out.Bytes(), 0o644); err != nil {
				return c.fail(err)
			}
		} else if _, err := c.stdout.Write(out.Bytes()); err != nil {
			return c.fail(err)
		}
		for _, r := range g.Regressions {
			if r.Over {
				m, _ := model.StageMetricOf(r.Stage)
				fmt.Fprintf(c.stderr, "gate: %s %s (p %.3g)%s exceeds %g %%\n", m.Short, compare.Pct(r.DeltaPct), r.P, at(r.LoadPoint), *maxReg)
			}
		}
		if g.Fail {
			return exitRejected
		}
		return exitOK
	})
}

func at(point string) string {
	if point == "" {
		return ""
	}
	return " at " + point
}
