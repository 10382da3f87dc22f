package history

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Explain judges a change point by the whole method (rules 1-12) on its windows: the runs
// before the step as the baseline arm, the runs after as the candidate (rule 13). What
// differs between the windows is the step's evidence (Changed, Evidence) and the comparison's
// verdict and causes are the step's. The arms' runs must be the windows' runs, with their
// per-request samples and evidence.
func Explain(cp *ChangePoint, before, after compare.Arm, set compare.Settings) {
	rec := compare.Compare(before, after, set)
	cp.Record = &rec
	cp.Status = rec.Status
	cp.Causes = append([]compare.Cause{}, rec.Causes...)
	cp.Changed = Changed(rec)
	cp.Evidence = fallbackLines(after)
	cp.Verdict = verdictLine(*cp)
}

// Changed is what differs between a comparison's arms: conditions (stack, hardware, node,
// engine config, load), the attention path (target, resolved, the kernels'), overhead that
// grew and kernel families whose share moved, each as [before, after].
func Changed(rec compare.Record) map[string][2]string {
	out := map[string][2]string{}
	add := func(name string, f compare.Field) {
		if f.State == model.ConditionDiffers {
			out[name] = [2]string{f.Baseline, f.Candidate}
		}
	}
	for _, sec := range []map[string]compare.Field{rec.StackFingerprint, rec.Node, rec.EngineConfig} {
		for k, f := range sec {
			add(k, f)
		}
	}
	add("hardware_sku", rec.HardwareSKU)
	for k, f := range rec.Workload {
		if k != "repeat_count" { // windows of unequal size are not a condition
			add(k, f)
		}
	}
	for name, v := range map[string]compare.ArmValues{"target_backend": rec.Path.TargetBackend,
		"resolved_backend": rec.Path.ResolvedBackend, "kernel_backend": rec.Path.KernelBackend} {
		if v.Baseline != v.Candidate && v.Baseline != "" && v.Candidate != "" {
			out[name] = [2]string{v.Baseline, v.Candidate}
		}
	}
	if o := rec.Overhead; o.Measured && o.Grew {
		for name, c := range map[string]compare.CountDelta{"extra_copy": o.ExtraCopy, "kernel_launch": o.KernelLaunch, "extra_sync": o.ExtraSync} {
			if c.Baseline.Known() && c.Candidate.Known() && c.Candidate.F() > c.Baseline.F()*(1+rec.Settings.OverheadGrowth) {
				out["overhead."+name] = [2]string{model.FormatNum(c.Baseline), model.FormatNum(c.Candidate)}
			}
		}
	}
	if rec.Families != nil {
		for _, row := range rec.Families.Rows {
			if math.Abs(row.Candidate.Share-row.Baseline.Share) >= familyShareMove {
				out["family."+row.Family] = [2]string{pct(row.Baseline.Share), pct(row.Candidate.Share)}
			}
		}
	}
	return out
}

// familyShareMove is how far a kernel family's share of device time must move between the
// windows to be listed as changed (0.05 = five points).
const familyShareMove = 0.05

func pct(share float64) string { return fmt.Sprintf("%.0f %%", 100*share) }

// fallbackLines are the later window's fallback and guard lines, once each: why a target was
// not hit, quoted with the run and line.
func fallbackLines(a compare.Arm) []compare.EvidenceLine {
	var out []compare.EvidenceLine
	seen := map[string]int{}
	for _, rd := range a.Runs {
		for _, l := range rd.Logs {
			for _, fb := range l.Fallbacks {
				if k, ok := seen[fb.Text]; ok {
					out[k].Runs++
					continue
				}
				seen[fb.Text] = len(out)
				out = append(out, compare.EvidenceLine{Arm: "after", Run: rd.Run.ID, Line: fb.N, Text: fb.Text, Runs: 1})
			}
		}
	}
	return out
}

// Which condition names lead the verdict line, in this order; the rest follow by name.
var leading = []string{"engine_version", "driver_version", "base_stack_version", "hardware_sku",
	"target_backend", "resolved_backend", "kernel_backend"}

// verdictLine says the step in one line: "TPOT +9.3 % at concurrency 16 from 2026-11-19
// (run 41): engine_version vLLM 0.13.0 → 0.14.0, resolved_backend FLASH_ATTN → TRITON_ATTN
// (fallback, line 88: "…"); windows: not_established (environment_differs)".
func verdictLine(cp ChangePoint) string {
	m, _ := MetricOf(cp.Stage)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %+.1f %% at %s from %s (run %d)", m.Short, cp.DeltaPct, cp.LoadPoint, day(cp.FirstDate), cp.FirstRun)
	keys := slices.Sorted(maps.Keys(cp.Changed))
	slices.SortStableFunc(keys, func(a, b string) int { return rank(a) - rank(b) })
	if len(keys) == 0 {
		b.WriteString(": no condition differs between the windows")
	} else {
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + " " + cp.Changed[k][0] + " → " + cp.Changed[k][1]
		}
		b.WriteString(": " + strings.Join(parts, ", "))
	}
	if len(cp.Evidence) > 0 {
		e := cp.Evidence[0]
		msg := e.Text
		if i := strings.Index(msg, "] "); i >= 0 { // the log's own prefix: process, level, time, file
			msg = msg[i+2:]
		}
		fmt.Fprintf(&b, " (fallback, run %d line %d: %q)", e.Run, e.Line, msg)
	}
	codes := make([]string, len(cp.Causes))
	for i, c := range cp.Causes {
		codes[i] = string(c.Code)
	}
	if cp.Status != "" {
		fmt.Fprintf(&b, "; windows: %s", cp.Status)
		if len(codes) > 0 {
			fmt.Fprintf(&b, " (%s)", strings.Join(codes, ", "))
		}
	}
	return b.String()
}

func rank(k string) int {
	if i := slices.Index(leading, k); i >= 0 {
		return i
	}
	return len(leading)
}

// day is a date's calendar day ("2026-11-19"), the text itself when it is not ISO 8601.
func day(date string) string {
	if len(date) >= 10 && date[4] == '-' && date[7] == '-' {
		return date[:10]
	}
	return date
}
