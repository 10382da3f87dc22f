package compare

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"benchlens/analysis/shape"
	"benchlens/analysis/stats"
	"benchlens/model"
)

// traceCounts are one trace's overhead figures, per step when the trace marks steps.
type traceCounts struct {
	copies, launches, syncs, deviceUs float64
	perStep                           bool
}

func countsOf(t *model.TraceEvidence) traceCounts {
	c := traceCounts{
		copies:   float64(t.Copies["HtoD"].Count + t.Copies["DtoH"].Count),
		launches: float64(t.Launches.Count + t.GraphLaunches.Count),
		syncs:    float64(t.Syncs.Count),
		deviceUs: math.NaN(),
	}
	if t.BusyFraction.Known() && t.WindowUs > 0 {
		c.deviceUs = t.BusyFraction.F() * t.WindowUs
	}
	// A format that does not record a figure leaves it unmeasured, never zero.
	if !t.RecordsHostCalls() {
		c.launches, c.syncs = math.NaN(), math.NaN()
	}
	if !t.RecordsDeviceOps() {
		c.copies = math.NaN()
	}
	if t.Steps > 0 {
		n := float64(t.Steps)
		c.copies, c.launches, c.syncs = c.copies/n, c.launches/n, c.syncs/n
		// The busy time is measured over the window, which may leave out the first and last
		// step: divide by the steps in it.
		inWindow := n
		if t.WindowSteps > 0 {
			inWindow = float64(t.WindowSteps)
		}
		c.deviceUs /= inWindow
		c.perStep = true
	}
	return c
}

// armCounts is the median over the arm's traces of each figure.
func armCounts(a Arm) (traceCounts, int) {
	var cs []traceCounts
	for _, rd := range a.Runs {
		for _, t := range rd.Traces {
			cs = append(cs, countsOf(t))
		}
	}
	if len(cs) == 0 {
		return traceCounts{}, 0
	}
	pick := func(f func(traceCounts) float64) float64 {
		var xs []float64
		for _, c := range cs {
			if v := f(c); !math.IsNaN(v) {
				xs = append(xs, v)
			}
		}
		if len(xs) == 0 {
			return math.NaN()
		}
		return stats.Median(xs)
	}
	perStep := true
	for _, c := range cs {
		perStep = perStep && c.perStep
	}
	return traceCounts{
		copies:   pick(func(c traceCounts) float64 { return c.copies }),
		launches: pick(func(c traceCounts) float64 { return c.launches }),
		syncs:    pick(func(c traceCounts) float64 { return c.syncs }),
		deviceUs: pick(func(c traceCounts) float64 { return c.deviceUs }),
		perStep:  perStep,
	}, len(cs)
}

// overhead applies rule 5: copies, launches and syncs per step, per arm, and their growth.
func overhead(rec *Record, base, cand Arm, set Settings) {
	b, nb := armCounts(base)
	c, nc := armCounts(cand)
	if nb == 0 || nc == 0 {
		rec.Overhead = Overhead{Measured: false}
		for _, cd := range []*CountDelta{&rec.Overhead.ExtraCopy, &rec.Overhead.KernelLaunch, &rec.Overhead.ExtraSync, &rec.Overhead.DeviceTime} {
			*cd = CountDelta{model.Unknown, model.Unknown, model.Unknown}
		}
		return
	}
	delta := func(x, y float64) CountDelta {
		cd := CountDelta{numOrUnknown(x), numOrUnknown(y), numOrUnknown(y - x)}
		return cd
	}
	o := Overhead{Per: "trace"}
	if b.perStep && c.perStep {
		o.Per = "step"
	}
	o.ExtraCopy, o.KernelLaunch, o.ExtraSync = delta(b.copies, c.copies), delta(b.launches, c.launches), delta(b.syncs, c.syncs)
	o.DeviceTime = delta(b.deviceUs, c.deviceUs)
	o.Measured = o.ExtraCopy.Delta.Known() || o.KernelLaunch.Delta.Known() || o.ExtraSync.Delta.Known()
	o.Missing = unrecorded(base, cand)
	grew := func(x, y float64) bool { return y > x*(1+set.OverheadGrowth) && y-x >= 0.5 }
	o.Grew = grew(b.copies, c.copies) || grew(b.launches, c.launches) || grew(b.syncs, c.syncs)
	rec.Overhead = o
}

// unrecorded names the overhead figures the arms' trace formats leave out, with the formats:
// "launches and syncs (ascend-op-statistic)", or "".
func unrecorded(arms ...Arm) string {
	var host, ops []string
	for _, a := range arms {
		for _, rd := range a.Runs {
			for _, t := range rd.Traces {
				if !t.RecordsHostCalls() && !slices.Contains(host, t.Source) {
					host = append(host, t.Source)
				}
				if !t.RecordsDeviceOps() && !slices.Contains(ops, t.Source) {
					ops = append(ops, t.Source)
				}
			}
		}
	}
	var parts []string
	if len(ops) > 0 {
		parts = append(parts, "copies ("+strings.Join(ops, ", ")+")")
	}
	if len(host) > 0 {
		parts = append(parts, "launches and syncs ("+strings.Join(host, ", ")+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + ": not recorded by these trace formats"
}

func numOrUnknown(f float64) model.Num {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return model.Unknown
	}
	return model.Num(f)
}

// overheadReason spells out the growth for the offset_by_overhead cause.
func overheadReason(o Overhead) string {
	per := o.Per
	return fmt.Sprintf("copies %s -> %s, launches %s -> %s, syncs %s -> %s per %s",
		fmtCount(o.ExtraCopy.Baseline), fmtCount(o.ExtraCopy.Candidate),
		fmtCount(o.KernelLaunch.Baseline), fmtCount(o.KernelLaunch.Candidate),
		fmtCount(o.ExtraSync.Baseline), fmtCount(o.ExtraSync.Candidate), per)
}

func fmtCount(n model.Num) string {
	if !n.Known() {
		return "?"
	}
	return n.Readable()
}

// topOps merges the arm's traces' top device ops by total time.
func topOps(a Arm, n int) []model.OpStat {
	total := map[string]*model.OpStat{}
	for _, rd := range a.Runs {
		for _, t := range rd.Traces {
			for _, op := range t.TopOps {
				s := total[op.Name]
				if s == nil {
					s = &model.OpStat{Name: op.Name}
					total[op.Name] = s
				}
				s.Count += op.Count
				s.TimeUs += op.TimeUs
			}
		}
	}
	out := make([]model.OpStat, 0, len(total))
	for _, s := range total {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].TimeUs != out[j].TimeUs {
			return out[i].TimeUs > out[j].TimeUs
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// Remedies by the candidate's utilisation shape (METHOD.md, hotspot table).
var remedies = map[model.ShapeClass]string{
	model.ShapeSustainedHigh: "sustained high but slow: the device runs inefficient kernels on the changed operator path; change the kernel or the backend",
	model.ShapeIntermittent:  "intermittent with idle gaps: the bottleneck is host-side dispatch or synchronisation; fuse operators, cut launches and syncs",
	model.ShapeLow:           "low utilisation: the device mostly waits; look at the client load, the scheduler or the host before the kernels",
}

// armShape is the most common utilisation shape over the arm's devices, with the numbers,
// classified with the settings' idle threshold.
func armShape(a Arm, set Settings) (model.ShapeClass, []string) {
	th := shape.DefaultThresholds
	th.IdleBelow = set.IdleThreshold
	count := map[model.ShapeClass]int{}
	var detail []string
	for _, rd := range a.Runs {
		if len(rd.Util) == 0 {
			for _, t := range rd.Traces {
				if class, line := stepShape(t.StepTime, th); class != "" {
					count[class]++
					detail = append(detail, fmt.Sprintf("run %d %s", rd.Run.ID, line))
				}
			}
		}
		for _, u := range rd.Util {
			for _, d := range u.Devices {
				sh := shape.ClassifyRun(d, th)
				if len(d.Busy) == 0 && d.Shape != nil {
					sh = *d.Shape // only the shape was kept
				}
				if sh.Class == "" {
					continue
				}
				count[sh.Class]++
				gaps := fmt.Sprintf("%d idle gaps", sh.IdleGaps)
				if sh.IdleGaps > 0 && sh.LongGap > 0 {
					gaps += fmt.Sprintf(", %d of >= %g s: %.1f a minute", sh.LongGaps, sh.LongGap, sh.GapsPerMinute)
				}
				detail = append(detail, fmt.Sprintf("run %d device %s: %s (median busy %.0f%%, %.0f%% of samples under %.0f%% busy, %s)",
					rd.Run.ID, d.ID, sh.Class, sh.MedianBusy, 100*sh.IdleShare, th.IdleBelow, gaps))
			}
		}
	}
	best, n := model.ShapeClass(""), 0
	for _, k := range model.ShapeClasses {
		if count[k] > n {
			best, n = k, count[k]
		}
	}
	return best, detail
}

// stepShape is rule 8's shape from a profiler's step split when no utilisation trace is
// attached (torch_npu's step_trace_time.csv): the device idle for a Free share of its steps of
// at least the intermittent idle share is waiting for the host (intermittent); otherwise its
// busy share is a median busy %, low or sustained high by the same thresholds.
func stepShape(st *model.StepTime, th shape.Thresholds) (model.ShapeClass, string) {
	if st == nil || st.Columns["Stage"] <= 0 && st.FreeShare == 0 {
		return "", ""
	}
	busy := 100 * (1 - st.FreeShare)
	class := model.ShapeIntermittent
	switch {
	case busy < th.LowBelow:
		class = model.ShapeLow
	case st.FreeShare >= th.IntermittentIdleShare:
		class = model.ShapeIntermittent // host-bound: the device waits for work inside its steps
	case busy >= th.HighAbove:
		class = model.ShapeSustainedHigh
	}
	bound := ""
	if class == model.ShapeIntermittent {
		bound = ": host-bound"
	}
	return class, fmt.Sprintf("step split (%s): %s (device busy %.0f%% of its steps, Free %.1f%%%s)", st.Source, class, busy, 100*st.FreeShare, bound)
}

// hotspot applies rules 3 (hotspot moved) and 8 (shape and remedy).
func hotspot(rec *Record, base, cand Arm, set Settings) {
	h := Hotspot{Moved: "unverified"}
	bs, bd := armShape(base, set)
	cs, cd := armShape(cand, set)
	h.DeviceUtilTrace = ArmValues{string(bs), string(cs)}
	h.Remedy = remedies[cs]
	h.ShapeDetail = append(prefix("baseline ", bd), prefix("candidate ", cd)...)
	h.TopOps.Baseline, h.TopOps.Candidate = topOps(base, 5), topOps(cand, 5)
	if bd, cd := traceDevices(base), traceDevices(cand); bd != "" && cd != "" && bd != cd {
		rec.Warnings = append(rec.Warnings, model.Warn(model.WarnTraceDevices, bd, cd))
	}
	if len(h.TopOps.Baseline) > 0 && len(h.TopOps.Candidate) > 0 {
		h.Moved = "no"
		if !sameTop(h.TopOps.Baseline, h.TopOps.Candidate, 3) || familyShareMoved(rec.Families) {
			h.Moved = "yes"
		}
	}
	rec.Hotspot = h
}

func prefix(p string, xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = p + x
	}
	return out
}

// sameTop reports whether the k largest ops are the same set on both sides.
func sameTop(a, b []model.OpStat, k int) bool {
	set := map[string]bool{}
	for i := 0; i < k && i < len(a); i++ {
		set[a[i].Name] = true
	}
	for i := 0; i < k && i < len(b); i++ {
		if !set[b[i].Name] {
			return false
		}
	}
	return min(k, len(a)) == min(k, len(b))
}

// traceDevices names the device models an arm's traces ran on (ranks left out).
func traceDevices(a Arm) string {
	seen := map[string]bool{}
	for _, rd := range a.Runs {
		for _, t := range rd.Traces {
			if d := strings.TrimSpace(rankSuffix.ReplaceAllString(t.Device, "")); d != "" {
				seen[d] = true
			}
		}
	}
	return strings.Join(slices.Sorted(maps.Keys(seen)), ", ")
}

var rankSuffix = regexp.MustCompile(` rank \d+$`)
