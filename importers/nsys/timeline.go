package nsys

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strconv"

	"benchlens/importers/trace"
	"benchlens/model"
)

// Timeline bins: at least 1 ms, at most maxBins over the window.
const (
	minBinNs = 1_000_000
	maxBins  = 2000
)

// busyline folds device intervals, each device's arriving in start order, into the busy time,
// the idle-gap histogram and the busy % per bin of the window [ws, we). Its memory is the bins.
type busyline struct {
	ws, we, bin int64
	nbins       int
	devs        map[int64]*devBusy
	busy        int64
	gaps        []model.GapBin
	gapNs       []int64
}

// devBusy is one device's merged interval in progress and its bins.
type devBusy struct {
	bins             []int64
	prevEnd          int64
	havePrev         bool
	gs, ge           int64
	open             bool
	lastStart        int64
	haveStart, order bool
}

func newBusyline(ws, we int64) *busyline {
	bin := max(int64(minBinNs), (we-ws+maxBins-1)/maxBins)
	gaps := trace.GapBins()
	return &busyline{ws: ws, we: we, bin: bin, nbins: int((we - ws + bin - 1) / bin), devs: map[int64]*devBusy{},
		gaps: gaps, gapNs: make([]int64, len(gaps))}
}

// add takes one interval; false when the device's intervals stopped arriving in start order.
func (b *busyline) add(dev, s, e int64) bool {
	d := b.devs[dev]
	if d == nil {
		d = &devBusy{bins: make([]int64, b.nbins), order: true}
		b.devs[dev] = d
	}
	if d.haveStart && s < d.lastStart {
		d.order = false
		return false
	}
	d.lastStart, d.haveStart = s, true
	e = max(e, s)
	switch {
	case !d.open:
		d.gs, d.ge, d.open = s, e, true
	case s > d.ge:
		b.emit(d, d.gs, d.ge)
		d.gs, d.ge = s, e
	default:
		d.ge = max(d.ge, e)
	}
	return true
}

// emit counts a merged interval inside the window: the gap before it, its busy time, its bins.
func (b *busyline) emit(d *devBusy, s0, e0 int64) {
	s, e := max(s0, b.ws), min(e0, b.we)
	if e <= s {
		return
	}
	if d.havePrev && s > d.prevEnd {
		g := s - d.prevEnd
		k := trace.GapBin(g)
		b.gaps[k].Count++
		b.gapNs[k] += g
	}
	d.prevEnd, d.havePrev = e, true
	b.busy += e - s
	for k := (s - b.ws) / b.bin; k < int64(b.nbins) && b.ws+k*b.bin < e; k++ {
		bs, be := b.ws+k*b.bin, b.ws+(k+1)*b.bin
		d.bins[k] += min(e, be) - max(s, bs)
	}
}

// finish writes the busy share, the gaps and the timeline (devices named from TARGET_INFO_GPU).
func (b *busyline) finish(ev *model.TraceEvidence, names map[int64]string) {
	if len(b.devs) == 0 {
		return
	}
	ids := make([]int64, 0, len(b.devs))
	for id, d := range b.devs {
		if d.open {
			b.emit(d, d.gs, d.ge)
			d.open = false
		}
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	ev.BusyFraction = model.Num(float64(b.busy) / (float64(len(b.devs)) * float64(b.we-b.ws)))
	for i := range b.gaps {
		b.gaps[i].TimeUs = float64(b.gapNs[i]) / 1000
	}
	ev.IdleGaps = b.gaps
	tl := &model.UtilEvidence{Tool: "nsys device activity (kernels, copies, memsets)"}
	for _, id := range ids {
		d := b.devs[id]
		s := model.DeviceSeries{ID: strconv.FormatInt(id, 10), Name: names[id], T: make([]float64, b.nbins), Busy: make(model.Series, b.nbins)}
		for k := range b.nbins {
			width := min(b.bin, b.we-(b.ws+int64(k)*b.bin))
			s.T[k] = float64(int64(k)*b.bin) / 1e9
			s.Busy[k] = 100 * float64(d.bins[k]) / float64(width)
		}
		tl.Devices = append(tl.Devices, s)
	}
	ev.Timeline = tl
}

// tableCursor is one table's stream in the merge.
type tableCursor struct {
	*rowCursor
	kind  int // 0 kernel, 1 memcpy, 2 memset
	table string
}

// agg is a count and a total of ns (and bytes).
type agg struct{ n, ns, bytes int64 }

// devicePass reads the kernels, copies and memsets in one stream per table, merged by start
// time (an export stores each table in start order): per kernel name and per copy kind their
// counts, times and bytes, and the device timeline. Should a table not be in start order, the
// timeline is read again from SQLite's own sort of all the intervals.
func (r *reader) devicePass(ev *model.TraceEvidence) error {
	r.used = map[int64]bool{}
	type spec struct {
		table, cols string
		kind        int
	}
	var specs []spec
	if r.s.has(tKernel, "deviceId", "start", "end") {
		name := "demangledName"
		if !r.s.has(tKernel, name) {
			name = "shortName"
		}
		graph := "0"
		if r.s.has(tKernel, "graphNodeId") {
			graph = "graphNodeId IS NOT NULL"
		}
		specs = append(specs, spec{tKernel, name + ", " + graph, 0})
	}
	if r.s.has(tMemcpy, "deviceId", "start", "end", "copyKind") {
		b := "bytes"
		if !r.s.has(tMemcpy, "bytes") {
			b = "-1"
		}
		specs = append(specs, spec{tMemcpy, "copyKind, " + b, 1})
	}
	if r.s.has(tMemset, "deviceId", "start", "end") {
		specs = append(specs, spec{tMemset, "0, 0", 2})
	}
	if len(specs) == 0 {
		return nil
	}
	lo, hi, any := int64(0), int64(0), false
	for _, sp := range specs {
		var a, b sql.NullInt64
		if err := r.s.db.QueryRow(`SELECT MIN(start), MAX("end") FROM `+sp.table).Scan(&a, &b); err != nil {
			return fmt.Errorf("%s: %w", sp.table, err)
		}
		if a.Valid {
			if !any || a.Int64 < lo {
				lo = a.Int64
			}
			if !any || b.Int64 > hi {
				hi = b.Int64
			}
			any = true
		}
	}
	if !any {
		return nil
	}
	ws, we, steps, ok := r.window()
	if !ok {
		ws, we = lo, hi
	}
	ev.WindowUs, ev.WindowSteps = float64(we-ws)/1000, steps
	var line *busyline
	if we > ws {
		line = newBusyline(ws, we)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // an early return stops the streams
	var cs []*tableCursor
	for _, sp := range specs {
		cs = append(cs, &tableCursor{rowCursor: newCursor(ctx, r.s.db, `SELECT deviceId, start, "end", `+sp.cols+` FROM `+sp.table), kind: sp.kind, table: sp.table})
	}
	kernels, copies := map[int64]*agg{}, map[int64]*agg{}
	var memset agg
	var graphed int64
	inOrder := true
	for {
		var c *tableCursor
		for _, x := range cs {
			if x.valid && (c == nil || x.cur[1] < c.cur[1]) {
				c = x
			}
		}
		if c == nil {
			break
		}
		dev, s, e, a, b := c.cur[0], c.cur[1], c.cur[2], c.cur[3], c.cur[4]
		d := max(e-s, 0)
		switch c.kind {
		case 0:
			k := kernels[a]
			if k == nil {
				k = &agg{}
				kernels[a] = k
			}
			k.n++
			k.ns += d
			graphed += b
		case 1:
			k := copies[a]
			if k == nil {
				k = &agg{}
				copies[a] = k
			}
			k.n++
			k.ns += d
			k.bytes += b
		case 2:
			memset.n++
			memset.ns += d
		}
		r.used[dev] = true
		if line != nil && inOrder {
			inOrder = line.add(dev, s, e)
		}
		c.next()
	}
	for _, c := range cs {
		if c.err != nil {
			return fmt.Errorf("%s: %w", c.table, c.err)
		}
	}
	if err := r.nameKernels(kernels); err != nil {
		return err
	}
	for kind, a := range copies {
		dir, ok := copyKinds[kind]
		if !ok {
			dir = "Other"
		}
		r.tot.Copy(dir, int(a.n), a.bytes, a.ns)
	}
	if memset.n > 0 {
		r.tot.Memset(int(memset.n), memset.ns)
	}
	if graphed > 0 {
		r.warnings = append(r.warnings, model.Warn(model.WarnNsysGraphReplay, graphed))
	}
	if line == nil {
		return nil
	}
	if !inOrder {
		var err error
		if line, err = r.sortedBusyline(ws, we); err != nil {
			return err
		}
	}
	line.finish(ev, r.gpuNames)
	return nil
}

// sortedBusyline reads the timeline from every interval sorted by SQLite (on disk when large):
// for an export whose tables are not stored in start order.
func (r *reader) sortedBusyline(ws, we int64) (*busyline, error) {
	q := ""
	for _, t := range []string{tKernel, tMemcpy, tMemset} {
		if r.s.has(t, "deviceId", "start", "end") {
			if q != "" {
				q += " UNION ALL "
			}
			q += `SELECT deviceId, start, "end" FROM ` + t
		}
	}
	line := newBusyline(ws, we)
	err := eachRow(context.Background(), r.s.db, `SELECT deviceId, start, "end" FROM (`+q+`) ORDER BY start`, func(x row) {
		line.add(x[0], x[1], x[2])
	})
	if err != nil {
		return nil, fmt.Errorf("device activity: %w", err)
	}
	return line, nil
}

// nameKernels adds the kernels under their names (StringIds).
func (r *reader) nameKernels(kernels map[int64]*agg) error {
	for id, a := range kernels {
		name, err := r.stringOf(id)
		if err != nil {
			return err
		}
		if name == "" {
			name = "kernel " + strconv.FormatInt(id, 10)
		}
		r.tot.Kernel(name, int(a.n), a.ns)
	}
	return nil
}
