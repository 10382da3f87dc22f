package model

import (
	"math"
	"slices"
	"strings"
)

// Metric names, normalised across tools. Times are milliseconds in summaries.
const (
	TTFT = "ttft" // time to first token: prefill plus the first decode step
	TPOT = "tpot" // time per output token after the first, per request
	ITL  = "itl"  // gap between consecutive streamed chunks or tokens
	E2EL = "e2el" // end-to-end request latency
)

// Stats maps a statistic (mean, median, std, min, max, p50, p99, p99.9 …) to its value in ms.
type Stats map[string]Num

// Phases of a run: a measured run (PhaseMeasured, stored as "") or a warm-up run.
const (
	PhaseWarmup   = "warmup"
	PhaseMeasured = "measured"
)

// IsWarmup reports whether the run is a warm-up run saved beside the measured ones.
func (r *Run) IsWarmup() bool { return r.Phase == PhaseWarmup }

// Run is one benchmark execution, normalised across tools and eras.
type Run struct {
	ID     int64  `json:"id"`
	Label  string `json:"label"`
	Role   Role   `json:"role"`
	Bundle string `json:"bundle,omitempty"` // the path the run was imported from

	Tool        string `json:"tool"`                   // vllm, vllm-bench, sglang, llmperf, genai-perf, aiperf, guidellm
	ToolVersion string `json:"tool_version,omitempty"` // as the file states it
	Era         Era    `json:"era,omitempty"`          // the format generation, e.g. EraVLLMG
	Date        string `json:"date,omitempty"`         // ISO 8601; no zone when the file gave none
	Backend     string `json:"backend,omitempty"`      // the benchmark client's backend or endpoint type
	Model       string `json:"model"`
	Tokenizer   string `json:"tokenizer,omitempty"`
	Dataset     string `json:"dataset,omitempty"`
	// Precision is the weights' precision or quantization (FP16, BF16, FP8, AWQ …) as the
	// server's settings, the model's name or the result file's name say it (PrecisionFrom
	// names which): FP16 and FP8 runs of one model are told apart by it.
	Precision     string `json:"precision,omitempty"`
	PrecisionFrom string `json:"precision_from,omitempty"`

	// IdentifiedBy is the signal in the file that named the tool and era (a backend field,
	// schema or version keys), so a wrong guess can be traced to its cause.
	IdentifiedBy string `json:"identified_by,omitempty"`

	NumPrompts Num `json:"num_prompts"`
	Completed  Num `json:"completed"`
	Failed     Num `json:"failed"` // every request that did not succeed
	// Errored, Incomplete and Cancelled split Failed as the tool did; unknown when the tool
	// keeps no such categories.
	Errored           Num `json:"errored"`
	Incomplete        Num `json:"incomplete"`
	Cancelled         Num `json:"cancelled"`
	RequestRate       Num `json:"request_rate"` // requests/s, "inf" when unthrottled
	Burstiness        Num `json:"burstiness"`
	MaxConcurrency    Num `json:"max_concurrency"`
	DurationS         Num `json:"duration_s"`
	TotalInputTokens  Num `json:"total_input_tokens"`
	TotalOutputTokens Num `json:"total_output_tokens"`

	RequestThroughput    Num `json:"request_throughput"`     // req/s
	Goodput              Num `json:"request_goodput"`        // req/s
	InputThroughput      Num `json:"input_throughput"`       // tok/s
	OutputThroughput     Num `json:"output_throughput"`      // tok/s
	TotalTokenThroughput Num `json:"total_token_throughput"` // tok/s

	// Summary is the tool's own statistics per metric, verbatim but in ms.
	Summary map[string]Stats `json:"summary"`
	// Recomputed holds the same statistics computed by benchlens from per-request data.
	Recomputed map[string]Stats `json:"recomputed,omitempty"`
	// Definitions says how the tool defined a metric where tools differ (ITL pooled over
	// gaps or averaged per request, TPOT excluding the first token …).
	Definitions map[string]string `json:"definitions,omitempty"`

	// Sampled is set when the per-request records are a sample of the requests the tool
	// summarised (GuideLLM --output-sampling): they are then shown but never replace the
	// tool's statistics.
	Sampled *Sample `json:"sampled,omitempty"`
	// ToolWarmup is the warm-up and cool-down the tool itself kept out of its statistics:
	// the run's declared warm-up (METHOD.md rule 2). Records of them are not in Requests.
	ToolWarmup *Warmup `json:"tool_warmup,omitempty"`

	// Phase is PhaseWarmup for a warm-up run saved beside the measured ones (METHOD.md rule
	// 12): not a repeat, it is the arm's warm-up. PhaseWhy says what marked it (its name,
	// bundle.yaml's phase, a phase list's record).
	Phase    string `json:"phase,omitempty"`
	PhaseWhy string `json:"phase_why,omitempty"`

	Metadata map[string]string `json:"metadata,omitempty"` // --metadata pairs
	Extra    map[string]any    `json:"extra,omitempty"`    // every other key the file held
	Manifest Manifest          `json:"manifest,omitempty"`
	Warnings []Warning         `json:"warnings,omitempty"` // what the importer noticed

	Requests []Request `json:"-"`
	// Measured is what a compare reads of the measured requests, stored at import (nil: not
	// stored, computed from Requests when needed).
	Measured *MeasuredStats `json:"-"`
	// Point is the run's load point as stored at import (PointOf of the whole run), which
	// PointOf gives for a run read without its requests (a listing, a History series): nil
	// when not read or not stored.
	Point *LoadPoint `json:"-"`
}

// Request is one request of a run. Times are seconds; NaN when the tool did not record them.
type Request struct {
	InputLen  int       // prompt tokens, -1 unknown
	OutputLen int       // output tokens, -1 unknown
	TTFT      float64   // s
	TPOT      float64   // s; NaN means derive it from latency or gaps
	Latency   float64   // s, end to end
	Start     float64   // s, on the tool's clock (not always the Unix epoch)
	ITL       []float64 // s, every gap between streamed chunks
	Error     string    // "" for success
}

// OK reports whether the request succeeded.
func (r *Request) OK() bool { return r.Error == "" }

// SetStat records one statistic of a metric in the tool's own summary.
// A NaN (numpy's value for a statistic of no samples) stays unknown, and a warning names it.
func (r *Run) SetStat(metric, stat string, ms float64) {
	if math.IsNaN(ms) {
		r.noteNaN(metric + " " + stat)
	}
	if r.Summary == nil {
		r.Summary = map[string]Stats{}
	}
	if r.Summary[metric] == nil {
		r.Summary[metric] = Stats{}
	}
	r.Summary[metric][stat] = Num(ms)
}

// noteNaN adds name to the run's one warning of NaN statistics, in sorted order.
func (r *Run) noteNaN(name string) {
	for i, w := range r.Warnings {
		if w.Code == WarnToolNaN && len(w.Args) == 1 {
			names := append(strings.Split(w.Args[0], ", "), name)
			slices.Sort(names)
			r.Warnings[i].Args = []string{strings.Join(names, ", ")}
			return
		}
	}
	r.Warnings = append(r.Warnings, Warn(WarnToolNaN, name))
}

// NewRun returns a run with every optional number unknown.
func NewRun(tool string) *Run {
	return &Run{
		Tool:       tool,
		NumPrompts: Unknown, Completed: Unknown, Failed: Unknown, RequestRate: Unknown,
		Errored: Unknown, Incomplete: Unknown, Cancelled: Unknown,
		Burstiness: Unknown, MaxConcurrency: Unknown, DurationS: Unknown,
		TotalInputTokens: Unknown, TotalOutputTokens: Unknown,
		RequestThroughput: Unknown, Goodput: Unknown, InputThroughput: Unknown,
		OutputThroughput: Unknown, TotalTokenThroughput: Unknown,
		Summary: map[string]Stats{},
	}
}

// Sample says how many successful requests the file keeps records of, out of how many the
// tool's statistics cover.
type Sample struct {
	Records    int    `json:"records"`
	Population int    `json:"population"`
	Why        string `json:"why"` // the tool's setting or the counts that showed it
}

// Warmup is what a tool excluded before (warm-up) and after (cool-down) its measurement.
type Warmup struct {
	Requests int    `json:"requests"`          // warm-up requests
	Cooldown int    `json:"cooldown"`          // cool-down requests
	InFile   bool   `json:"in_file"`           // their records were in the file and were set aside
	Setting  string `json:"setting,omitempty"` // the tool's setting or marker that said so
}

// Median is the statistic's median: "median", or "p50" for tools that only write quantiles
// (llmperf). Every reader of "the median" goes through here.
func (s Stats) Median() (Num, bool) {
	for _, k := range []string{"median", "p50"} {
		if v, ok := s[k]; ok && v.Known() {
			return v, true
		}
	}
	return Unknown, false
}

// Stat returns a statistic by name; "median" is found as p50 too.
func (s Stats) Stat(name string) (Num, bool) {
	if name == "median" {
		return s.Median()
	}
	v, ok := s[name]
	return v, ok && v.Known()
}

// Which statistics of a metric the analysis uses.
const (
	UsedTool       = "tool"       // the tool's own summary
	UsedRecomputed = "recomputed" // recomputed from the complete per-request records
)

// Used says whose statistics of metric the analysis uses: recomputed ones exist only when
// the per-request records were the whole population; "" when neither has the metric.
func (r *Run) Used(metric string) string {
	switch {
	case len(r.Recomputed[metric]) > 0 && r.Sampled == nil:
		return UsedRecomputed
	case len(r.Summary[metric]) > 0:
		return UsedTool
	}
	return ""
}

// Stats returns the statistics of metric the analysis uses (see Used).
func (r *Run) Stats(metric string) Stats {
	if r.Used(metric) == UsedRecomputed {
		return r.Recomputed[metric]
	}
	return r.Summary[metric]
}
