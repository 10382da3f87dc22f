package trace

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/model"
)

// The rest of torch_npu's export (more-formats.md 3.4): operator_details.csv,
// api_statistic.csv, communication.json and profiler_info_<rank>.json. Each is read alone
// into the part of the evidence it holds; ReadCapture joins them with the trace of the same
// capture.

// Column names of operator_details.csv and api_statistic.csv.
var (
	colHostSelf    = []string{"Host Self Duration(us)"}
	colHostTotal   = []string{"Host Total Duration(us)"}
	colDeviceSelf  = []string{"Device Self Duration(us)"}
	colDeviceTotal = []string{"Device Total Duration(us)"}
	colLevel       = []string{"Level"}
	colAPIName     = []string{"API Name"}
	colAPITime     = []string{"Time(us)"}
)

// hostDeviceTop is how many operators HostDevice lists.
const hostDeviceTop = 15

// ascendJSON tells communication.json and profiler_info_<rank>.json from the quoted texts of
// their first bytes.
func ascendJSON(q *format.Quoted) Layout {
	switch {
	case q.Has("Communication Time Info") && (q.Has("collective") || q.Has("p2p")):
		return Communication
	case q.Has("config") && (q.Has("experimental_config") || q.Has("_profiler_level")):
		return ProfilerInfo
	}
	return NotTrace
}

// noDeviceOps is the start of the evidence of a file that holds no device ops.
func noDeviceOps(source string) *model.TraceEvidence {
	return &model.TraceEvidence{Source: source, Device: "Ascend NPU", Copies: map[string]model.CopyStat{},
		BusyFraction: model.Unknown, TopOps: []model.OpStat{}}
}

// parseOperatorDetails reads operator_details.csv: one row per torch op instance with its host
// and device time, summed per op name.
func parseOperatorDetails(name string, body []byte) (*model.TraceEvidence, error) {
	t, err := openTable(name, body)
	if err != nil {
		return nil, err
	}
	iName, iHS, iHT, iDS, iDT := t.h.col(colName), t.h.col(colHostSelf), t.h.col(colHostTotal), t.h.col(colDeviceSelf), t.h.col(colDeviceTotal)
	hd := &model.HostDevice{}
	by := map[string]*model.HostDeviceOp{}
	for {
		ok, err := t.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		op := t.str(iName)
		if op == "" {
			continue
		}
		var vals [4]float64
		for k, i := range []int{iHS, iHT, iDS, iDT} {
			v, _, err := t.num(i, "duration")
			if err != nil {
				return nil, err
			}
			if v < 0 || v > maxUs {
				v = 0
			}
			vals[k] = v
		}
		o := by[op]
		if o == nil {
			o = &model.HostDeviceOp{Name: op}
			by[op] = o
		}
		o.Count++
		o.HostSelfUs += vals[0]
		o.HostTotalUs += vals[1]
		o.DeviceSelfUs += vals[2]
		o.DeviceTotalUs += vals[3]
		hd.Ops++
		hd.HostSelfUs += vals[0]
		hd.DeviceSelfUs += vals[2]
	}
	for _, o := range by {
		hd.Top = append(hd.Top, *o)
	}
	sort.Slice(hd.Top, func(i, j int) bool {
		if hd.Top[i].HostSelfUs != hd.Top[j].HostSelfUs {
			return hd.Top[i].HostSelfUs > hd.Top[j].HostSelfUs
		}
		return hd.Top[i].Name < hd.Top[j].Name
	})
	if len(hd.Top) > hostDeviceTop {
		hd.Top = hd.Top[:hostDeviceTop]
	}
	ev := noDeviceOps("ascend-operator-details")
	ev.HostDevice = hd
	return ev, nil
}

// parseAPIStatistic reads api_statistic.csv (Level1 and up): host API calls by name. The
// `node` level's `launch` is the kernel launches (trace_view's Node@launch); synchronisations
// and blocking copies are named as trace_view names them (roleOf).
func parseAPIStatistic(name string, body []byte) (*model.TraceEvidence, error) {
	t, err := openTable(name, body)
	if err != nil {
		return nil, err
	}
	iLevel, iAPI, iTime, iCount := t.h.col(colLevel), t.h.col(colAPIName), t.h.col(colAPITime), t.h.col(colCount)
	a := newAcc()
	for {
		ok, err := t.next()
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		cnt, okC, err := t.num(iCount, colCount[0])
		if err != nil {
			return nil, err
		}
		tm, _, err := t.num(iTime, colAPITime[0])
		if err != nil {
			return nil, err
		}
		if !okC || cnt < 0 || cnt > 1e12 || tm < 0 || tm > maxUs {
			continue
		}
		n, ns := int(cnt), int64(math.Round(tm*1000))
		api := t.str(iAPI)
		r := roleOf(api)
		if strings.EqualFold(t.str(iLevel), "node") && strings.EqualFold(api, "launch") {
			r = roleLaunch
		}
		switch r {
		case roleLaunch:
			a.launch += n
			a.launchNs += ns
		case roleGraph:
			a.graph += n
			a.graphNs += ns
		case roleSync:
			a.sync += n
			a.syncNs += ns
		}
	}
	ev := noDeviceOps("ascend-api-statistic")
	ev.Launches = model.CallStat{Count: a.launch, TimeUs: us(a.launchNs)}
	ev.GraphLaunches = model.CallStat{Count: a.graph, TimeUs: us(a.graphNs)}
	ev.Syncs = model.CallStat{Count: a.sync, TimeUs: us(a.syncNs)}
	return ev, nil
}

// decodeObject decodes a small JSON file that must be one object.
func decodeObject(name string, body []byte) (map[string]any, error) {
	v, err := jsonx.NewDecoder(body).Decode()
	if err != nil {
		return nil, position.InFile(name, err)
	}
	obj := jsonx.Object(v)
	if obj == nil {
		return nil, &position.Error{File: name, Offset: 0, Err: errors.New("not a JSON object")}
	}
	return obj, nil
}

// parseCommunication reads communication.json: per step, per collective (and p2p) op with its
// group, the time split (ms) and the bandwidth per transport; summed per op kind
// (hcom_allReduce) over the steps. "Total Op Info" repeats the sums and is left out.
func parseCommunication(name string, body []byte) (*model.TraceEvidence, error) {
	obj, err := decodeObject(name, body)
	if err != nil {
		return nil, err
	}
	by := map[string]*model.CollectiveStat{}
	steps := 0
	for _, stepKey := range naturalKeys(obj) {
		step := jsonx.Object(obj[stepKey])
		if step == nil {
			continue
		}
		steps++
		for _, kind := range []string{"collective", "p2p"} {
			ops := jsonx.Object(step[kind])
			for _, opKey := range naturalKeys(ops) {
				if opKey == "Total Op Info" {
					continue
				}
				op := jsonx.Object(ops[opKey])
				if op == nil {
					continue
				}
				k := collectiveKind(opKey)
				c := by[k]
				if c == nil {
					c = &model.CollectiveStat{Op: k}
					by[k] = c
				}
				c.Count++
				ti := jsonx.Object(op["Communication Time Info"])
				c.ElapseUs += msField(ti, "Elapse Time(ms)")
				c.TransitUs += msField(ti, "Transit Time(ms)")
				c.WaitUs += msField(ti, "Wait Time(ms)")
				c.SyncUs += msField(ti, "Synchronization Time(ms)")
				c.IdleUs += msField(ti, "Idle Time(ms)")
				bw := jsonx.Object(op["Communication Bandwidth Info"])
				for _, link := range naturalKeys(bw) {
					l := jsonx.Object(bw[link])
					mb, _ := jsonx.Float(l["Transit Size(MB)"])
					tu := msField(l, "Transit Time(ms)")
					if mb <= 0 && tu <= 0 {
						continue
					}
					if c.Links == nil {
						c.Links = map[string]model.LinkStat{}
					}
					s := c.Links[link]
					s.MB += mb
					s.TimeUs += tu
					c.Links[link] = s
				}
			}
		}
	}
	ev := noDeviceOps("ascend-communication")
	ev.Steps = steps
	for _, k := range naturalKeys(by) {
		c := by[k]
		for link, s := range c.Links {
			if s.TimeUs > 0 {
				s.GBps = s.MB / (s.TimeUs / 1000) // MB per ms is GB/s, as torch_npu computes it
			}
			c.Links[link] = s
		}
		ev.Collectives = append(ev.Collectives, *c)
	}
	sort.SliceStable(ev.Collectives, func(i, j int) bool { return ev.Collectives[i].ElapseUs > ev.Collectives[j].ElapseUs })
	return ev, nil
}

// collectiveKind names an op of communication.json by its kind: "hcom_allReduce__586_0_1@1752…"
// is hcom_allReduce_ (kernel_details.csv's Type).
func collectiveKind(key string) string {
	k, _, _ := strings.Cut(key, "@")
	if i := strings.Index(k, "__"); i > 0 {
		k = k[:i+1]
	}
	return k
}

// msField reads a time in ms as µs; 0 when absent.
func msField(obj map[string]any, key string) float64 {
	v, ok := jsonx.Float(obj[key])
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return 0
	}
	return v * 1000
}

// naturalKeys returns a map's keys in natural order ("step2" before "step10").
func naturalKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return naturalLess(keys[i], keys[j]) })
	return keys
}

// naturalLess orders "step2" before "step10".
func naturalLess(a, b string) bool {
	ta, na := splitNum(a)
	tb, nb := splitNum(b)
	if ta != tb || na < 0 || nb < 0 {
		return a < b
	}
	return na < nb
}

func splitNum(s string) (string, int) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	n, err := strconv.Atoi(s[i:])
	if err != nil {
		return s, -1
	}
	return s[:i], n
}

// versionKeys are the stack versions a profiler_info may carry (MindSpore's writes
// ms_version and cann_version; torch_npu's of the fixtures write none).
var versionKeys = map[string]string{"torch_npu_version": "torch_npu", "cann_version": "CANN", "ms_version": "MindSpore",
	"torch_version": "torch"}

// parseProfilerInfo reads profiler_info_<rank>.json: the profiler level, export type, AI Core
// metrics, activities, schedule and rank, and the stack versions where present.
func parseProfilerInfo(name string, body []byte) (*model.TraceEvidence, error) {
	obj, err := decodeObject(name, body)
	if err != nil {
		return nil, err
	}
	cfg := jsonx.Object(obj["config"])
	common, exp := jsonx.Object(cfg["common_config"]), jsonx.Object(cfg["experimental_config"])
	pc := &model.ProfilerConfig{Level: jsonx.Str(exp["_profiler_level"]), AICMetrics: jsonx.Str(exp["_aic_metrics"])}
	switch x := exp["_export_type"].(type) {
	case string:
		pc.ExportType = x
	default:
		if ss, ok := jsonx.Strings(x); ok {
			pc.ExportType = strings.Join(ss, ",")
		}
	}
	if acts, ok := jsonx.Strings(common["activities"]); ok {
		pc.Activities = acts
	}
	if sch := jsonx.Object(common["schedule"]); sch != nil {
		var parts []string
		for _, k := range []string{"skip_first", "wait", "warmup", "active", "repeat"} {
			if v, ok := jsonx.Int(sch[k]); ok {
				parts = append(parts, fmt.Sprintf("%s %d", k, v))
			}
		}
		pc.Schedule = strings.Join(parts, ", ")
	}
	if r, ok := jsonx.Int(obj["rank_id"]); ok {
		pc.Rank = strconv.FormatInt(r, 10)
	}
	for _, src := range []map[string]any{obj, cfg} {
		for k, label := range versionKeys {
			if v := strings.TrimSpace(jsonx.Str(src[k])); v != "" {
				if pc.Versions == nil {
					pc.Versions = map[string]string{}
				}
				pc.Versions[label] = v
			}
		}
	}
	ev := noDeviceOps("ascend-profiler-info")
	ev.Profiler = pc
	return ev, nil
}

// Facts is what a trace states of the stack: the versions its profiler recorded (CANN,
// torch_npu), as the base stack version; nil when it states none.
func Facts(t *model.TraceEvidence) *model.Facts {
	if t.Profiler == nil || len(t.Profiler.Versions) == 0 {
		return nil
	}
	var parts []string
	for _, label := range []string{"CANN", "torch_npu", "torch", "MindSpore"} {
		if v := t.Profiler.Versions[label]; v != "" {
			parts = append(parts, label+" "+v)
		}
	}
	return &model.Facts{BaseStackVersion: strings.Join(parts, ", "), Source: "profiler_info: its version keys"}
}
