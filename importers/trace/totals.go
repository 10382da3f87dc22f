package trace

import (
	"benchlens/model"
)

// Totals gathers device ops and host calls known only as totals (an nsys stats report's rows,
// an SQLite export's grouped rows) into a trace's figures, with the same classification and
// operator families as the traces this package reads event by event.
type Totals struct{ a *acc }

// NewTotals starts empty totals.
func NewTotals() *Totals { return &Totals{a: newAcc()} }

// Kernel adds count launches of one kernel taking ns in all.
func (t *Totals) Kernel(name string, count int, ns int64) {
	t.a.kernels += count
	t.a.addOp(name, count, ns)
}

// Copy adds count copies of one direction ("HtoD", "DtoH", "DtoD", "PtoP", "HtoH", or any
// other word for one of unknown direction), moving bytes (-1 unknown) in ns.
func (t *Totals) Copy(dir string, count int, bytes, ns int64) {
	d := dirOther
	for i, n := range dirNames {
		if n == dir {
			d = i
		}
	}
	c := &t.a.copies[d]
	c.Count += count
	if bytes > 0 {
		c.Bytes += bytes
	}
	t.a.copyNs[d] += ns
	t.a.addOp(copyLabels[d], count, ns)
}

// CopyBytes adds bytes to the copies of one direction already counted (a size report beside a
// time report).
func (t *Totals) CopyBytes(dir string, bytes int64) {
	for i, n := range dirNames {
		if n == dir && bytes > 0 {
			t.a.copies[i].Bytes += bytes
		}
	}
}

// Memset adds count memsets taking ns.
func (t *Totals) Memset(count int, ns int64) { t.a.addOp("Memset", count, ns) }

// Call adds count host calls of one API (cudaLaunchKernel_v7000, cudaStreamSynchronize, …),
// classified as the traces' runtime calls are (launch, graph launch, blocking sync).
func (t *Totals) Call(name string, count int, ns int64) {
	switch roleOf(name) {
	case roleLaunch:
		t.a.launch += count
		t.a.launchNs += ns
	case roleGraph:
		t.a.graph += count
		t.a.graphNs += ns
	case roleSync:
		t.a.sync += count
		t.a.syncNs += ns
	}
}

// Launches is the kernel launches counted so far.
func (t *Totals) Launches() int { return t.a.launch + t.a.graph }

// Kernels is the kernel count so far.
func (t *Totals) Kernels() int { return t.a.kernels }

// Fill writes the figures into ev (whose Source, Steps and window the caller sets): copies by
// direction, launches, syncs, kernels, top ops, operator families, device time, the attention
// implementations the kernels name, and per step counts when ev.Steps > 0. Busy share and idle
// gaps are the caller's, from a timeline totals do not have.
func (t *Totals) Fill(ev *model.TraceEvidence, calls bool) {
	busy, gaps, win, winSteps := ev.BusyFraction, ev.IdleGaps, ev.WindowUs, ev.WindowSteps
	steps := ev.Steps
	t.a.steps = map[int64]*stepWin{}
	for i := range steps {
		t.a.steps[int64(i)] = &stepWin{n: int64(i)} // counts per step only
	}
	t.a.finish(ev, true, calls)
	ev.Steps, ev.BusyFraction, ev.IdleGaps, ev.WindowUs, ev.WindowSteps = steps, busy, gaps, win, winSteps
}

// GapBins is an empty idle-gap histogram, bins as every trace's.
func GapBins() []model.GapBin {
	out := make([]model.GapBin, len(gapLabels))
	for i, l := range gapLabels {
		out[i].Label = l
	}
	return out
}

// GapBin is the index in GapBins of a gap of ns.
func GapBin(ns int64) int { return gapBin(ns) }

// Sync reports whether a host API (by its CUPTI name, _vNNNN suffix allowed) blocks the host
// until the device catches up, as the traces count syncs.
func Sync(name string) bool { return roleOf(name) == roleSync }
