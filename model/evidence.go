package model

import "strings"

// Evidence is what one attached file says beyond timings: the server log's stack and path, a
// utilisation trace's shape, a profiler trace's overhead and hotspot. Exactly one of the
// pointers is set. Evidence is read once at import and stored beside the file.
type Evidence struct {
	// File names the file it was read from, as the library lists it; filled when read back
	// with its run (store.RunEvidence), not stored with it.
	File        string         `json:"file,omitempty"`
	Kind        string         `json:"kind"`   // log, utilisation, trace, environment
	Format      string         `json:"format"` // e.g. "vllm 0.10+ log", "nvidia-smi --query-gpu csv", "kineto"
	Log         *LogEvidence   `json:"log,omitempty"`
	Utilisation *UtilEvidence  `json:"utilisation,omitempty"`
	Trace       *TraceEvidence `json:"trace,omitempty"`
	// ServerMetrics is what the model server's own metrics said (server-metrics evidence).
	ServerMetrics *ServerMetrics `json:"server_metrics,omitempty"`
	// Facts is what the file says of the run's conditions (METHOD.md rule 1) beside what it is
	// read for: an npu-smi table's driver and devices, a profiler's GPUs or stack versions.
	Facts       *Facts       `json:"facts,omitempty"`
	Environment *EnvEvidence `json:"environment,omitempty"` // collect_env, check_env, nvidia-smi topo / -q, pip list
	Warnings    []Warning    `json:"warnings,omitempty"`
}

// ServerMetrics is what a model server's own metrics said over a window, as a benchmark tool
// scraped them (inference-perf's prometheus reports, from vLLM's vllm:* or SGLang's sglang:*
// histograms): server-side evidence beside the client's figures, never the run's result,
// because its window need not be the run's.
type ServerMetrics struct {
	Source   string           `json:"source"` // "inference-perf prometheus report"
	Window   string           `json:"window"` // "stage 0", "all stages"
	Requests Num              `json:"requests"`
	Rate     Num              `json:"rate"`              // requests/s over the window
	Latency  map[string]Stats `json:"latency,omitempty"` // ms, by metric: ttft, tpot, e2el
	// Gauges are the other figures, means over the window: queue_len, kv_cache_usage_percentage,
	// prefix_cache_hit_percent, num_preemptions_total, num_requests_swapped, prompt_len, output_len.
	Gauges map[string]Num `json:"gauges,omitempty"`
}

// Facts is what a file states of the stack fingerprint and the hardware (the record's
// stack_fingerprint and hardware_sku), as the file states it, and where: the comparison sets
// it beside what bundle.yaml declares.
type Facts struct {
	BaseStackVersion string `json:"base_stack_version,omitempty"` // "CANN 8.0.RC3, torch_npu 2.5.1"
	DriverVersion    string `json:"driver_version,omitempty"`
	HardwareSKU      string `json:"hardware_sku,omitempty"` // "8 × 910B3, 65536 MB HBM each"
	Source           string `json:"source,omitempty"`       // where in the file: "npu-smi banner and device rows"
}

// Line is a quoted line of a file, with its 1-based number: the proof behind a finding.
type Line struct {
	N    int    `json:"line"`
	Text string `json:"text"`
}

// BackendStatus is how a server's resolved backend relates to its target
// (formats/logs-and-utilisation.md 3.4).
type BackendStatus string

// Backend statuses of a server.
const (
	BackendMatch          BackendStatus = "match"
	BackendFallback       BackendStatus = "fallback"
	BackendSilentOverride BackendStatus = "silent_override"
	BackendFailed         BackendStatus = "failed" // a fatal selection error, or the server never came up
	BackendUnknown        BackendStatus = "unknown"
)

// TargetSource says where the backend a server was asked for comes from.
type TargetSource string

// Target sources.
const (
	TargetFlag          TargetSource = "flag"           // --attention-backend, --attention-config, SGLang --attention-backend
	TargetEnv           TargetSource = "env"            // VLLM_ATTENTION_BACKEND, or the explicit selection it forced
	TargetDefault       TargetSource = "default"        // the platform default of the log's era
	TargetOnlyCandidate TargetSource = "only_candidate" // the one backend on offer ("out of potential backends: ['X']")
	TargetManifest      TargetSource = "bundle.yaml"    // path.target_backend of the bundle's manifest
)

// ResolvedHow says how the resolved backend was found.
type ResolvedHow string

// Resolution sources.
const (
	ResolvedLogged   ResolvedHow = "logged"   // a line names it
	ResolvedInferred ResolvedHow = "inferred" // the era's silent path (vLLM 0.5 FLASH_ATTN, vllm-ascend classes)
)

// LogEvidence is what a server log says.
type LogEvidence struct {
	Engine        string            `json:"engine"`                  // vllm, vllm-ascend, sglang
	Version       string            `json:"version,omitempty"`       // server / engine version
	Platform      string            `json:"platform,omitempty"`      // cuda, rocm, npu, xpu, tpu, cpu
	Plugins       []string          `json:"plugins,omitempty"`       // activated platform / general plugins
	EngineConfig  map[string]string `json:"engine_config,omitempty"` // k=v of the engine config line (repr values as text)
	Args          map[string]string `json:"args,omitempty"`          // non-default args / Namespace(...) / ServerArgs(...)
	Dtype         string            `json:"dtype,omitempty"`
	Overrides     []Line            `json:"overrides,omitempty"`      // silent config changes (dtype downcast, eager forced, ...)
	Eager         string            `json:"eager,omitempty"`          // "eager", "cuda_graph", "acl_graph", "" unknown
	TorchCompile  string            `json:"torch_compile,omitempty"`  // "on", "off", "" unknown
	GraphLines    []Line            `json:"graph_lines,omitempty"`    // capture / compile evidence
	KVCache       map[string]string `json:"kv_cache,omitempty"`       // gpu_blocks, kv_cache_gib, kv_cache_tokens, max_concurrency ...
	TargetBackend string            `json:"target_backend,omitempty"` // normalised (FLASH_ATTN, FLASHINFER, ...)
	TargetSource  TargetSource      `json:"target_source,omitempty"`  // flag, env, default, only_candidate
	TargetLine    *Line             `json:"target_line,omitempty"`
	Processes     []ProcessBackend  `json:"processes,omitempty"` // resolved backend per process tag
	Resolved      string            `json:"resolved_backend,omitempty"`
	ResolvedHow   ResolvedHow       `json:"resolved_source,omitempty"` // logged, inferred
	Fallbacks     []Line            `json:"fallbacks,omitempty"`       // every guard / fallback line, with its reason
	Failure       *Line             `json:"failure,omitempty"`         // a fatal selection error
	ServerFailure []Line            `json:"server_failure,omitempty"`  // the server never came up: the lines that say why
	Status        BackendStatus     `json:"status"`                    // match, fallback, silent_override, failed, unknown
	AuxBackends   map[string]string `json:"aux_backends,omitempty"`    // vit, moe, sampler, linear, all_reduce, graph, mla_prefill ...
	AuxLines      map[string]Line   `json:"aux_lines,omitempty"`       // the line behind an aux backend of a path (rule 10)
	Queue         []QueueSample     `json:"queue,omitempty"`           // the scheduler's periodic running / waiting counts
	// Client is the argument line of a benchmark client (vllm bench serve, benchmark_serving.py,
	// sglang.bench_serving) when the log is that client's console and no server spoke in it:
	// the evidence then claims nothing of the server (no target, backend, platform or failure).
	Client *Line `json:"client,omitempty"`
}

// QueueSample is one of a server's periodic scheduler lines (vLLM's "Running: N reqs, …
// Waiting: N reqs", its v0 "Pending: N reqs", SGLang's "#running-req: N … #queue-req: N"):
// the requests running and waiting at one time, the server metrics METHOD.md rule 14 reads
// for a waiting queue that grows.
type QueueSample struct {
	Line    int    `json:"line"`
	Time    string `json:"time,omitempty"`   // as the log writes it: "04-16 08:24:01" (vLLM, no year), "2025-07-09 11:52:50"
	Engine  string `json:"engine,omitempty"` // the engine or rank that printed it: "Engine 000", "TP0"
	Running int    `json:"running"`
	Waiting int    `json:"waiting"`
}

// ProcessBackend is the decoder-attention backend one process resolved to.
type ProcessBackend struct {
	Tag     string `json:"tag"` // "(EngineCore_DP0 pid=123)", "TP0", "" for an untagged process
	Backend string `json:"backend"`
	Line    Line   `json:"line"`
}

// ShapeClass is the class of a device's busy timeline (METHOD.md rule 8).
type ShapeClass string

// Utilisation shapes (METHOD.md rule 8).
const (
	ShapeSustainedHigh ShapeClass = "sustained_high"
	ShapeIntermittent  ShapeClass = "intermittent"
	ShapeLow           ShapeClass = "low"
)

// ShapeClasses lists the shapes in the order lists and legends show them.
var ShapeClasses = []ShapeClass{ShapeSustainedHigh, ShapeIntermittent, ShapeLow}

// UtilEvidence is a utilisation trace: per device, busy % over time.
type UtilEvidence struct {
	Tool    string         `json:"tool"` // nvidia-smi dmon, nvidia-smi query, dcgmi dmon, npu-smi watch, npu-smi info, rocm-smi
	Devices []DeviceSeries `json:"devices"`
	// Snapshot marks a one-off table (one npu-smi info): one sample per device, which says what
	// the machine is (Inventory, Facts) but is no timeline and has no shape.
	Snapshot  bool       `json:"snapshot,omitempty"`
	Inventory *Inventory `json:"inventory,omitempty"`
}

// Inventory is what a device tool's table says of the machine beside busy %: versions, each
// device's state and the processes holding the devices (which server owns the cards).
type Inventory struct {
	ToolVersion   string          `json:"tool_version,omitempty"`   // "npu-smi 24.1.0.3"
	DriverVersion string          `json:"driver_version,omitempty"` // the banner's "Version:"
	Devices       []DeviceInfo    `json:"devices"`
	Processes     []DeviceProcess `json:"processes,omitempty"`
}

// DeviceInfo is one device (an NPU chip) as a snapshot table shows it. Memory is MB.
type DeviceInfo struct {
	ID         string `json:"id"` // as DeviceSeries.ID: "3", or "3-1" for chip 1 of NPU 3
	Name       string `json:"name,omitempty"`
	BusID      string `json:"bus_id,omitempty"`
	Health     string `json:"health,omitempty"`
	PowerW     Num    `json:"power_w"`
	TempC      Num    `json:"temp_c"`
	BusyPct    Num    `json:"busy_pct"` // AICore(%), or NPU Util(%) on A5
	BusyColumn string `json:"busy_column,omitempty"`
	HBMUsedMB  Num    `json:"hbm_used_mb"`
	HBMTotalMB Num    `json:"hbm_total_mb"`
}

// DeviceProcess is a process holding a device, from the table below the devices.
type DeviceProcess struct {
	Device   string `json:"device"`
	PID      int64  `json:"pid"`
	Name     string `json:"name"`
	MemoryMB Num    `json:"memory_mb"`
}

// DeviceSeries is one device's busy timeline. T is seconds from the first sample of the file.
type DeviceSeries struct {
	ID     string    `json:"id"`
	Name   string    `json:"name,omitempty"`
	Start  string    `json:"start,omitempty"` // ISO time of the first sample when the file dates it
	T      []float64 `json:"t"`
	Busy   Series    `json:"busy"`             // %, NaN where the tool printed "-" or N/A
	Memory Series    `json:"memory,omitempty"` // memory-controller busy %, when present
	Shape  *Shape    `json:"shape,omitempty"`
}

// Shape summarises a busy timeline with the numbers behind its class.
type Shape struct {
	Class      ShapeClass `json:"class"` // sustained_high, intermittent, low
	MedianBusy float64    `json:"median_busy"`
	IdleShare  float64    `json:"idle_share"` // share of samples under the idle threshold
	IdleGaps   int        `json:"idle_gaps"`
	GapSeconds []float64  `json:"gap_seconds,omitempty"`
	// Rule 8's recurring gaps: the gaps of at least LongGap seconds, per minute of the
	// Seconds the samples span.
	LongGaps      int     `json:"long_gaps"`
	LongGap       float64 `json:"long_gap_s"`
	GapsPerMinute float64 `json:"gaps_per_minute"`
	Seconds       float64 `json:"seconds"`
	IdleBelow     float64 `json:"idle_below"` // the threshold used, %
	HighAbove     float64 `json:"high_above"` // median busy at or above this is high, %
	Samples       int     `json:"samples"`
}

// TraceEvidence is a profiler trace reduced to the overhead and hotspot figures of METHOD.md
// rule 5 (formats/traces.md 4.2). Times are microseconds.
type TraceEvidence struct {
	Source   string  `json:"source"`         // kineto, kineto-legacy, ascend-trace-view, ascend-kernel-details, ascend-op-statistic, ascend-step-trace, torch_npu, nsys-sqlite, nsys-stats
	Tool     string  `json:"tool,omitempty"` // the profiler and its version where the file names them ("Nsight Systems 2024.5.1.113, export schema 3.13.2")
	Device   string  `json:"device,omitempty"`
	Steps    int     `json:"steps"`     // steps counted (ProfilerStep#N); 0 when unmarked
	WindowUs float64 `json:"window_us"` // span analysed
	// WindowSteps counts the steps inside WindowUs (the first and last of three or more are
	// left out of it); 0 when the window is not made of steps or was stored before this field.
	WindowSteps   int                 `json:"window_steps,omitempty"`
	Copies        map[string]CopyStat `json:"copies"`   // HtoD, DtoH, DtoD, ...
	Launches      CallStat            `json:"launches"` // kernel launches (host)
	GraphLaunches CallStat            `json:"graph_launches"`
	Syncs         CallStat            `json:"syncs"` // blocking synchronisation calls (host)
	Kernels       int                 `json:"kernels"`
	BusyFraction  Num                 `json:"busy_fraction"`       // device busy share of the window (0-1); unknown without device events
	IdleGaps      []GapBin            `json:"idle_gaps,omitempty"` // log2 histogram of device idle gaps
	TopOps        []OpStat            `json:"top_ops"`             // device ops by total time, largest first
	PerStep       map[string]float64  `json:"per_step,omitempty"`  // the counts above divided by Steps
	// DeviceTimeUs is Σ of the device ops' durations (kernels, copies, memsets), the total the
	// families split (METHOD.md rule 11).
	DeviceTimeUs   float64      `json:"device_time_us,omitempty"`
	Families       []FamilyStat `json:"families,omitempty"`        // device time by operator family
	KernelBackends []KernelImpl `json:"kernel_backends,omitempty"` // attention implementations the kernels show, most time first

	// Waits are device tasks that only wait on another stream or rank (Ascend EVENT_WAIT,
	// HCCL Notify Wait): neither compute nor copies, so never kernel time.
	Waits *CallStat `json:"waits,omitempty"`
	// StepTime is the profiler's own split of its steps' device time (torch_npu's
	// step_trace_time.csv, or the trace's Overlap Analysis lane).
	StepTime *StepTime `json:"step_time,omitempty"`
	// Collectives are the communication ops by kind with their time split and bandwidth
	// (torch_npu communication.json).
	Collectives []CollectiveStat `json:"collectives,omitempty"`
	// HostDevice is each operator's host time beside the device time it caused (torch_npu
	// operator_details.csv): an operator far longer on the host is dispatch-bound.
	HostDevice *HostDevice `json:"host_device,omitempty"`
	// Profiler is how the profiler was set up (torch_npu profiler_info_<rank>.json).
	Profiler *ProfilerConfig `json:"profiler,omitempty"`
	// Files names the files of a multi-file capture read together into this one evidence.
	Files []string `json:"files,omitempty"`
	// Timeline is each device's busy % over the window, from the trace's own device activity
	// (an Nsight Systems export): the utilisation shape of rule 8 when no smi trace is attached.
	Timeline *UtilEvidence `json:"timeline,omitempty"`
}

// StepTime is a profiler's split of the steps' device time, every column it writes summed over
// the steps analysed (µs), and the share of the steps the device sat idle.
type StepTime struct {
	Steps   int                `json:"steps"`
	Columns map[string]float64 `json:"columns_us"` // Computing, Communication(Not Overlapped), Overlapped, Communication, Free, Stage, Bubble, Preparing, …
	// FreeShare is Free / Stage: the device idle inside its steps, waiting for the host when it
	// is large (METHOD.md rule 8's intermittent shape).
	FreeShare float64 `json:"free_share"`
	Source    string  `json:"source"` // the file (and lane) it was read from
}

// CollectiveStat is one kind of communication op (hcom_allReduce) over the steps analysed.
type CollectiveStat struct {
	Op        string  `json:"op"`
	Count     int     `json:"count"`
	ElapseUs  float64 `json:"elapse_us"`
	TransitUs float64 `json:"transit_us"`
	WaitUs    float64 `json:"wait_us"`
	SyncUs    float64 `json:"sync_us"`
	IdleUs    float64 `json:"idle_us"`
	// Links is the data moved per transport (HCCS, RDMA, PCIE, SDMA, SIO), links that moved none left out.
	Links map[string]LinkStat `json:"links,omitempty"`
}

// LinkStat is the data one transport moved and its bandwidth.
type LinkStat struct {
	MB     float64 `json:"mb"`
	TimeUs float64 `json:"time_us"`
	GBps   float64 `json:"gb_per_s"`
}

// HostDevice sums torch ops' host time against their device time.
type HostDevice struct {
	Ops          int            `json:"ops"` // op instances read
	HostSelfUs   float64        `json:"host_self_us"`
	DeviceSelfUs float64        `json:"device_self_us"`
	Top          []HostDeviceOp `json:"top"` // by host self time, largest first
}

// HostDeviceOp is one torch op's host and device time over its calls.
type HostDeviceOp struct {
	Name          string  `json:"name"`
	Count         int     `json:"count"`
	HostSelfUs    float64 `json:"host_self_us"`
	HostTotalUs   float64 `json:"host_total_us"`
	DeviceSelfUs  float64 `json:"device_self_us"`
	DeviceTotalUs float64 `json:"device_total_us"`
}

// ProfilerConfig is what a profiler recorded of its own set-up: the level says which files can
// exist, the schedule which steps were warm-up (left out) and which were measured.
type ProfilerConfig struct {
	Level      string   `json:"level,omitempty"` // Level0, Level1, Level2
	ExportType string   `json:"export_type,omitempty"`
	AICMetrics string   `json:"aic_metrics,omitempty"`
	Activities []string `json:"activities,omitempty"`
	Schedule   string   `json:"schedule,omitempty"` // "skip_first 40, wait 0, warmup 10, active 1, repeat 1"
	Rank       string   `json:"rank,omitempty"`
	// Versions of the stack when the profiler wrote them (torch_npu, CANN, MindSpore).
	Versions map[string]string `json:"versions,omitempty"`
}

// RecordsHostCalls reports whether the trace's format holds the host's calls (kernel launches,
// synchronisations): a Kineto trace, Ascend's trace_view.json or api_statistic.csv does (so
// does a torch_npu capture read with one of them); the Ascend CSV summaries hold device ops
// only, so their zero launches and syncs are unmeasured, not none.
func (t *TraceEvidence) RecordsHostCalls() bool {
	switch t.Source {
	case "kineto", "kineto-legacy", "ascend-trace-view", "ascend-api-statistic", "nsys-sqlite":
		return true
	}
	return t.readFrom("trace_view.json", "api_statistic.csv", "cuda_api_sum")
}

// RecordsDeviceOps reports whether the trace lists device ops (kernels, copies): not Ascend's
// step_trace_time.csv (per-step times only), nor the torch_npu files of host calls, host vs
// device time, collectives or set-up read alone.
func (t *TraceEvidence) RecordsDeviceOps() bool {
	switch t.Source {
	case "ascend-step-trace", "ascend-api-statistic", "ascend-operator-details", "ascend-communication", "ascend-profiler-info":
		return false
	case "torch_npu":
		return t.readFrom("trace_view.json", "kernel_details.csv", "op_statistic.csv")
	case "nsys-stats":
		return t.readFrom("cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum")
	}
	return true
}

// readFrom reports whether one of the capture's files has one of the names.
func (t *TraceEvidence) readFrom(names ...string) bool {
	for _, f := range t.Files {
		for _, n := range names {
			if strings.HasSuffix(f, n) {
				return true
			}
		}
	}
	return false
}

// FamilyStat is one operator family's part of a trace's device time (METHOD.md rule 11).
type FamilyStat struct {
	Family string   `json:"family"` // attention, gemm, moe, norm, elementwise, rotary, sampling, communication, memcpy, other
	Count  int      `json:"count"`
	TimeUs float64  `json:"time_us"`
	Share  float64  `json:"share"`         // of the trace's device time, 0-1
	Top    []string `json:"top,omitempty"` // its largest ops by time: what the family holds
}

// KernelImpl is an attention implementation named by the trace's kernels.
type KernelImpl struct {
	Backend string  `json:"backend"` // FLASH_ATTN, FLASHINFER, TRITON_ATTN, XFORMERS, PAGED_ATTN, ASCEND, ...
	Kernel  string  `json:"kernel"`  // its kernel with the most time: the proof
	Count   int     `json:"count"`
	TimeUs  float64 `json:"time_us"`
}

// CopyStat counts memory copies of one direction.
type CopyStat struct {
	Count  int     `json:"count"`
	Bytes  int64   `json:"bytes"`
	TimeUs float64 `json:"time_us"`
}

// CallStat counts host calls of one role and their time.
type CallStat struct {
	Count  int     `json:"count"`
	TimeUs float64 `json:"time_us"`
}

// GapBin is one bin of the idle-gap histogram.
type GapBin struct {
	Label  string  `json:"label"` // "<1us", "1-2us", …, "1-10ms", ">=10ms"
	Count  int     `json:"count"`
	TimeUs float64 `json:"time_us"`
}

// OpStat is a device op's share of the trace.
type OpStat struct {
	Name   string  `json:"name" yaml:"name"` // yaml tags too: comparison records quote top ops
	Count  int     `json:"count" yaml:"count"`
	TimeUs float64 `json:"time_us" yaml:"time_us"`
}

// EvidenceSummary is the part of a file's evidence that lists of runs show.
type EvidenceSummary struct {
	Kind string `json:"kind"`
	// TargetBackend is what the file says the run asked for: a server log's target (with
	// TargetSource, how it was asked) or the TargetVar a dump printed (TargetDump, TargetLine).
	TargetBackend   string        `json:"target_backend,omitempty"`
	TargetSource    TargetSource  `json:"target_source,omitempty"`
	TargetLine      int           `json:"target_line,omitempty"`
	ResolvedBackend string        `json:"resolved_backend,omitempty"` // as the log names it; never an inferred one
	BackendStatus   BackendStatus `json:"backend_status,omitempty"`
	Shape           ShapeClass    `json:"shape,omitempty"` // the most common device shape
	File            string        `json:"-"`               // the file's name, as Evidence.File
}

// TargetClaim is the file's word on the run's target, if it has one.
func (s EvidenceSummary) TargetClaim() (TargetClaim, bool) {
	return TargetClaim{Backend: s.TargetBackend, Source: s.TargetSource, File: s.File, Line: s.TargetLine}, s.TargetBackend != ""
}

// Summary condenses the evidence for lists.
func (e *Evidence) Summary() EvidenceSummary {
	s := EvidenceSummary{Kind: e.Kind, File: e.File}
	if e.Log != nil {
		s.TargetBackend, s.TargetSource, s.BackendStatus = e.Log.TargetBackend, e.Log.TargetSource, e.Log.Status
		if e.Log.ResolvedHow != ResolvedInferred {
			s.ResolvedBackend = e.Log.Resolved // a list shows only what the log says resolved
		}
	}
	if e.Environment != nil {
		if c, ok := (Fingerprint{Env: e.Environment.Env}).TargetClaim(); ok {
			s.TargetBackend, s.TargetSource, s.TargetLine = c.Backend, c.Source, c.Line
		}
	}
	if e.Utilisation != nil {
		count := map[ShapeClass]int{}
		for _, d := range e.Utilisation.Devices {
			if d.Shape != nil {
				count[d.Shape.Class]++
			}
		}
		best := 0
		for _, class := range ShapeClasses {
			if count[class] > best {
				s.Shape, best = class, count[class]
			}
		}
	}
	return s
}

// StatusFor re-judges the backend status against a target the log could not see (the
// bundle.yaml's path.target_backend): match when the server resolved it, fallback when it did
// not and the log gives a reason, silent_override when it gives none.
func (l *LogEvidence) StatusFor(target string) BackendStatus {
	if target == "" || l.Resolved == "" || l.Status == BackendFailed {
		return l.Status
	}
	switch {
	case l.Resolved == target:
		return BackendMatch
	case len(l.Fallbacks) > 0:
		return BackendFallback
	}
	return BackendSilentOverride
}

// EngineVersion says which server and version the log shows ("vllm 0.10.1", "sglang 0.4.9").
// A vllm-ascend server prints only vLLM's version (its banner and engine line), never the
// plugin's: "vLLM 0.27.1 + vllm-ascend (version not printed)".
func (l *LogEvidence) EngineVersion() string {
	if l.Engine != "vllm-ascend" {
		return strings.TrimSpace(l.Engine + " " + l.Version)
	}
	return strings.TrimSpace("vLLM "+l.Version) + " + vllm-ascend (version not printed)"
}
