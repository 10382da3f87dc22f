package report

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"benchlens/internal/textsafe"
	"benchlens/model"
)

// An EvidenceSection is what one attached file says of a run: its kind, the heading naming
// its format and file, and the text below it. `show RUN` prints every section and the app's
// Run view draws the same sections, so the two never tell a run's evidence differently.
type EvidenceSection struct {
	Kind string // "server log", "utilisation", "profiler trace", "environment", "server metrics"
	Text string
}

// Evidence is the evidence part of a run's detail: per server log its stack, the target (as
// model.TargetOf decides it from the manifest, this log and the dumps) and what was resolved,
// with the lines that say so; per utilisation trace each device's shape and the numbers behind
// it; per profiler trace its overhead counts, its device time by operator family and the
// attention kernels it ran; per dump its facts with their lines; and what each reader warned
// of. Text taken from a file is quoted like every other name.
func Evidence(evs []model.Evidence, m model.Manifest) []EvidenceSection {
	fp := model.FingerprintOf(evs)
	var out []EvidenceSection
	for _, e := range evs {
		var b strings.Builder
		if kind := writeSection(&b, e, m, fp); kind != "" {
			out = append(out, EvidenceSection{Kind: kind, Text: strings.TrimPrefix(b.String(), "\n")})
		}
	}
	return out
}

// WriteEvidence prints every section, each after a blank line, as `show RUN` does.
func WriteEvidence(w io.Writer, evs []model.Evidence, m model.Manifest) {
	for _, s := range Evidence(evs, m) {
		fmt.Fprint(w, "\n"+s.Text)
	}
}

// writeSection prints one file's section and returns its kind, "" for evidence of no kind.
func writeSection(w io.Writer, e model.Evidence, m model.Manifest, fp model.Fingerprint) string {
	var kind string
	switch {
	case e.Log != nil:
		kind = "server log"
		writeLog(w, heading(kind, e), e.Log, model.TargetOf(m, model.TargetClaims([]*model.LogEvidence{e.Log}, fp)))
	case e.Utilisation != nil:
		kind = "utilisation"
		writeUtilisation(w, heading(kind, e), e.Utilisation)
	case e.Trace != nil:
		kind = "profiler trace"
		writeTrace(w, heading(kind, e), e.Trace)
	case e.Environment != nil:
		kind = "environment"
		writeEnvironment(w, heading(kind, e), e.Environment)
	case e.ServerMetrics != nil:
		kind = "server metrics"
		writeServerMetrics(w, heading(kind, e), e.ServerMetrics)
	default:
		return ""
	}
	writeFacts(w, e.Facts)
	for _, warn := range SortedWarnings(e.Warnings) {
		fmt.Fprintf(w, "  warning: %s\n", q(warn.English()))
	}
	return kind
}

// heading starts an evidence section: its kind, its format and the file it was read from
// ("profiler trace (kineto), run-1/trace.json").
func heading(kind string, e model.Evidence) string {
	h := fmt.Sprintf("%s (%s)", kind, q(e.Format))
	if e.File != "" {
		h += ", " + q(e.File)
	}
	return h
}

func writeLog(w io.Writer, head string, l *model.LogEvidence, t model.Target) {
	fmt.Fprintf(w, "\n%s\n", head)
	if l.Client != nil {
		fmt.Fprintf(w, "  a benchmark client's console (line %d: %s): nothing in it is the server's\n", l.Client.N, q(clipped(l.Client.Text, 60)))
		return
	}
	if l.Engine == "" && t.Backend == "" && l.Resolved == "" && len(l.ServerFailure) == 0 && l.Failure == nil && len(l.Fallbacks) == 0 {
		fmt.Fprintf(w, "  no line a server wrote (no engine, version or backend)\n")
		return
	}
	fmt.Fprintf(w, "  %s\n", q(strings.Join(nonEmpty(l.EngineVersion(), l.Platform), " ")))
	resolved := q(OrDash(l.Resolved))
	if l.ResolvedHow == model.ResolvedInferred {
		resolved = "not in the log (" + resolved + " inferred)"
	}
	status := l.Status
	if t.Backend != l.TargetBackend {
		status = l.StatusFor(t.Backend)
	}
	fmt.Fprintf(w, "  target %s (%s), resolved %s: %s\n", q(OrDash(t.Backend)), q(OrDash(t.From)), resolved, status)
	for _, p := range l.Processes {
		fmt.Fprintf(w, "  line %d: %s\n", p.Line.N, q(p.Line.Text))
	}
	for _, f := range l.ServerFailure {
		fmt.Fprintf(w, "  server failed, line %d: %s\n", f.N, q(f.Text))
	}
	if l.Failure != nil {
		fmt.Fprintf(w, "  selection failed, line %d: %s\n", l.Failure.N, q(l.Failure.Text))
	}
	for _, f := range l.Fallbacks {
		fmt.Fprintf(w, "  fallback, line %d: %s\n", f.N, q(f.Text))
	}
	for _, o := range l.Overrides {
		fmt.Fprintf(w, "  override, line %d: %s\n", o.N, q(o.Text))
	}
	for _, k := range []string{"linear", "moe", "sampler", "all_reduce", "graph"} {
		if v := l.AuxBackends[k]; v != "" {
			fmt.Fprintf(w, "  %s: %s\n", k, q(v))
		}
	}
}

func writeUtilisation(w io.Writer, head string, u *model.UtilEvidence) {
	if u.Snapshot {
		fmt.Fprintf(w, "\n%s: a snapshot of %s, no timeline\n", head, plural(len(u.Devices), "device"))
		writeInventory(w, u.Inventory)
		return
	}
	fmt.Fprintf(w, "\n%s: %s\n", head, plural(len(u.Devices), "device"))
	defer writeInventory(w, u.Inventory)
	writeDevices(w, u.Devices)
}

// writeDevices prints each device's busy shape and the numbers behind it.
func writeDevices(w io.Writer, devices []model.DeviceSeries) {
	for _, d := range devices {
		span := 0.0
		if n := len(d.T); n > 1 {
			span = d.T[n-1] - d.T[0]
		}
		name := q(d.ID)
		if d.Name != "" {
			name += " " + q(d.Name)
		}
		sh := d.Shape
		if sh == nil || sh.Samples == 0 {
			fmt.Fprintf(w, "  %s: %s over %s s, no busy value among them\n", name, plural(len(d.T), "sample"), seconds(span))
			continue
		}
		fmt.Fprintf(w, "  %s: %s, median busy %.0f%%, %.0f%% of %s idle (< %.0f%%), %s%s, over %s s\n",
			name, sh.Class, sh.MedianBusy, 100*sh.IdleShare, plural(sh.Samples, "sample"), sh.IdleBelow, plural(sh.IdleGaps, "idle gap"), longGaps(sh), seconds(span))
	}
}

// seconds prints a span whole from 10 s up, else with three significant digits (a profiler's
// 0.342 s timeline is not 0 s).
func seconds(s float64) string {
	if s >= 10 {
		return fmt.Sprintf("%.0f", s)
	}
	return fmt.Sprintf("%.3g", s)
}

// writeServerMetrics prints what the server's own metrics said over their window.
func writeServerMetrics(w io.Writer, head string, m *model.ServerMetrics) {
	fmt.Fprintf(w, "\n%s: %s, %s requests at %s req/s\n", head, q(m.Window), m.Requests.Readable(), m.Rate.Readable())
	for _, metric := range model.Latencies {
		st, ok := m.Latency[metric]
		if !ok {
			continue
		}
		var parts []string
		for _, k := range []string{"mean", "median", "p90", "p99"} {
			if v, ok := st[k]; ok {
				parts = append(parts, k+" "+v.Readable())
			}
		}
		fmt.Fprintf(w, "  %s (ms): %s\n", metric, strings.Join(parts, "  "))
	}
	var gauges []string
	for _, k := range slices.Sorted(maps.Keys(m.Gauges)) {
		gauges = append(gauges, k+" "+m.Gauges[k].Readable())
	}
	if len(gauges) > 0 {
		fmt.Fprintf(w, "  means: %s\n", q(strings.Join(gauges, ", ")))
	}
}

// writeInventory lists what a device table says of each device and which processes hold them.
func writeInventory(w io.Writer, inv *model.Inventory) {
	if inv == nil {
		return
	}
	fmt.Fprintf(w, "  %s, driver %s\n", q(OrDash(inv.ToolVersion)), q(OrDash(inv.DriverVersion)))
	for _, d := range inv.Devices {
		busy := d.BusyPct.Readable()
		if d.BusyPct.Known() {
			busy += "%"
		}
		fmt.Fprintf(w, "  %s %s: %s, %s %s, HBM %s / %s MB, %s W, %s C\n", q(d.ID), q(d.Name), q(OrDash(d.Health)),
			q(strings.TrimSuffix(OrDash(d.BusyColumn), "(%)")), busy, d.HBMUsedMB.Readable(), d.HBMTotalMB.Readable(), d.PowerW.Readable(), d.TempC.Readable())
	}
	count, mem := map[string]int{}, map[string]float64{}
	var names []string
	for _, p := range inv.Processes {
		if count[p.Name] == 0 {
			names = append(names, p.Name)
		}
		count[p.Name]++
		if p.MemoryMB.Known() {
			mem[p.Name] += p.MemoryMB.F()
		}
	}
	for _, n := range names {
		fmt.Fprintf(w, "  processes: %d × %s, %s MB\n", count[n], q(n), model.Num(mem[n]).Readable())
	}
}

// writeFacts says what a file states of the run's conditions, the observed side of rule 1.
func writeFacts(w io.Writer, f *model.Facts) {
	if f == nil {
		return
	}
	var said []string
	for _, kv := range [][2]string{{"base_stack_version", f.BaseStackVersion}, {"driver_version", f.DriverVersion}, {"hardware_sku", f.HardwareSKU}} {
		if kv[1] != "" {
			said = append(said, kv[0]+" "+q(kv[1]))
		}
	}
	if len(said) > 0 {
		fmt.Fprintf(w, "  conditions: %s (%s)\n", strings.Join(said, ", "), q(f.Source))
	}
}

func writeTrace(w io.Writer, head string, t *model.TraceEvidence) {
	per, n := "trace", 1.0
	if t.Steps > 0 {
		per, n = "step", float64(t.Steps)
	}
	fmt.Fprintf(w, "\n%s: ", head)
	if t.Steps > 0 {
		fmt.Fprintf(w, "%s, ", plural(t.Steps, "step"))
	}
	fmt.Fprint(w, plural(t.Kernels, "kernel"))
	if t.BusyFraction.Known() {
		fmt.Fprintf(w, ", device busy %.0f%% of %s us", 100*t.BusyFraction.F(), micros(t.WindowUs))
	}
	fmt.Fprintln(w)
	var counts []string
	if t.RecordsHostCalls() {
		counts = append(counts, fmt.Sprintf("%.1f launches, %.1f graph launches", float64(t.Launches.Count)/n, float64(t.GraphLaunches.Count)/n))
	}
	if t.RecordsDeviceOps() {
		copies := 0
		for _, c := range t.Copies {
			copies += c.Count
		}
		counts = append(counts, fmt.Sprintf("%.1f copies", float64(copies)/n))
	}
	if t.RecordsHostCalls() {
		counts = append(counts, fmt.Sprintf("%.1f syncs", float64(t.Syncs.Count)/n))
	} else if t.RecordsDeviceOps() {
		counts = append(counts, "launches and syncs not recorded by this format")
	} else {
		counts = append(counts, "copies, launches and syncs not recorded by this format")
	}
	fmt.Fprintf(w, "  per %s: %s\n", per, strings.Join(counts, ", "))
	if len(t.Families) > 0 {
		fmt.Fprintf(w, "  device time %s us per %s\n", micros(t.DeviceTimeUs/n), per)
	}
	for _, f := range t.Families {
		fmt.Fprintf(w, "  %-14s %5.1f%%  %s\n", f.Family, 100*f.Share, q(strings.Join(f.Top, ", ")))
	}
	for _, k := range t.KernelBackends {
		fmt.Fprintf(w, "  attention kernels: %s (%s)\n", k.Backend, q(k.Kernel))
	}
	writeAscend(w, t, n, per)
	if t.Tool != "" {
		fmt.Fprintf(w, "  written by %s\n", q(t.Tool))
	}
	if tl := t.Timeline; tl != nil {
		fmt.Fprintf(w, "  device timeline (%s), the utilisation shape when no smi trace is attached:\n", q(tl.Tool))
		writeDevices(w, tl.Devices)
	}
}

// stepColumns are step_trace_time.csv's columns in the order torch_npu writes them.
var stepColumns = []string{"Computing", "Communication(Not Overlapped)", "Overlapped", "Communication", "Free", "Stage",
	"Bubble", "Communication(Not Overlapped and Exclude Receive)", "Preparing"}

// writeAscend prints what torch_npu's export adds to a trace: its step split (every column),
// the device's waits, the collectives, host vs device time per op and the profiler's set-up.
func writeAscend(w io.Writer, t *model.TraceEvidence, n float64, per string) {
	if st := t.StepTime; st != nil {
		steps := float64(max(st.Steps, 1))
		var cols []string
		seen := map[string]bool{}
		for _, c := range stepColumns {
			if v, ok := st.Columns[c]; ok {
				cols = append(cols, fmt.Sprintf("%s %s", c, micros(v/steps)))
				seen[c] = true
			}
		}
		for _, c := range slices.Sorted(maps.Keys(st.Columns)) {
			if !seen[c] {
				cols = append(cols, fmt.Sprintf("%s %s", q(c), micros(st.Columns[c]/steps)))
			}
		}
		unit := "us per step"
		if st.Steps == 0 {
			unit = "us" // a cluster's split: one row per rank, averaged
		}
		fmt.Fprintf(w, "  step split (%s, %s): %s %s; Free %.1f%% of the time\n", q(st.Source), plural(st.Steps, "step"),
			strings.Join(cols, ", "), unit, 100*st.FreeShare)
	}
	if t.Waits != nil {
		fmt.Fprintf(w, "  device waits: %.1f per %s, %s us (EVENT_WAIT, Notify Wait: no kernel time)\n", float64(t.Waits.Count)/n, per, micros(t.Waits.TimeUs/n))
	}
	for _, c := range t.Collectives {
		links := ""
		for _, l := range slices.Sorted(maps.Keys(c.Links)) {
			s := c.Links[l]
			links += fmt.Sprintf(", %s %.1f MB at %.1f GB/s", q(l), s.MB, s.GBps)
		}
		fmt.Fprintf(w, "  collective %s x%d: %s us (transit %s, wait %s, sync %s, idle %s)%s\n", q(c.Op), c.Count, micros(c.ElapseUs),
			micros(c.TransitUs), micros(c.WaitUs), micros(c.SyncUs), micros(c.IdleUs), links)
	}
	if hd := t.HostDevice; hd != nil {
		fmt.Fprintf(w, "  host vs device (%s): host self %s us, device self %s us\n", plural(hd.Ops, "op call"), micros(hd.HostSelfUs), micros(hd.DeviceSelfUs))
		for _, o := range hd.Top[:min(5, len(hd.Top))] {
			fmt.Fprintf(w, "    %s x%d: host %s us, device %s us\n", q(o.Name), o.Count, micros(o.HostSelfUs), micros(o.DeviceSelfUs))
		}
	}
	if p := t.Profiler; p != nil {
		fmt.Fprintf(w, "  profiler: %s\n", q(strings.Join(nonEmpty(p.Level, "export "+p.ExportType, p.AICMetrics, p.Schedule, rankOf(p.Rank)), ", ")))
	}
	if len(t.Files) > 1 {
		fmt.Fprintf(w, "  read together: %s\n", q(strings.Join(t.Files, ", ")))
	}
}

func rankOf(r string) string {
	if r == "" {
		return ""
	}
	return "rank " + r
}

// factOrder is the order show lists an environment dump's facts in: stack, engine, devices,
// host.
var factOrder = []string{model.FactDriver, model.FactCUDA, model.FactROCm, model.FactCANN, model.FactTorch, model.FactTorchNPU,
	model.FactVLLM, model.FactVLLMAscend, model.FactSGLang, model.FactTransformers, model.FactDeviceModel, model.FactDeviceCount,
	model.FactDeviceMemory, model.FactInterconnect, model.FactCPU, model.FactNUMANodes}

// writeEnvironment prints a dump's facts with their lines, its devices and the variables kept.
func writeEnvironment(w io.Writer, head string, e *model.EnvEvidence) {
	fmt.Fprintf(w, "\n%s\n", head)
	for _, k := range factOrder {
		if f, ok := e.Facts[k]; ok {
			fmt.Fprintf(w, "  %-21s %s (line %d)\n", k, q(f.Text), f.N)
		}
	}
	for _, d := range e.Devices {
		parts := nonEmpty(q(d.Name), q(d.BusID))
		if d.MemoryMB.Known() {
			parts = append(parts, fmt.Sprintf("%g MB", d.MemoryMB.F()))
		}
		if d.NUMA != "" {
			parts = append(parts, "NUMA "+q(d.NUMA))
		}
		if d.CPUs != "" {
			parts = append(parts, "CPUs "+q(d.CPUs))
		}
		fmt.Fprintf(w, "  device %s: %s\n", q(d.ID), strings.Join(parts, ", "))
	}
	for _, n := range e.NUMA {
		fmt.Fprintf(w, "  NUMA node %s: CPUs %s (line %d)\n", q(n.ID), q(n.CPUs), n.Line)
	}
	for _, v := range e.Env {
		fmt.Fprintf(w, "  %s=%s (line %d)\n", q(v.Name), q(v.Value), v.Line)
	}
}

// micros prints microseconds whole from 100 up, else with three significant digits, so a
// 0.02 us kernel does not read as 0 and a 2.8 s window as 2.857e+06.
func micros(v float64) string {
	if math.Abs(v) >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}

// plural counts things in English: "1 device", "2 devices".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// longGaps says how often rule 8's long idle gaps recur: " (2 of >= 0.5 s: 4.0 a minute)";
// "" for a shape stored before benchlens counted them.
func longGaps(sh *model.Shape) string {
	if sh.LongGap <= 0 || sh.IdleGaps == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d of >= %g s: %.1f a minute)", sh.LongGaps, sh.LongGap, sh.GapsPerMinute)
}

func q(s string) string { return textsafe.Quote(s) }

// clipped is s cut to its first n runes, with "…" when anything was cut: a quoted line's
// start, enough to know it again.
func clipped(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i] + "…"
		}
		n--
	}
	return s
}
