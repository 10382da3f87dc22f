package compare

import (
	"benchlens/analysis/reproduce"
	"benchlens/analysis/slo"
	"benchlens/internal/version"
	"benchlens/model"
)

// Record is the attribution record of METHOD.md with its exact keys, plus the detail behind
// each finding. It is what `compare --format json|yaml` prints and what is saved.
type Record struct {
	StackFingerprint map[string]Field `json:"stack_fingerprint" yaml:"stack_fingerprint"`
	HardwareSKU      Field            `json:"hardware_sku" yaml:"hardware_sku"`
	Node             map[string]Field `json:"node" yaml:"node"`
	Workload         map[string]Field `json:"workload" yaml:"workload"`
	// EngineConfig is the servers' settings of rule 12 (prefix caching, chunked prefill, KV
	// cache offload, quantization, KV-cache dtype, graph mode, server warm-up), where a file says.
	EngineConfig map[string]Field      `json:"engine_config,omitempty" yaml:"engine_config,omitempty"`
	Path         Path                  `json:"path" yaml:"path"`
	Perf         map[string]StageDelta `json:"perf" yaml:"perf"`
	Tails        map[string]Tail       `json:"tails,omitempty" yaml:"tails,omitempty"`
	Overhead     Overhead              `json:"overhead" yaml:"overhead"`
	Hotspot      Hotspot               `json:"hotspot" yaml:"hotspot"`
	Families     *Families             `json:"families,omitempty" yaml:"families,omitempty"` // rule 11, when both arms have profiler traces
	Status       model.Status          `json:"status" yaml:"status"`
	Causes       []Cause               `json:"causes" yaml:"causes"`
	Notes        []string              `json:"notes,omitempty" yaml:"notes,omitempty"`
	Measurement  Measurement           `json:"measurement" yaml:"measurement"`
	Buckets      Buckets               `json:"buckets" yaml:"buckets"`
	Arms         Arms                  `json:"arms" yaml:"arms"`
	Settings     Settings              `json:"settings" yaml:"settings"`
	Reproduce    reproduce.Recipe      `json:"reproduce" yaml:"reproduce"` // the rerun recipe of each arm
	// Benchlens is the build that judged the comparison, set when it is saved.
	Benchlens *version.Info `json:"benchlens,omitempty" yaml:"benchlens,omitempty"`
	// Warnings are what the comparison noticed (profiler traces of different devices, sampled
	// runs, a run deleted since it was saved), each a code with its English text beside it.
	Warnings []model.Warning `json:"warnings,omitempty" yaml:"warnings,omitempty"`
	// DataQuality lists the runs' warnings about their data (implausible values, replaced
	// characters), each naming its arm and run.
	DataQuality []RunWarning `json:"data_quality,omitempty" yaml:"data_quality,omitempty"`
	// Rule 9, for arms that ran several load points: each matched point's own verdict, where
	// each status holds, and the points one arm ran alone.
	LoadPoints []LoadPointResult `json:"load_points,omitempty" yaml:"load_points,omitempty"`
	HoldsUnder string            `json:"holds_under,omitempty" yaml:"holds_under,omitempty"`
	Unmatched  []UnmatchedPoint  `json:"unmatched,omitempty" yaml:"unmatched,omitempty"`
	// Output is the arms' output length when they ran one point each (per point in
	// load_points otherwise): a result when the clients did not fix it (rule 12).
	Output *OutputLength `json:"output_length,omitempty" yaml:"output_length,omitempty"`
	// Saturated lists the load points where an arm was saturated (rule 14).
	Saturated []SaturatedPoint `json:"saturated,omitempty" yaml:"saturated,omitempty"`
	// SLO is each arm's attainment and goodput under the settings' SLO per load point, the
	// capacity under it and the Pareto frontier (rule 14); nil without an SLO.
	SLO *slo.Section `json:"slo,omitempty" yaml:"slo,omitempty"`
	// Change is the change the manifests declare (rule 10); its fields are reported as the change.
	Change *model.Change `json:"change,omitempty" yaml:"change,omitempty"`
}

// Field is one condition compared between the arms (and inside each).
type Field struct {
	Baseline  string               `json:"baseline" yaml:"baseline"`
	Candidate string               `json:"candidate" yaml:"candidate"`
	State     model.ConditionState `json:"state" yaml:"state"` // same, differs, unknown
	Required  bool                 `json:"required,omitempty" yaml:"required,omitempty"`
	Note      string               `json:"note,omitempty" yaml:"note,omitempty"` // e.g. runs of one arm disagree, manifest vs file
	// Source says per arm where its value was read: a file and line ("run/collect_env.txt line
	// 23"), "bundle.yaml"; empty for a value of the server log or the result.
	Source   *ArmValues `json:"source,omitempty" yaml:"source,omitempty"`
	Declared bool       `json:"declared_change,omitempty" yaml:"declared_change,omitempty"` // differs because the change says so (rule 10)
}

// Cause is a cause code with a one-line reason.
type Cause struct {
	Code   model.CauseCode `json:"code" yaml:"code"`
	Reason string          `json:"reason" yaml:"reason"`
}

// Path is the path evidence (rule 3).
type Path struct {
	TargetBackend ArmValues `json:"target_backend" yaml:"target_backend"`
	// TargetFrom says per arm where the target was read, when an environment dump's
	// VLLM_ATTENTION_BACKEND gave one (the log silent on it).
	TargetFrom      *ArmValues       `json:"target_source,omitempty" yaml:"target_source,omitempty"`
	ResolvedBackend ArmValues        `json:"resolved_backend" yaml:"resolved_backend"`
	Changed         *bool            `json:"changed" yaml:"changed"` // null when unknown
	TargetHit       *bool            `json:"target_hit" yaml:"target_hit"`
	KernelBackend   ArmValues        `json:"kernel_backend" yaml:"kernel_backend"`                   // the attention implementation the traces' kernels show (rule 11)
	Declared        model.ChangePath `json:"declared_path,omitempty" yaml:"declared_path,omitempty"` // change.path of rule 10 when not attention
	Evidence        []EvidenceLine   `json:"evidence,omitempty" yaml:"evidence,omitempty"`           // resolution and fallback lines quoted
}

// EvidenceLine is a quoted log line with where it came from. Lines that only differ in
// timestamps and process ids are quoted once, with the number of runs that printed them.
type EvidenceLine struct {
	Arm  string `json:"arm" yaml:"arm"`
	Run  int64  `json:"run" yaml:"run"`
	File string `json:"file,omitempty" yaml:"file,omitempty"` // set for a line of another file than the server log (an environment dump)
	Line int    `json:"line" yaml:"line"`
	Text string `json:"text" yaml:"text"`
	Runs int    `json:"runs" yaml:"runs"` // runs that printed the same line
}

// ArmValues is a value per arm.
type ArmValues struct {
	Baseline  string `json:"baseline" yaml:"baseline"`
	Candidate string `json:"candidate" yaml:"candidate"`
}

// Tail is how a latency's tail moved, beside the median of Perf: the change of the median of
// the per-run p90 and p99, in %. Descriptive: no test is run on tails (METHOD.md's verdict rests
// on the medians).
type Tail struct {
	P90Delta model.Num `json:"p90_delta_pct" yaml:"p90_delta_pct"`
	P99Delta model.Num `json:"p99_delta_pct" yaml:"p99_delta_pct"`
}

// StageDelta compares one stage metric (rule 4).
type StageDelta struct {
	Stage         model.Stage `json:"stage" yaml:"stage"` // prefill, decode, both
	Unit          string      `json:"unit" yaml:"unit"`
	Baseline      model.Num   `json:"baseline" yaml:"baseline"` // median of the per-run statistics
	Candidate     model.Num   `json:"candidate" yaml:"candidate"`
	BaselineTrim  model.Num   `json:"baseline_trimmed" yaml:"baseline_trimmed"` // with the lowest and highest run dropped
	CandidateTrim model.Num   `json:"candidate_trimmed" yaml:"candidate_trimmed"`
	Delta         model.Num   `json:"delta_pct" yaml:"delta_pct"` // candidate / baseline - 1, in %
	CILow         model.Num   `json:"ci_low_pct" yaml:"ci_low_pct"`
	CIHigh        model.Num   `json:"ci_high_pct" yaml:"ci_high_pct"`
	P             model.Num   `json:"p" yaml:"p"`
	N             [2]int      `json:"n" yaml:"n"`                     // runs (or requests, per request) per arm
	PerRequest    bool        `json:"per_request" yaml:"per_request"` // compared request by request (one run per arm)
	Significant   bool        `json:"significant" yaml:"significant"`
	Better        bool        `json:"better" yaml:"better"` // significant and in the good direction
	Worse         bool        `json:"worse" yaml:"worse"`
	// BaselineRuns and CandidateRuns are the per-run statistics the test compared (one per run,
	// in run order), so a reader sees the spread the verdict rests on; empty per request.
	BaselineRuns  []float64 `json:"baseline_runs,omitempty" yaml:"baseline_runs,omitempty"`
	CandidateRuns []float64 `json:"candidate_runs,omitempty" yaml:"candidate_runs,omitempty"`
}

// Overhead is rule 5: copies, launches and syncs per step from profiler traces.
type Overhead struct {
	Measured     bool       `json:"measured" yaml:"measured"` // false: "overhead: unmeasured"
	ExtraCopy    CountDelta `json:"extra_copy" yaml:"extra_copy"`
	KernelLaunch CountDelta `json:"kernel_launch" yaml:"kernel_launch"`
	ExtraSync    CountDelta `json:"extra_sync" yaml:"extra_sync"`
	DeviceTime   CountDelta `json:"device_time_us_per_step" yaml:"device_time_us_per_step"`
	Grew         bool       `json:"grew" yaml:"grew"`
	Per          string     `json:"per,omitempty" yaml:"per,omitempty"` // "step" or "trace"
	// Missing names the figures some trace's format does not record, and those formats
	// (Ascend's CSV summaries hold no host calls): unmeasured, not zero.
	Missing string `json:"missing,omitempty" yaml:"missing,omitempty"`
}

// CountDelta is a count per arm and its change.
type CountDelta struct {
	Baseline  model.Num `json:"baseline" yaml:"baseline"`
	Candidate model.Num `json:"candidate" yaml:"candidate"`
	Delta     model.Num `json:"delta" yaml:"delta"`
}

// Hotspot is rules 3 (hotspot moved) and 8 (utilisation shape).
type Hotspot struct {
	DeviceUtilTrace ArmValues `json:"device_util_trace" yaml:"device_util_trace"` // shape per arm
	HotspotStage    string    `json:"hotspot_stage" yaml:"hotspot_stage"`         // prefill, decode, both, none
	Moved           string    `json:"moved" yaml:"moved"`                         // yes, no, unverified
	TopOps          struct {
		Baseline  []model.OpStat `json:"baseline" yaml:"baseline"`
		Candidate []model.OpStat `json:"candidate" yaml:"candidate"`
	} `json:"top_ops" yaml:"top_ops"`
	Remedy      string   `json:"remedy,omitempty" yaml:"remedy,omitempty"`
	ShapeDetail []string `json:"shape_detail,omitempty" yaml:"shape_detail,omitempty"` // the numbers behind each shape
}

// Measurement is rule 2.
type Measurement struct {
	Repeats     [2]int    `json:"repeats" yaml:"repeats"`
	WarmupIters [2]string `json:"warmup_iters" yaml:"warmup_iters"` // declared per arm
	// WarmupRuns are each arm's warm-up runs saved beside its measured runs (rule 12); Warmups
	// names them with what marked them.
	WarmupRuns *PerArm[[]int64] `json:"warmup_runs,omitempty" yaml:"warmup_runs,omitempty"`
	Warmups    []string         `json:"warmups,omitempty" yaml:"warmups,omitempty"`
	ColdStarts []string         `json:"cold_starts,omitempty" yaml:"cold_starts,omitempty"`
	// Sampled names the runs whose per-request records are a sample of what the tool
	// summarised: their tool statistics are compared, their records are not.
	Sampled []string `json:"sampled,omitempty" yaml:"sampled,omitempty"`
	Advice  []string `json:"advice,omitempty" yaml:"advice,omitempty"` // how many more repeats are needed
	// Hints is the advice as data, worded at the edge (empty in records saved before it).
	Hints []model.Hint `json:"advice_hints,omitempty" yaml:"advice_hints,omitempty"`
	// Power is how small a change of each stage metric the runs can detect, and how many runs
	// a change of detect_change needs (issue 28 item 5).
	Power []Detectable `json:"power,omitempty" yaml:"power,omitempty"`
}

// Buckets is rule 7: the stage comparison per input-length bucket.
type Buckets struct {
	Edges     []float64      `json:"edges" yaml:"edges"` // input tokens: short <= edges[0] < mixed … < edges[1] < long
	OneLength bool           `json:"one_length" yaml:"one_length"`
	Rows      []BucketResult `json:"rows" yaml:"rows"`
	HoldsIn   []string       `json:"holds_in" yaml:"holds_in"` // buckets where the conclusion holds
}

// BucketResult is the stage comparison inside one bucket; p-values are Holm-adjusted across buckets.
type BucketResult struct {
	Bucket string                `json:"bucket" yaml:"bucket"` // short, long, mixed (all)
	Stages map[string]StageDelta `json:"stages" yaml:"stages"`
}

// Arms names the runs compared.
type Arms struct {
	Baseline  ArmInfo `json:"baseline" yaml:"baseline"`
	Candidate ArmInfo `json:"candidate" yaml:"candidate"`
}

// ArmInfo is an arm's label and run ids.
type ArmInfo struct {
	Label string  `json:"label" yaml:"label"`
	Runs  []int64 `json:"runs" yaml:"runs"`
}
