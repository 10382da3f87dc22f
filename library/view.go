package library

import "benchlens/model"

// RunRow is a run as `runs --json` lists it: identity, workload, counts, throughputs and,
// per metric, the tool's own statistics beside benchlens' recomputed ones.
type RunRow struct {
	ID             int64      `json:"id"`
	Label          string     `json:"label"`
	Role           model.Role `json:"role"`
	Tool           string     `json:"tool"`
	ToolVersion    string     `json:"tool_version"`
	Era            model.Era  `json:"era"`
	Model          string     `json:"model"`
	Precision      string     `json:"precision"` // FP16, BF16, FP8, AWQ …; "" unknown
	Date           string     `json:"date"`
	Bundle         string     `json:"-"`
	NumPrompts     model.Num  `json:"num_prompts"`
	Completed      model.Num  `json:"completed"`
	Failed         model.Num  `json:"failed"`
	Errored        model.Num  `json:"errored"`    // Failed split as the tool counted;
	Incomplete     model.Num  `json:"incomplete"` // null where it keeps no such category
	Cancelled      model.Num  `json:"cancelled"`
	RequestRate    model.Num  `json:"request_rate"`
	MaxConcurrency model.Num  `json:"max_concurrency"`
	DurationS      model.Num  `json:"duration_s"`

	RequestThroughput    model.Num `json:"request_throughput"`
	OutputThroughput     model.Num `json:"output_throughput"`
	TotalTokenThroughput model.Num `json:"total_token_throughput"`
	Goodput              model.Num `json:"request_goodput"`

	Sampled    *model.Sample `json:"sampled"`     // per-request records a sample of the run
	ToolWarmup *model.Warmup `json:"tool_warmup"` // warm-up the tool excluded

	TTFT Metric `json:"ttft"`
	TPOT Metric `json:"tpot"`
	ITL  Metric `json:"itl"`
	E2EL Metric `json:"e2el"`

	// Evidence read by later stages; null until known.
	TargetBackend *string `json:"target_backend"`
	// TargetFrom says where TargetBackend was read (model.TargetOf): "bundle.yaml", "server
	// log: flag", "VLLM_ATTENTION_BACKEND=FLASHINFER from env/collect_env.txt line 41".
	TargetFrom       string            `json:"target_source,omitempty"`
	ResolvedBackend  *string           `json:"resolved_backend"`
	UtilisationShape *model.ShapeClass `json:"utilisation_shape"`
	// LoadPoint is the run's load point as stored at import (model.Run.Point): its request
	// shape measured from its requests; null for a run stored without one.
	LoadPoint *model.LoadPoint `json:"load_point"`
}

// Metric pairs the tool's statistics with the recomputed ones (ms); either may be absent.
// Used says which the analysis uses: "recomputed" only when the per-request records were
// the whole population the tool summarised, else "tool".
type Metric struct {
	Tool       model.Stats `json:"tool"`
	Recomputed model.Stats `json:"recomputed"`
	Used       string      `json:"used,omitempty"`
	Definition string      `json:"definition,omitempty"`
}

// Median is the median the analysis uses and whether it was recomputed from the requests.
func (m Metric) Median() (model.Num, bool) {
	s := m.Tool
	if m.Used == model.UsedRecomputed {
		s = m.Recomputed
	}
	v, ok := s.Median()
	return v, ok && m.Used == model.UsedRecomputed
}

// Row projects a run onto its list row, with the short evidence of its files.
func Row(r *model.Run, evidence []model.EvidenceSummary) RunRow {
	metric := func(name string) Metric {
		return Metric{Tool: r.Summary[name], Recomputed: r.Recomputed[name], Used: r.Used(name), Definition: r.Definitions[name]}
	}
	row := RunRow{
		ID: r.ID, Label: r.Label, Role: r.Role, Bundle: r.Bundle, Tool: r.Tool, ToolVersion: r.ToolVersion, Era: r.Era,
		Model: r.Model, Date: r.Date, NumPrompts: r.NumPrompts, Completed: r.Completed, Failed: r.Failed,
		Errored: r.Errored, Incomplete: r.Incomplete, Cancelled: r.Cancelled, Sampled: r.Sampled, ToolWarmup: r.ToolWarmup,
		RequestRate: r.RequestRate, MaxConcurrency: r.MaxConcurrency, DurationS: r.DurationS,
		RequestThroughput: r.RequestThroughput, OutputThroughput: r.OutputThroughput,
		TotalTokenThroughput: r.TotalTokenThroughput, Goodput: r.Goodput,
		TTFT: metric(model.TTFT), TPOT: metric(model.TPOT), ITL: metric(model.ITL), E2EL: metric(model.E2EL),
		Precision: listedPrecision(r), LoadPoint: r.Point,
	}
	var at [4]model.TargetClaim // a run's few files: its claims need not be made on the heap
	ev, claims := evidenceOf(evidence, at[:0])
	t := model.TargetOf(r.Manifest, claims)
	row.ResolvedBackend, row.UtilisationShape = optional(ev.resolved), optional(ev.shape)
	row.TargetBackend, row.TargetFrom = optional(t.Backend), t.From
	return row
}

// listedPrecision is the run's precision, read from its model's name for a run stored before
// benchlens read precisions.
func listedPrecision(r *model.Run) string {
	if r.Precision == "" {
		return model.PrecisionIn(r.Model)
	}
	return r.Precision
}

// rowEvidence is what a row shows of its files' evidence: the first backend a log says
// resolved and the first utilisation shape.
type rowEvidence struct {
	resolved string
	shape    model.ShapeClass
}

// evidenceOf reads a run's evidence summaries, with each file's word on the target appended
// to claims (for model.TargetOf).
func evidenceOf(evidence []model.EvidenceSummary, claims []model.TargetClaim) (rowEvidence, []model.TargetClaim) {
	var out rowEvidence
	for _, e := range evidence {
		if c, ok := e.TargetClaim(); ok {
			claims = append(claims, c)
		}
		if out.resolved == "" {
			out.resolved = e.ResolvedBackend
		}
		if out.shape == "" {
			out.shape = e.Shape
		}
	}
	return out, claims
}

func optional[T ~string](s T) *T {
	if s == "" {
		return nil
	}
	return &s
}
