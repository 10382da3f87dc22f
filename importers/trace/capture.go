package trace

import (
	"fmt"
	"math"
	"path"
	"strings"

	"benchlens/model"
)

// torch_npu writes one folder per rank (<host>_<pid>_<time>_ascend_pt/, or rank<N>_ascend_pt/)
// with ASCEND_PROFILER_OUTPUT/ below it: trace_view.json, kernel_details.csv,
// op_statistic.csv, step_trace_time.csv, operator_details.csv, api_statistic.csv,
// communication.json, and profiler_info_<rank>.json beside that folder. They are views of one
// capture; read together they give one set of figures (more-formats.md 3.4).

// captureNames are the file names of a torch_npu export, by the layout each holds.
var captureNames = []struct {
	suffix string
	layout Layout
}{
	{"trace_view.json", EventArray}, {"kernel_details.csv", KernelDetails}, {"op_statistic.csv", OpStatistic},
	{"step_trace_time.csv", StepTrace}, {"operator_details.csv", OperatorDetails}, {"api_statistic.csv", APIStatistic},
	{"communication.json", Communication},
}

// CaptureKey names the torch_npu capture a file belongs to: the folder above
// ASCEND_PROFILER_OUTPUT (where profiler_info_<rank>.json sits), or the file's own folder when
// the export's files were copied elsewhere; "" for a file of no torch_npu name (an msprof
// op_summary, a cluster_step_trace_time.csv), which is read alone.
func CaptureKey(p string) string {
	p = strings.ReplaceAll(p, `\`, "/")
	base := strings.ToLower(path.Base(p))
	if !isCaptureName(base) {
		return ""
	}
	dir := path.Dir(p)
	if path.Base(dir) == "ASCEND_PROFILER_OUTPUT" {
		dir = path.Dir(dir)
	}
	return dir
}

func isCaptureName(base string) bool {
	if strings.HasPrefix(base, "cluster_") {
		return false
	}
	for _, n := range captureNames {
		if strings.HasSuffix(base, n.suffix) {
			return true
		}
	}
	return profilerInfoName(base)
}

// profilerInfoName tells profiler_info.json and profiler_info_<rank>.json.
func profilerInfoName(base string) bool {
	i := strings.LastIndex(base, "profiler_info")
	if i < 0 || !strings.HasSuffix(base, ".json") {
		return false
	}
	rest := strings.TrimSuffix(base[i+len("profiler_info"):], ".json")
	return rest == "" || rest[0] == '_' && strings.Trim(rest[1:], "0123456789") == ""
}

// CaptureFile is one file of a capture.
type CaptureFile struct {
	Name string
	Data []byte
}

// agree is how far two figures of one capture may differ before ReadCapture says so.
const agree = 0.01

// ReadCapture reads the files of one torch_npu capture into one evidence: the device ops,
// host calls, window and idle gaps of trace_view.json (else kernel_details.csv, else
// op_statistic.csv); the step split of step_trace_time.csv, every column (its busy share and
// window are the capture's); operator_details.csv's host vs device time; communication.json's
// collectives; profiler_info's set-up. Figures two files give are checked against each other
// (computing time, launches, collective time) and a disagreement is a warning. A second file
// of one kind is left out with a warning.
func ReadCapture(files []CaptureFile, maxBytes int64) (*model.TraceEvidence, []string, error) {
	parts := map[Layout]*model.TraceEvidence{}
	names := map[Layout]string{}
	var order []Layout
	var warnings []string
	for _, f := range files {
		l := Detect(f.Data)
		if l == NotTrace {
			continue
		}
		if prev, dup := names[l]; dup {
			warnings = append(warnings, fmt.Sprintf("%s: a second %s in one capture, left out (%s is read)", f.Name, layoutName(l), prev))
			continue
		}
		ev, err := Parse(f.Name, f.Data, maxBytes)
		if err != nil {
			return nil, warnings, err
		}
		parts[l], names[l] = ev, f.Name
		order = append(order, l)
	}
	var ev *model.TraceEvidence
	for _, l := range []Layout{EventArray, KernelDetails, OpStatistic, StepTrace, APIStatistic, OperatorDetails, Communication, ProfilerInfo} {
		if parts[l] != nil {
			ev = parts[l]
			break
		}
	}
	if ev == nil {
		return nil, warnings, fmt.Errorf("%w: no file of the capture is a torch_npu export", ErrNotTrace)
	}
	for _, l := range order {
		ev.Files = append(ev.Files, path.Base(names[l]))
	}
	if len(order) > 1 {
		ev.Source = "torch_npu"
	}
	if st := parts[StepTrace]; st != nil && st != ev {
		if ev.StepTime != nil && st.StepTime != nil {
			warnings = append(warnings, disagree("Computing (µs)", "trace_view.json's Overlap Analysis", ev.StepTime.Columns[colComputing],
				names[StepTrace], st.StepTime.Columns[colComputing])...)
			warnings = append(warnings, disagree("Free (µs)", "trace_view.json's Overlap Analysis", ev.StepTime.Columns[colFreeTime],
				names[StepTrace], st.StepTime.Columns[colFreeTime])...)
		}
		ev.StepTime, ev.BusyFraction, ev.WindowUs, ev.WindowSteps = st.StepTime, st.BusyFraction, st.WindowUs, st.WindowSteps
		if ev.Steps == 0 {
			ev.Steps = st.Steps
		}
	}
	if op := parts[OpStatistic]; op != nil && op != ev && ev.StepTime != nil {
		var compute float64
		for _, f := range op.Families {
			if f.Family != FamComm && f.Family != FamMemcpy {
				compute += f.TimeUs
			}
		}
		warnings = append(warnings, disagree("computing time (µs)", names[OpStatistic], compute, "the step split", ev.StepTime.Columns[colComputing])...)
	}
	if api := parts[APIStatistic]; api != nil && api != ev {
		if parts[EventArray] != nil {
			warnings = append(warnings, disagree("kernel launches", "the trace", float64(ev.Launches.Count), names[APIStatistic], float64(api.Launches.Count))...)
		} else {
			ev.Launches, ev.GraphLaunches, ev.Syncs = api.Launches, api.GraphLaunches, api.Syncs
		}
	}
	if kd := parts[KernelDetails]; kd != nil && kd != ev {
		warnings = append(warnings, disagree("kernels", "the trace", float64(ev.Kernels), names[KernelDetails], float64(kd.Kernels))...)
	}
	if od := parts[OperatorDetails]; od != nil && od != ev {
		ev.HostDevice = od.HostDevice
	}
	if c := parts[Communication]; c != nil && c != ev {
		ev.Collectives = c.Collectives
		if ev.StepTime != nil {
			var elapse float64
			for _, x := range c.Collectives {
				elapse += x.ElapseUs
			}
			warnings = append(warnings, disagree("communication time (µs)", names[Communication], elapse, "the step split", ev.StepTime.Columns[colCommAll])...)
		}
	}
	if pi := parts[ProfilerInfo]; pi != nil && pi != ev {
		ev.Profiler = pi.Profiler
	}
	return ev, warnings, nil
}

// disagree says when two files of one capture give one figure more than 1 % apart.
func disagree(what, a string, x float64, b string, y float64) []string {
	if math.Abs(x-y) <= agree*math.Max(math.Abs(x), math.Abs(y)) {
		return nil
	}
	return []string{fmt.Sprintf("the capture's files disagree on %s: %s says %.6g, %s says %.6g", what, a, x, b, y)}
}

func layoutName(l Layout) string {
	for _, n := range captureNames {
		if n.layout == l {
			return n.suffix
		}
	}
	if l == ProfilerInfo {
		return "profiler_info json"
	}
	return "trace"
}
