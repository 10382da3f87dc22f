package trace

import (
	"sort"
	"strings"

	"benchlens/model"
)

// lanes are the process lanes of a torch_npu trace_view.json by their names (more-formats.md
// 3.4): Ascend Hardware (device tasks), CANN (host API calls), HCCL (communication ops and
// their task slices) and Overlap Analysis (the device time split torch_npu writes
// step_trace_time.csv from).
type lanes struct {
	hw, cann, hccl, overlap map[pkey]bool
	first                   pkey // the Ascend Hardware lane, device of the HCCL ops
	haveHW                  bool
}

func ascendLanes(procs map[pkey]string) lanes {
	l := lanes{hw: map[pkey]bool{}, cann: map[pkey]bool{}, hccl: map[pkey]bool{}, overlap: map[pkey]bool{}}
	keys := make([]pkey, 0, len(procs))
	for k := range procs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].n < keys[j].n || keys[i].n == keys[j].n && keys[i].s < keys[j].s })
	for _, k := range keys {
		switch n := strings.ToLower(procs[k]); {
		case strings.Contains(n, "ascend hardware"):
			l.hw[k] = true
			if !l.haveHW {
				l.first, l.haveHW = k, true
			}
		case n == "cann" || strings.HasPrefix(n, "cann "):
			l.cann[k] = true
		case n == "hccl" || strings.HasPrefix(n, "hccl "):
			l.hccl[k] = true
		case n == "overlap analysis":
			l.overlap[k] = true
		}
	}
	return l
}

func (l lanes) ascend() bool { return len(l.hw) > 0 || len(l.cann) > 0 }

// device is the lane whose busy time an HCCL op counts towards: the device's own.
func (l lanes) device(p pkey) pkey {
	if l.haveHW {
		return l.first
	}
	return p
}

// taskKind is what an Ascend device task does.
type taskKind uint8

const (
	taskCompute taskKind = iota
	taskCopy
	taskMemset
	taskWait  // waits on another stream or rank: EVENT_WAIT, Notify Wait
	taskComm  // HCCL-issued transfers and notifications: Write Value, SDMA, Notify Record, …
	taskOrder // stream ordering with no work: EVENT_RECORD, PLACE_HOLDER
)

// hcclTasks are the task types HCCL issues on the device (trace_view's Ascend Hardware lane):
// parts of a collective, whose time the collective's op on the HCCL lane covers.
var hcclTasks = map[string]bool{"WRITE VALUE": true, "SDMA": true, "RDMA": true, "RDMASEND": true,
	"NOTIFY RECORD": true, "REDUCE INLINE": true, "REDUCE_INLINE": true, "MEMCPY": true, "LOCAL COPY": true,
	"INLINE REDUCE": true, "RDMA SEND": true}

// ascendTaskKind files a device task by its task type and name (more-formats.md 3.4): the
// copy engines' MEMCPY_ASYNC (PCIE_DMA_SQE, SDMA_SQE) are copies, every wait is a wait, HCCL's
// own tasks are communication, records and placeholders order streams; the AI Core, AI
// Vector, MIX, AI CPU and DSA tasks are the compute (their sum is step_trace's Computing).
func ascendTaskKind(taskType, name string) taskKind {
	tt, nu := strings.ToUpper(taskType), strings.ToUpper(name)
	switch {
	case strings.Contains(tt, "WAIT") || strings.Contains(nu, "WAIT"):
		return taskWait
	case hcclTasks[tt] || hcclTasks[nu] && tt == "":
		return taskComm
	case strings.Contains(nu, "MEMCPY") || strings.Contains(tt, "MEMCPY"):
		return taskCopy
	case strings.Contains(nu, "MEMSET") && !strings.Contains(tt, "AI_") || strings.Contains(tt, "MEMSET"):
		return taskMemset
	case strings.Contains(tt, "RECORD") || strings.Contains(nu, "EVENT_RECORD") || strings.Contains(tt, "PLACE_HOLDER") ||
		strings.HasPrefix(nu, "NOTIFY_"):
		return taskOrder
	}
	return taskCompute
}

// ascendTask files an event of an Ascend Hardware lane by its kind; it reports an HCCL task,
// which counts as communication only when the trace has no HCCL lane of ops.
func ascendTask(a *acc, r *rec, dirOf func(string) int) (hccl bool) {
	switch ascendTaskKind(r.aux, r.name) {
	case taskCopy:
		a.copy(r.pid, dirOf(r.name), r.ts, r.dur, r.bytes)
	case taskMemset:
		a.memset(r.pid, r.ts, r.dur)
	case taskWait:
		a.wait(r.dur)
	case taskComm:
		return true
	case taskOrder:
	default:
		a.kernel(r.pid, r.name, r.ts, r.dur)
	}
	return false
}

// laneSlice is one slice of the Overlap Analysis lane.
type laneSlice struct {
	name    string
	ts, dur int64
}

// Overlap Analysis slice names, as step_trace_time.csv's columns.
const (
	colComputing = "Computing"
	colCommAll   = "Communication"
	colCommNotOv = "Communication(Not Overlapped)"
	colFreeTime  = "Free"
	colOverlapd  = "Overlapped"
	colStage     = "Stage"
)

// overlapSplit reads the Overlap Analysis lane into the split of the analysed steps' device
// time (each slice belongs to the last step begun on the host before it): Computing,
// Communication, Communication(Not Overlapped) and Free summed, Overlapped = Communication −
// Communication(Not Overlapped), Stage = Computing + Communication(Not Overlapped) + Free,
// as torch_npu writes step_trace_time.csv from it. The span of those slices becomes the
// window the device intervals are measured in (nil when the lane holds no such slice).
func (a *acc) overlapSplit(slices []laneSlice) *model.StepTime {
	keep := a.stepOf()
	cols := map[string]float64{colComputing: 0, colCommAll: 0, colCommNotOv: 0, colFreeTime: 0}
	steps := map[int64]bool{}
	var s0, e0 int64
	for _, s := range slices {
		n, ok := keep(s.ts)
		if !ok {
			continue
		}
		switch s.name {
		case colComputing, colCommAll, colCommNotOv, colFreeTime:
		default:
			continue
		}
		if len(steps) == 0 || s.ts < s0 {
			s0 = s.ts
		}
		if len(steps) == 0 || s.ts+s.dur > e0 {
			e0 = s.ts + s.dur
		}
		steps[n] = true
		cols[s.name] += us(s.dur)
	}
	stage := cols[colComputing] + cols[colCommNotOv] + cols[colFreeTime]
	if stage <= 0 {
		return nil
	}
	cols[colOverlapd] = cols[colCommAll] - cols[colCommNotOv]
	cols[colStage] = stage
	a.fixed, a.fixS, a.fixE, a.fixSteps = true, s0, e0, len(steps)
	if len(a.steps) == 0 {
		a.fixSteps = 0
	}
	return &model.StepTime{Steps: len(steps), Columns: cols, FreeShare: cols[colFreeTime] / stage,
		Source: "trace_view.json, Overlap Analysis lane"}
}

// stepOf returns which analysed step a device time belongs to: the last step begun on the host
// at or before it, when that step is in the window (the first and last of three or more are
// left out). A trace without steps keeps every time, as step 0.
func (a *acc) stepOf() func(ts int64) (int64, bool) {
	if len(a.steps) == 0 {
		return func(int64) (int64, bool) { return 0, true }
	}
	ws := make([]*stepWin, 0, len(a.steps))
	for _, w := range a.steps {
		if w.hasCPU {
			ws = append(ws, w)
		}
	}
	sort.Slice(ws, func(i, j int) bool { return ws[i].cpuS < ws[j].cpuS })
	inWindow := map[int64]bool{}
	ordered := make([]*stepWin, len(ws))
	copy(ordered, ws)
	sort.Slice(ordered, func(i, j int) bool { return ordered[i].n < ordered[j].n })
	if len(ordered) >= 3 {
		ordered = ordered[1 : len(ordered)-1]
	}
	for _, w := range ordered {
		inWindow[w.n] = true
	}
	return func(ts int64) (int64, bool) {
		i := sort.Search(len(ws), func(i int) bool { return ws[i].cpuS > ts }) - 1
		if i < 0 {
			return 0, false
		}
		return ws[i].n, inWindow[ws[i].n]
	}
}
