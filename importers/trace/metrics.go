package trace

import (
	"math"
	"sort"
	"strings"

	"benchlens/model"
)

// topOpsN is how many device ops TopOps keeps.
const topOpsN = 15

// devIv is one device activity interval, in ns.
type devIv struct {
	dev  int32
	s, e int64
}

// stepWin is a ProfilerStep#N window: host (user_annotation) and device (gpu_user_annotation).
type stepWin struct {
	n              int64
	cpuS, cpuE     int64
	gpuS, gpuE     int64
	hasCPU, hasGPU bool
}

type opAgg struct {
	count int
	ns    int64
}

// acc accumulates the figures of one trace. Times are ns until finish converts them to µs.
type acc struct {
	copies   [nDirs]model.CopyStat
	copyNs   [nDirs]int64
	launch   int
	launchNs int64
	graph    int
	graphNs  int64
	sync     int
	syncNs   int64
	kernels  int
	ivs      []devIv
	ops      map[string]*opAgg // raw name → totals
	steps    map[int64]*stepWin
	// wholeNames keeps op names whole: Ascend task names (aclnnMuls_MulAiCore_Mul, Notify Wait)
	// are no C++ signatures, and their last word alone names nothing.
	wholeNames bool
	waits      int
	waitNs     int64
	// fixed sets the analysed span (fixS, fixE, with fixSteps steps) instead of the steps':
	// an Ascend trace's Overlap Analysis lane.
	fixed      bool
	fixS, fixE int64
	fixSteps   int
	devs       map[pkey]int32
	lastDev    pkey
	lastIdx    int32
	haveLast   bool
}

// pkey is a pid (int or string).
type pkey struct {
	n int64
	s string
}

func newAcc() *acc {
	return &acc{ops: map[string]*opAgg{}, steps: map[int64]*stepWin{}, devs: map[pkey]int32{}}
}

func (a *acc) dev(k pkey) int32 {
	if a.haveLast && k == a.lastDev {
		return a.lastIdx
	}
	i, ok := a.devs[k]
	if !ok {
		i = int32(len(a.devs))
		a.devs[k] = i
	}
	a.lastDev, a.lastIdx, a.haveLast = k, i, true
	return i
}

func (a *acc) op(name string, dur int64) {
	o := a.ops[name]
	if o == nil {
		o = &opAgg{}
		a.ops[name] = o
	}
	o.count++
	o.ns += dur
}

func (a *acc) interval(dev pkey, ts, dur int64) {
	a.ivs = append(a.ivs, devIv{dev: a.dev(dev), s: ts, e: ts + dur})
}

func (a *acc) kernel(dev pkey, name string, ts, dur int64) {
	a.kernels++
	a.interval(dev, ts, dur)
	a.op(name, dur)
}

func (a *acc) copy(dev pkey, dir int, ts, dur, bytes int64) {
	c := &a.copies[dir]
	c.Count++
	if bytes > 0 {
		c.Bytes += bytes
	}
	a.copyNs[dir] += dur
	a.interval(dev, ts, dur)
	a.op(copyLabels[dir], dur)
}

// comm files a communication op (HCCL hcom_*): device time of its family, no kernel. An op
// instance's counters are dropped ("hcom_allReduce__586_0_1" is one hcom_allReduce_), as
// kernel_details.csv's Type column names it.
func (a *acc) comm(dev pkey, name string, ts, dur int64) {
	if i := strings.Index(name, "__"); i > 0 && strings.HasPrefix(name, "hcom") {
		name = name[:i+1]
	}
	a.interval(dev, ts, dur)
	a.op(name, dur)
}

// wait counts a device task that only waits (EVENT_WAIT, Notify Wait): no device work.
func (a *acc) wait(dur int64) {
	a.waits++
	a.waitNs += dur
}

// display is the name an op is listed under: shortened as HTA does, or whole (wholeNames).
func (a *acc) display(raw string) string {
	if a.wholeNames {
		return raw
	}
	return shortName(raw)
}

func (a *acc) memset(dev pkey, ts, dur int64) {
	a.interval(dev, ts, dur)
	a.op("Memset", dur)
}

func (a *acc) call(r role, dur int64) {
	switch r {
	case roleLaunch:
		a.launch++
		a.launchNs += dur
	case roleGraph:
		a.graph++
		a.graphNs += dur
	case roleSync:
		a.sync++
		a.syncNs += dur
	}
}

// step records a ProfilerStep#N annotation.
func (a *acc) step(n int64, device bool, ts, dur int64) {
	w := a.steps[n]
	if w == nil {
		w = &stepWin{n: n}
		a.steps[n] = w
	}
	e := ts + dur
	if device {
		if !w.hasGPU || ts < w.gpuS {
			w.gpuS = ts
		}
		if !w.hasGPU || e > w.gpuE {
			w.gpuE = e
		}
		w.hasGPU = true
		return
	}
	if !w.hasCPU || ts < w.cpuS {
		w.cpuS = ts
	}
	if !w.hasCPU || e > w.cpuE {
		w.cpuE = e
	}
	w.hasCPU = true
}

func us(ns int64) float64 { return float64(ns) / 1000 }

// Gap histogram bins: "<1us", then log2 bins 1-2 … 512-1024 µs, "1-10ms", ">=10ms".
var gapLabels = []string{"<1us", "1-2us", "2-4us", "4-8us", "8-16us", "16-32us", "32-64us", "64-128us",
	"128-256us", "256-512us", "512-1024us", "1-10ms", ">=10ms"}

func gapBin(ns int64) int {
	switch {
	case ns < 1000:
		return 0
	case ns >= 10_000_000:
		return 12
	case ns >= 1_024_000:
		return 11
	}
	b := 1
	for lim := int64(2000); ns >= lim; lim *= 2 {
		b++
	}
	return b
}

// finish fills ev. copiesSeen says whether the source can show copies (all six directions are
// then listed); calls whether it shows host launch/sync calls.
func (a *acc) finish(ev *model.TraceEvidence, copiesSeen, calls bool) {
	ev.Copies = map[string]model.CopyStat{}
	if copiesSeen {
		for d := range nDirs {
			c := a.copies[d]
			c.TimeUs = us(a.copyNs[d])
			ev.Copies[dirNames[d]] = c
		}
	}
	ev.Launches = model.CallStat{Count: a.launch, TimeUs: us(a.launchNs)}
	ev.GraphLaunches = model.CallStat{Count: a.graph, TimeUs: us(a.graphNs)}
	ev.Syncs = model.CallStat{Count: a.sync, TimeUs: us(a.syncNs)}
	ev.Kernels = a.kernels
	if a.waits > 0 {
		ev.Waits = &model.CallStat{Count: a.waits, TimeUs: us(a.waitNs)}
	}
	ev.Steps = len(a.steps)
	ev.BusyFraction = model.Unknown

	ws, we, steps, ok := a.window()
	if ok {
		ev.WindowUs, ev.WindowSteps = us(we-ws), steps
	}
	if len(a.ivs) > 0 && ok && we > ws {
		busy, gaps, ndev := a.union(ws, we)
		if ndev > 0 {
			ev.BusyFraction = model.Num(float64(busy) / (float64(ndev) * float64(we-ws)))
		}
		ev.IdleGaps = gaps
	}
	ev.TopOps = a.topOps()
	ascend := strings.HasPrefix(ev.Source, "ascend")
	ev.Families, ev.DeviceTimeUs = a.families(ascend)
	ev.KernelBackends = a.kernelBackends(ascend)
	if ev.Steps > 0 {
		n := float64(ev.Steps)
		ps := map[string]float64{"kernels": float64(a.kernels) / n}
		if copiesSeen {
			for d := range nDirs {
				ps["copies."+dirNames[d]] = float64(a.copies[d].Count) / n
			}
		}
		if calls {
			ps["launches"] = float64(a.launch) / n
			ps["graph_launches"] = float64(a.graph) / n
			ps["syncs"] = float64(a.sync) / n
			ps["launch_time_us"] = us(a.launchNs) / n
			ps["sync_time_us"] = us(a.syncNs) / n
		}
		ev.PerStep = ps
	}
}

// window is the analysed span and the steps in it: the marked steps (device window of a step
// when the trace has one, else its host window), without the first and last step when there
// are three or more; else first device start to last device end (no step).
func (a *acc) window() (start, end int64, steps int, ok bool) {
	if a.fixed {
		return a.fixS, a.fixE, a.fixSteps, true
	}
	if len(a.steps) > 0 {
		ws := make([]*stepWin, 0, len(a.steps))
		for _, w := range a.steps {
			ws = append(ws, w)
		}
		sort.Slice(ws, func(i, j int) bool { return ws[i].n < ws[j].n })
		if len(ws) >= 3 {
			ws = ws[1 : len(ws)-1]
		}
		var s, e int64
		for i, w := range ws {
			ss, ee := w.cpuS, w.cpuE
			if w.hasGPU {
				ss, ee = w.gpuS, w.gpuE
			}
			if i == 0 || ss < s {
				s = ss
			}
			if i == 0 || ee > e {
				e = ee
			}
		}
		return s, e, len(ws), true
	}
	if len(a.ivs) == 0 {
		return 0, 0, 0, false
	}
	s, e := int64(math.MaxInt64), int64(math.MinInt64)
	for _, iv := range a.ivs {
		s = min(s, iv.s)
		e = max(e, iv.e)
	}
	return s, e, 0, true
}

// union merges each device's intervals (HTA merge_kernel_intervals: a new group starts when
// start > running max end), clips them to [ws, we] and returns Σ busy ns over devices, the
// histogram of gaps between consecutive merged intervals, and the number of devices.
func (a *acc) union(ws, we int64) (int64, []model.GapBin, int) {
	ivs := a.ivs
	sort.Slice(ivs, func(i, j int) bool {
		if ivs[i].dev != ivs[j].dev {
			return ivs[i].dev < ivs[j].dev
		}
		return ivs[i].s < ivs[j].s
	})
	bins := make([]model.GapBin, len(gapLabels))
	gapNs := make([]int64, len(gapLabels))
	for i, l := range gapLabels {
		bins[i].Label = l
	}
	var busy int64
	ndev := 0
	emit := func(s0, e0 int64, prevEnd *int64, have *bool) {
		s, e := max(s0, ws), min(e0, we)
		if e < s || (e == s && e0 > s0 && (e0 <= ws || s0 >= we)) {
			return // outside the window, or touching it only at an edge
		}
		if *have && s > *prevEnd {
			g := s - *prevEnd
			b := gapBin(g)
			bins[b].Count++
			gapNs[b] += g
		}
		busy += e - s
		*prevEnd, *have = e, true
	}
	for i := 0; i < len(ivs); {
		dev := ivs[i].dev
		ndev++
		var prevEnd int64
		have := false
		gs, ge := ivs[i].s, ivs[i].e
		i++
		for ; i < len(ivs) && ivs[i].dev == dev; i++ {
			if ivs[i].s > ge {
				emit(gs, ge, &prevEnd, &have)
				gs, ge = ivs[i].s, ivs[i].e
				continue
			}
			ge = max(ge, ivs[i].e)
		}
		emit(gs, ge, &prevEnd, &have)
	}
	for i := range bins {
		bins[i].TimeUs = us(gapNs[i])
	}
	return busy, bins, ndev
}

func (a *acc) topOps() []model.OpStat {
	short := map[string]*model.OpStat{}
	var ns = map[string]int64{}
	fixed := map[string]bool{"Memset": true}
	for _, l := range copyLabels {
		fixed[l] = true
	}
	for raw, o := range a.ops {
		n := raw
		if !fixed[raw] {
			n = a.display(raw)
		}
		s := short[n]
		if s == nil {
			s = &model.OpStat{Name: n}
			short[n] = s
		}
		s.Count += o.count
		ns[n] += o.ns
	}
	out := make([]model.OpStat, 0, len(short))
	for n, s := range short {
		s.TimeUs = us(ns[n])
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].TimeUs != out[j].TimeUs {
			return out[i].TimeUs > out[j].TimeUs
		}
		return out[i].Name < out[j].Name
	})
	if len(out) > topOpsN {
		out = out[:topOpsN]
	}
	return out
}
