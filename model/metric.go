package model

// Stage is the part of serving a stage metric times (METHOD.md rule 4).
type Stage string

// Stages.
const (
	StagePrefill Stage = "prefill" // prompt processing and the first token
	StageDecode  Stage = "decode"  // the tokens after the first
	StageBoth    Stage = "both"    // end to end
)

// Throughput is the record's key of the end-to-end output throughput (tok/s): the stage
// metric a run reports as one figure, not timed request by request.
const Throughput = "e2e_throughput"

// Latencies are the per-request metrics (Request), in METHOD.md's order: what a tool
// summarises per metric and benchlens recomputes from the requests.
var Latencies = []string{TTFT, TPOT, ITL, E2EL}

// StageMetric is one metric compared stage by stage (rule 4), with everything the comparison,
// the reports, the charts and the views need to show it. A run's value of it is either a
// statistic (Stat) of a per-request latency (Of), or a figure of the whole run (Figure).
type StageMetric struct {
	Key          string // the record's perf key
	Stage        Stage
	Unit         string // "ms", "tok/s"
	HigherBetter bool   // latencies fall when they improve, throughputs rise
	Short        string // a narrow column's heading or a crowded chart's tick: "TTFT"
	Title        string // a table's row: "TTFT (prefill)"
	Tick         string // the tick under its bar in the chart of stage changes: "TTFT\nprefill"
	// Brief puts the metric in the compact views too: per input-length bucket (rule 7, when it
	// is timed per request) and per load point (rule 9).
	Brief bool

	Of     string         // the per-request latency it is a statistic of (one of Latencies)
	Stat   string         // that statistic per run: "" for the median, "p90" or "p99"
	Figure func(*Run) Num // for a metric not timed per request: the run's own figure
}

// StageMetrics are the stage metrics every comparison computes and every view lists, in
// METHOD.md's order. A new stage metric is one row here.
var StageMetrics = []StageMetric{
	{Key: TTFT, Stage: StagePrefill, Unit: "ms", Short: "TTFT", Title: "TTFT (prefill)", Tick: "TTFT\nprefill", Brief: true, Of: TTFT},
	{Key: TPOT, Stage: StageDecode, Unit: "ms", Short: "TPOT", Title: "TPOT (decode)", Tick: "TPOT\ndecode", Brief: true, Of: TPOT},
	{Key: ITL, Stage: StageDecode, Unit: "ms", Short: "ITL", Title: "ITL (decode)", Tick: "ITL\ndecode", Brief: true, Of: ITL},
	{Key: E2EL, Stage: StageBoth, Unit: "ms", Short: "E2EL", Title: "E2E latency", Tick: "E2E latency\nboth stages", Of: E2EL},
	{Key: Throughput, Stage: StageBoth, Unit: "tok/s", HigherBetter: true, Short: "out tok/s", Title: "output throughput",
		Tick: "throughput\nhigher is better", Brief: true, Figure: func(r *Run) Num { return r.OutputThroughput }},
}

// PerRequest reports whether the metric is timed request by request, so it can be compared
// per request, per input-length bucket and from pooled samples.
func (m StageMetric) PerRequest() bool { return m.Figure == nil }

// Bucketed reports whether the metric is compared per input-length bucket (rule 7): a brief
// metric that is the median of a per-request latency.
func (m StageMetric) Bucketed() bool { return m.Brief && m.PerRequest() && m.Stat == "" }

// StageMetricOf returns the stage metric with the key, and whether there is one.
func StageMetricOf(key string) (StageMetric, bool) {
	for _, m := range StageMetrics {
		if m.Key == key {
			return m, true
		}
	}
	return StageMetric{}, false
}

// BriefMetrics are the stage metrics of the compact views, in order.
func BriefMetrics() []StageMetric { return filterMetrics(func(m StageMetric) bool { return m.Brief }) }

// BucketMetrics are the stage metrics compared per input-length bucket, in order.
func BucketMetrics() []StageMetric { return filterMetrics(StageMetric.Bucketed) }

// StageGainMetrics are the metrics of one stage, prefill or decode, that rule 6 rests a
// stage's gain on (the end-to-end ones mix both stages).
func StageGainMetrics() []StageMetric {
	return filterMetrics(func(m StageMetric) bool { return m.Stage != StageBoth })
}

func filterMetrics(keep func(StageMetric) bool) []StageMetric {
	var out []StageMetric
	for _, m := range StageMetrics {
		if keep(m) {
			out = append(out, m)
		}
	}
	return out
}
