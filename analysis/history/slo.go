package history

import (
	"maps"
	"slices"

	"benchlens/analysis/slo"
	"benchlens/model"
)

// SLOMetrics are searched beside the stage metrics when the library sets an SLO (rule 14):
// each run's attainment (the share of its requests meeting every limit, in %) and goodput
// (those requests per second), their change points and outliers found as rule 13 finds a
// stage metric's.
var SLOMetrics = []model.StageMetric{
	{Key: "slo_attainment", Stage: model.StageBoth, Unit: "%", HigherBetter: true, Short: "SLO attainment", Title: "SLO attainment", Tick: "SLO\nattainment"},
	{Key: "goodput", Stage: model.StageBoth, Unit: "req/s", HigherBetter: true, Short: "goodput", Title: "goodput under the SLO", Tick: "goodput\nunder the SLO"},
}

// MetricOf is the metric with the key: a stage metric or an SLO metric.
func MetricOf(key string) (model.StageMetric, bool) {
	if m, ok := model.StageMetricOf(key); ok {
		return m, true
	}
	i := slices.IndexFunc(SLOMetrics, func(m model.StageMetric) bool { return m.Key == key })
	if i < 0 {
		return model.StageMetric{}, false
	}
	return SLOMetrics[i], true
}

// Metrics are the metrics the report was searched on: the stage metrics, then the SLO
// metrics when it was judged against an SLO.
func (rep Report) Metrics() []model.StageMetric {
	if rep.SLO == "" {
		return model.StageMetrics
	}
	return append(slices.Clone(model.StageMetrics), SLOMetrics...)
}

// WithSLO is the report with each run's attainment and goodput under the objective (judged:
// a run's result by its id; a run the SLO cannot judge has neither) and their change points
// and outliers. The report given is not changed.
func (rep Report) WithSLO(objective model.SLO, judged map[int64]slo.RunResult, set Settings) Report {
	if len(objective) == 0 {
		return rep
	}
	set = set.withDefaults()
	rep.SLO = objective.String()
	rep.Runs = slices.Clone(rep.Runs)
	for i := range rep.Runs {
		r := &rep.Runs[i]
		r.Values, r.Spread = maps.Clone(r.Values), maps.Clone(r.Spread)
		res, ok := judged[r.ID]
		if !ok {
			continue
		}
		for key, v := range map[string]model.Num{"slo_attainment": res.Attainment * 100, "goodput": res.Goodput} {
			if v.Known() {
				f := v.F()
				r.Values[key], r.Spread[key] = &f, [2]float64{f, f}
			}
		}
	}
	return rep.Searched(set, SLOMetrics...)
}
