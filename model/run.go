package model

// Metric names, normalised across tools. Times are milliseconds in summaries.
const (
	TTFT = "ttft" // time to first token: prefill plus the first decode step
	TPOT = "tpot" // time per output token after the first, per request
	ITL  = "itl"  // gap between consecutive streamed chunks or tokens
	E2EL = "e2el" // end-to-end request latency
)

// Stats maps a statistic (mean, median, std, min, max, p50, p99, p99.9 …) to its value in ms.
type Stats map[string]Num

// Run is one benchmark execution, normalised across tools and eras.
type Run struct {
	ID     int64  `json:"id"`
	Label  string `json:"label"`
	Role   string `json:"role"`
	Bundle string `json:"bundle,omitempty"` // the path the run was imported from

	Tool        string `json:"tool"`                   // vllm, vllm-bench, sglang, llmperf, genai-perf, aiperf, guidellm
	ToolVersion string `json:"tool_version,omitempty"` // as the file states it
	Era         string `json:"era,omitempty"`          // the format generation, e.g. "G (vLLM >=0.10)"
	Date        string `json:"date,omitempty"`         // ISO 8601; no zone when the file gave none
	Backend     string `json:"backend,omitempty"`      // the benchmark client's backend or endpoint type
	Model       string `json:"model"`
	Tokenizer   string `json:"tokenizer,omitempty"`
	Dataset     string `json:"dataset,omitempty"`

	NumPrompts        Num `json:"num_prompts"`
	Completed         Num `json:"completed"`
	Failed            Num `json:"failed"`
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

	Metadata map[string]string `json:"metadata,omitempty"` // --metadata pairs
	Extra    map[string]any    `json:"extra,omitempty"`    // every other key the file held
	Manifest Manifest          `json:"manifest,omitempty"`
	Warnings []string          `json:"warnings,omitempty"` // what the importer noticed

	Requests []Request `json:"-"`
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
func (r *Run) SetStat(metric, stat string, ms float64) {
	if r.Summary == nil {
		r.Summary = map[string]Stats{}
	}
	if r.Summary[metric] == nil {
		r.Summary[metric] = Stats{}
	}
	r.Summary[metric][stat] = Num(ms)
}

// NewRun returns a run with every optional number unknown.
func NewRun(tool string) *Run {
	return &Run{
		Tool:       tool,
		NumPrompts: Unknown, Completed: Unknown, Failed: Unknown, RequestRate: Unknown,
		Burstiness: Unknown, MaxConcurrency: Unknown, DurationS: Unknown,
		TotalInputTokens: Unknown, TotalOutputTokens: Unknown,
		RequestThroughput: Unknown, Goodput: Unknown, InputThroughput: Unknown,
		OutputThroughput: Unknown, TotalTokenThroughput: Unknown,
		Summary: map[string]Stats{},
	}
}
