package trace

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// captureFiles reads the turn3 torch_npu export (files 01-07 and 09 of one Level1 capture).
func captureFiles(t *testing.T) []CaptureFile {
	t.Helper()
	names, _ := filepath.Glob(turn3 + "npu_0[1-79]_torchnpu_*")
	if len(names) != 8 {
		t.Fatalf("%d files of the torch_npu capture", len(names))
	}
	var files []CaptureFile
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, CaptureFile{Name: "rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/" + filepath.Base(n), Data: data})
	}
	return files
}

// The files of one capture read together agree with each other and with SOURCES.md: step 50's
// split of step_trace_time.csv (Computing 8 873.8, Communication 105 991.9, Free 25 744.1,
// Stage 136 581 µs, busy (Stage−Free)/Stage = 81.2 %); Computing is the 187 compute tasks
// (op_statistic Σ); HCCL's Notify Wait / Write Value / SDMA and the EVENT_WAITs are no kernels;
// 191 Node@launch (= api_statistic's node launch); the four allReduces of communication.json
// are the communication family's 105 991.9 µs.
func TestTorchNPUCapture(t *testing.T) {
	ev, warnings, err := ReadCapture(captureFiles(t), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("the files of one capture disagree: %q", warnings)
	}
	if ev.Source != "torch_npu" || len(ev.Files) != 8 || ev.Steps != 1 || ev.Kernels != 187 || ev.Launches.Count != 191 {
		t.Errorf("source %s files %v steps %d kernels %d launches %d", ev.Source, ev.Files, ev.Steps, ev.Kernels, ev.Launches.Count)
	}
	st := ev.StepTime
	if st == nil || st.Source != "step_trace_time.csv" || !near(st.Columns["Computing"], 8873.756000000001) ||
		!near(st.Columns["Communication"], 105991.87800000001) || !near(st.Columns["Free"], 25744.050000000003) ||
		!near(st.Columns["Stage"], 136581) || !near(st.Columns["Preparing"], 17902.5) || len(st.Columns) != 9 {
		t.Fatalf("step time %+v", st)
	}
	if math.Abs(ev.BusyFraction.F()-(136581-25744.05)/136581) > 1e-6 || math.Abs(ev.WindowUs-136581) > 0.01 {
		t.Errorf("busy %v of %v us", ev.BusyFraction, ev.WindowUs)
	}
	var compute, comm float64
	for _, f := range ev.Families {
		switch f.Family {
		case FamComm:
			comm = f.TimeUs
		case FamMemcpy:
		default:
			compute += f.TimeUs
		}
	}
	if math.Abs(compute-8873.756) > 0.05 || math.Abs(comm-105991.878) > 0.05 {
		t.Errorf("compute %v comm %v us", compute, comm)
	}
	if ev.Waits == nil || ev.Waits.Count != 112+10 {
		t.Errorf("waits %+v", ev.Waits)
	}
	if len(ev.Collectives) != 1 || ev.Collectives[0].Op != "hcom_allReduce_" || ev.Collectives[0].Count != 4 ||
		math.Abs(ev.Collectives[0].ElapseUs-105991.878) > 0.01 {
		t.Errorf("collectives %+v", ev.Collectives)
	}
	if hd := ev.HostDevice; hd == nil || hd.Ops != 859 || hd.Top[0].Name != "aten::_local_scalar_dense" {
		t.Errorf("host vs device %+v", ev.HostDevice)
	}
	if p := ev.Profiler; p == nil || p.Level != "Level1" || p.Rank != "0" || p.Schedule != "skip_first 40, wait 0, warmup 10, active 1, repeat 1" {
		t.Errorf("profiler %+v", ev.Profiler)
	}
	for _, op := range ev.TopOps {
		if strings.Contains(op.Name, "Notify") || strings.Contains(op.Name, "EVENT") || op.Name == "Wait" || op.Name == "Value" {
			t.Errorf("a wait or notification among the device ops: %+v", op)
		}
	}
	if !ev.RecordsHostCalls() || !ev.RecordsDeviceOps() {
		t.Error("a capture with trace_view.json records host calls and device ops")
	}
}

// A capture whose files disagree says so: a step_trace_time.csv of another capture.
func TestTorchNPUCaptureDisagrees(t *testing.T) {
	files := captureFiles(t)
	for i, f := range files {
		if strings.HasSuffix(f.Name, "step_trace_time.csv") {
			files[i].Data = []byte("Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,Preparing\n50,4000,1000,0,1000,5000,10000,0,0\n")
		}
	}
	_, warnings, err := ReadCapture(files, 0)
	if err != nil || len(warnings) == 0 || !strings.Contains(strings.Join(warnings, "\n"), "disagree on Computing") {
		t.Errorf("%v %q", err, warnings)
	}
}

func TestCaptureKey(t *testing.T) {
	for path, want := range map[string]string{
		"b/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json":     "b/rank0_ascend_pt",
		"b/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/kernel_details.csv":  "b/rank0_ascend_pt",
		"b/rank0_ascend_pt/profiler_info_0.json":                       "b/rank0_ascend_pt",
		"b/rank1_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv": "b/rank1_ascend_pt",
		"b/copied/npu_01_torchnpu_L1_trace_view.json":                  "b/copied",
		"b/cluster_analysis_output/cluster_step_trace_time.csv":        "",
		"b/PROF_1/mindstudio_profiler_output/op_summary_1.csv":         "",
		"b/trace.json":           "",
		"b/profiler_info_x.json": "",
	} {
		if got := CaptureKey(path); got != want {
			t.Errorf("CaptureKey(%s) = %q, want %q", path, got, want)
		}
	}
}
