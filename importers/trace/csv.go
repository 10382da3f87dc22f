package trace

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"benchlens/importers/position"
	"benchlens/model"
)

type csvKind int

const (
	csvNone csvKind = iota
	csvKernelDetails
	csvOpStatistic
	csvStepTrace
	csvOperatorDetails
	csvAPIStatistic
)

// Column aliases: torch_npu names first, then native msprof (op_summary_*.csv) spellings.
var (
	colName     = []string{"Name", "Op Name"}
	colType     = []string{"Type", "OP Type"}
	colCore     = []string{"Accelerator Core", "Task Type"}
	colStart    = []string{"Start Time(us)", "Task Start Time(us)"}
	colDur      = []string{"Duration(us)", "Task Duration(us)"}
	colStep     = []string{"Step Id", "Step ID"}
	colDevice   = []string{"Device_id", "Device ID"}
	colOpType   = []string{"OP Type", "Op Type"}
	colCount    = []string{"Count"}
	colTotal    = []string{"Total Time(us)"}
	colCoreType = []string{"Core Type"}
	colSTStep   = []string{"Step"}
	colComp     = []string{"Computing"}
	colCommNO   = []string{"Communication(Not Overlapped)"}
	colOverlap  = []string{"Overlapped"}
	colComm     = []string{"Communication"}
	colFree     = []string{"Free"}
	colSTType   = []string{"Type"}
	colIndex    = []string{"Index"}
)

// header maps column names (trimmed, BOM stripped) to indices.
type header map[string]int

func (h header) col(names []string) int {
	for _, n := range names {
		if i, ok := h[n]; ok {
			return i
		}
	}
	return -1
}

func (h header) has(names []string) bool { return h.col(names) >= 0 }

func readHeader(rec []string) header {
	h := header{}
	for i, c := range rec {
		c = strings.TrimSpace(strings.TrimPrefix(c, "\ufeff"))
		if _, dup := h[c]; !dup {
			h[c] = i
		}
	}
	return h
}

func kindOf(h header) csvKind {
	switch {
	case h.has(colStart) && h.has(colDur) && (h.has(colName) || h.has(colType)):
		return csvKernelDetails
	case h.has(colOpType) && h.has(colCount) && h.has(colTotal):
		return csvOpStatistic
	case h.has(colComp) && h.has(colFree) && (h.has(colSTStep) || h.has(colIndex)):
		return csvStepTrace
	case h.has(colName) && h.has(colHostSelf) && h.has(colDeviceSelf):
		return csvOperatorDetails
	case h.has(colLevel) && h.has(colAPIName) && h.has(colCount) && h.has(colAPITime):
		return csvAPIStatistic
	}
	return csvNone
}

// csvKindOf tells the CSV layout from the first line of a (BOM-stripped) file.
func csvKindOf(h []byte) csvKind {
	h = bytes.TrimPrefix(h, []byte("\xef\xbb\xbf"))
	line, _, _ := bytes.Cut(h, []byte{'\n'})
	if !bytes.ContainsRune(line, ',') {
		return csvNone
	}
	r := csv.NewReader(bytes.NewReader(line))
	r.FieldsPerRecord = -1
	rec, err := r.Read()
	if err != nil {
		return csvNone
	}
	return kindOf(readHeader(rec))
}

// table reads a CSV file row by row with line numbers.
type table struct {
	file string
	r    *csv.Reader
	h    header
	rec  []string
	line int
}

func openTable(name string, body []byte) (*table, error) {
	r := csv.NewReader(bytes.NewReader(body))
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	rec, err := r.Read()
	if err != nil {
		return nil, csvErr(name, err)
	}
	return &table{file: name, r: r, h: readHeader(rec)}, nil
}

func csvErr(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &position.Error{File: name, Line: pe.Line, Offset: -1, Err: pe.Err}
	}
	return &position.Error{File: name, Line: 1, Offset: -1, Err: err}
}

// next advances to the next row; false at the end or on error.
func (t *table) next() (bool, error) {
	rec, err := t.r.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, csvErr(t.file, err)
	}
	t.rec = rec
	t.line, _ = t.r.FieldPos(0)
	return true, nil
}

// str returns a cell, trimmed (quoted values carry trailing tabs), "" for a missing column.
func (t *table) str(i int) string {
	if i < 0 || i >= len(t.rec) {
		return ""
	}
	return strings.TrimSpace(t.rec[i])
}

func missing(s string) bool {
	switch strings.ToUpper(s) {
	case "", "N/A", "NA", "NONE", "NULL", "-":
		return true
	}
	return false
}

// num reads a numeric cell: ok=false for a missing value, an error for garbage.
func (t *table) num(i int, col string) (float64, bool, error) {
	s := t.str(i)
	if missing(s) {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, &position.Error{File: t.file, Line: t.line, Offset: -1, Err: fmt.Errorf("column %q: %q is not a number", col, s)}
	}
	return f, true, nil
}

// ns reads a µs cell exactly as int64 ns.
func (t *table) ns(i int, col string) (int64, bool, error) {
	s := t.str(i)
	if missing(s) {
		return 0, false, nil
	}
	v, ok := strNs(s)
	if !ok {
		return 0, false, &position.Error{File: t.file, Line: t.line, Offset: -1, Err: fmt.Errorf("column %q: %q is not a time in µs", col, s)}
	}
	return v, true, nil
}

func (t *table) need(cols ...[]string) error {
	for _, c := range cols {
		if !t.h.has(c) {
			return &position.Error{File: t.file, Line: 1, Offset: -1, Err: fmt.Errorf("missing column %q", c[0])}
		}
	}
	return nil
}

// isCopyType tells copy tasks (MEMCPY_ASYNC …) apart by their type / core.
func isCopyType(s string) bool { return strings.Contains(strings.ToUpper(s), "MEMCPY") }

// parseKernelDetails reads kernel_details.csv (one row per device task; also msprof op_summary).
// Ops are grouped by Type (the op type, as op_statistic does); Step Id gives the steps.
func parseKernelDetails(name string, body []byte) (*model.TraceEvidence, error) {
	t, err := openTable(name, body)
	if err != nil {
		return nil, err
	}
	if err := t.need(colStart, colDur); err != nil {
		return nil, err
	}
	iName, iType, iCore := t.h.col(colName), t.h.col(colType), t.h.col(colCore)
	iStart, iDur, iStep, iDev := t.h.col(colStart), t.h.col(colDur), t.h.col(colStep), t.h.col(colDevice)
	a := newAcc()
	a.wholeNames = true
	stepIDs := map[string]int64{}
	for {
		ok, err := t.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		start, okS, err := t.ns(iStart, colStart[0])
		if err != nil {
			return nil, err
		}
		dur, okD, err := t.ns(iDur, colDur[0])
		if err != nil {
			return nil, err
		}
		if !okS || !okD {
			continue
		}
		dur = max(dur, 0)
		dev := pkey{s: t.str(iDev)}
		op := t.str(iType)
		if missing(op) {
			op = t.str(iName)
		}
		core := t.str(iCore)
		switch {
		case strings.EqualFold(core, "HCCL") || strings.HasPrefix(op, "hcom"):
			a.comm(dev, op, start, dur) // a collective: communication, not a kernel
		case isCopyType(core) || isCopyType(op):
			a.copy(dev, copyDir(t.str(iName)), start, dur, 0)
		default:
			switch ascendTaskKind(core, t.str(iName)) {
			case taskWait:
				a.wait(dur)
			case taskOrder, taskComm:
			default:
				a.kernel(dev, op, start, dur)
			}
		}
		if sid := t.str(iStep); !missing(sid) {
			n, ok := stepIDs[sid]
			if !ok {
				if v, err := strconv.ParseInt(sid, 10, 64); err == nil {
					n = v
				} else {
					n = -int64(len(stepIDs)) - 1
				}
				stepIDs[sid] = n
			}
			a.step(n, true, start, dur)
		}
	}
	ev := &model.TraceEvidence{Source: "ascend-kernel-details", Device: "Ascend NPU"}
	a.finish(ev, true, false)
	return ev, nil
}

// parseOpStatistic reads op_statistic.csv: op totals by OP Type (summed over devices and
// models) give TopOps and the kernel count; copies (MEMCPY op types) go to Copies["Other"].
func parseOpStatistic(name string, body []byte) (*model.TraceEvidence, error) {
	t, err := openTable(name, body)
	if err != nil {
		return nil, err
	}
	if err := t.need(colOpType, colCount, colTotal); err != nil {
		return nil, err
	}
	iOp, iCount, iTotal, iCore := t.h.col(colOpType), t.h.col(colCount), t.h.col(colTotal), t.h.col(colCoreType)
	a := newAcc()
	a.wholeNames = true
	for {
		ok, err := t.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		op := t.str(iOp)
		if missing(op) {
			continue
		}
		cnt, okC, err := t.num(iCount, colCount[0])
		if err != nil {
			return nil, err
		}
		tot, okT, err := t.num(iTotal, colTotal[0])
		if err != nil {
			return nil, err
		}
		if !okC || !okT || cnt < 0 || cnt > 1e12 || tot < 0 || tot > maxUs {
			continue
		}
		n, ns := int(cnt), int64(math.Round(tot*1000))
		if isCopyType(op) || isCopyType(t.str(iCore)) {
			d := copyDir(op)
			a.copies[d].Count += n
			a.copyNs[d] += ns
			a.addOp(copyLabels[d], n, ns)
			continue
		}
		if !strings.EqualFold(t.str(iCore), "HCCL") && !strings.HasPrefix(op, "hcom") {
			a.kernels += n // a collective's time is its family's, but it is no kernel
		}
		a.addOp(op, n, ns)
	}
	ev := &model.TraceEvidence{Source: "ascend-op-statistic", Device: "Ascend NPU"}
	a.finish(ev, true, false)
	return ev, nil
}

func (a *acc) addOp(name string, n int, ns int64) {
	o := a.ops[name]
	if o == nil {
		o = &opAgg{}
		a.ops[name] = o
	}
	o.count += n
	o.ns += ns
}

// parseStepTrace reads step_trace_time.csv (per step and device) or cluster_step_trace_time.csv
// (per rank; the "stage" rows, which repeat the maxima, are skipped). Busy = Computing +
// Communication(Not Overlapped) (or Communication − Overlapped), BusyFraction = Σbusy / Σ(busy +
// Free) over the rows used. With three or more steps the first and last are left out.
// WindowUs is Σ(busy + Free) of the rows used divided by the number of devices / ranks.
func parseStepTrace(name string, body []byte) (*model.TraceEvidence, error) {
	t, err := openTable(name, body)
	if err != nil {
		return nil, err
	}
	if err := t.need(colComp, colFree); err != nil {
		return nil, err
	}
	iStep, iComp, iCommNO := t.h.col(colSTStep), t.h.col(colComp), t.h.col(colCommNO)
	iOver, iComm, iFree := t.h.col(colOverlap), t.h.col(colComm), t.h.col(colFree)
	iType, iIndex, iDev := t.h.col(colSTType), t.h.col(colIndex), t.h.col(colDevice)
	if !t.h.has(colCommNO) && !t.h.has(colComm) {
		return nil, &position.Error{File: name, Line: 1, Offset: -1, Err: errors.New(`missing column "Communication(Not Overlapped)" or "Communication"`)}
	}
	type row struct {
		step, dev  string
		busy, free float64
		cols       map[string]float64 // every time column of the row
	}
	timeCols := stepTimeColumns(t.h)
	var rows []row
	steps := map[string]bool{}
	var stepOrder []string
	for {
		ok, err := t.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if iType >= 0 && strings.EqualFold(t.str(iType), "stage") {
			continue
		}
		comp, okC, err := t.num(iComp, colComp[0])
		if err != nil {
			return nil, err
		}
		free, okF, err := t.num(iFree, colFree[0])
		if err != nil {
			return nil, err
		}
		if !okC || !okF {
			continue
		}
		var comm float64
		if iCommNO >= 0 {
			c, ok, err := t.num(iCommNO, colCommNO[0])
			if err != nil {
				return nil, err
			}
			if ok {
				comm = c
			}
		} else {
			c, _, err := t.num(iComm, colComm[0])
			if err != nil {
				return nil, err
			}
			o, _, err := t.num(iOver, colOverlap[0])
			if err != nil {
				return nil, err
			}
			comm = c - o
		}
		dev := t.str(iDev)
		if iIndex >= 0 {
			dev = t.str(iType) + " " + t.str(iIndex)
		}
		st := t.str(iStep)
		if !missing(st) && !steps[st] {
			steps[st] = true
			stepOrder = append(stepOrder, st)
		}
		cols := map[string]float64{}
		for _, c := range timeCols {
			if v, ok, _ := t.num(t.h[c], c); ok {
				cols[c] = v
			}
		}
		rows = append(rows, row{step: st, dev: dev, busy: max(comp+comm, 0), free: max(free, 0), cols: cols})
	}
	ev := &model.TraceEvidence{Source: "ascend-step-trace", Device: "Ascend NPU", Copies: map[string]model.CopyStat{},
		BusyFraction: model.Unknown, Steps: len(stepOrder), TopOps: []model.OpStat{}}
	drop := map[string]bool{}
	if len(stepOrder) >= 3 {
		first, last := stepOrder[0], stepOrder[0]
		for _, s := range stepOrder {
			if stepLess(s, first) {
				first = s
			}
			if stepLess(last, s) {
				last = s
			}
		}
		drop[first], drop[last] = true, true
	}
	var busy, total float64
	devs := map[string]bool{}
	sums := map[string]float64{}
	for _, c := range timeCols {
		sums[c] = 0
	}
	for _, r := range rows {
		if drop[r.step] {
			continue
		}
		busy += r.busy
		total += r.busy + r.free
		devs[r.dev] = true
		for c, v := range r.cols {
			sums[c] += v
		}
	}
	if total > 0 {
		ev.BusyFraction = model.Num(busy / total)
		ev.WindowUs = total / float64(len(devs))
		ev.WindowSteps = len(stepOrder) - len(drop)
		for c := range sums {
			sums[c] /= float64(len(devs))
		}
		stage := sums[colStage]
		if stage <= 0 {
			stage = total / float64(len(devs))
		}
		ev.StepTime = &model.StepTime{Steps: ev.WindowSteps, Columns: sums, FreeShare: sums[colFreeTime] / stage,
			Source: stepTraceSource(name)}
	}
	if len(devs) > 1 {
		ev.Device = fmt.Sprintf("Ascend NPU ×%d", len(devs))
	}
	return ev, nil
}

// stepLess orders step labels numerically when they are numbers.
func stepLess(a, b string) bool {
	x, errA := strconv.ParseFloat(a, 64)
	y, errB := strconv.ParseFloat(b, 64)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}

// stepTimeColumns are the time columns of a step_trace_time.csv header, every one it writes
// (Computing, Communication(Not Overlapped), Overlapped, Communication, Free, Stage, Bubble,
// Communication(Not Overlapped and Exclude Receive), Preparing, …): all but the step, device,
// type and index columns.
func stepTimeColumns(h header) []string {
	skip := map[string]bool{}
	for _, names := range [][]string{colSTStep, colDevice, colSTType, colIndex} {
		for _, n := range names {
			skip[n] = true
		}
	}
	var out []string
	for c := range h {
		if !skip[c] && c != "" {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// stepTraceSource names the file a step split came from: step_trace_time.csv, or the
// cluster_step_trace_time.csv of a cluster analysis (one row per rank, no steps).
func stepTraceSource(name string) string {
	if strings.Contains(strings.ToLower(name), "cluster_step_trace_time") {
		return "cluster_step_trace_time.csv"
	}
	return "step_trace_time.csv"
}
