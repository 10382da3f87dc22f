package library

import (
	"benchlens/model"
	"benchlens/store"
)

// BriefRow is what the app's sidebar shows and searches of a run: a few texts and numbers,
// no statistics, about a third of a RunRow. The sidebar holds one a run, and a batch of a
// listing is projected straight onto them (EachBriefRows), not onto RunRows first.
type BriefRow struct {
	ID                                          int64
	Label, Bundle, Date, Model, Tool, Precision string
	Role                                        model.Role
	RequestRate, MaxConcurrency                 model.Num
	ResolvedBackend, TargetBackend              string // "" unknown (RunRow's null)
	// Shape is the request shape of the run's load point as stored, in brief ("1024→512",
	// "≈938 in": model.LoadPoint.BriefShape): what tells apart the runs of a sweep of shapes
	// at one load. "" when not known.
	Shape string
}

// BriefRowOf projects a run onto its brief row, as Row projects it onto its row.
func BriefRowOf(r *model.Run, evidence []model.EvidenceSummary) BriefRow {
	var at [4]model.TargetClaim // as Row's
	ev, claims := evidenceOf(evidence, at[:0])
	return BriefRow{ID: r.ID, Label: r.Label, Bundle: r.Bundle, Date: r.Date, Model: r.Model, Tool: r.Tool,
		Precision: listedPrecision(r), Role: r.Role, RequestRate: r.RequestRate, MaxConcurrency: r.MaxConcurrency,
		ResolvedBackend: ev.resolved, TargetBackend: model.TargetOf(r.Manifest, claims).Backend, Shape: BriefShape(r.Point)}
}

// BriefShape is the request shape of a run's stored point (model.LoadPoint.BriefShape), ""
// when it has none: the app's rows and the runs table say it alike.
func BriefShape(p *model.LoadPoint) string {
	if p == nil {
		return ""
	}
	return p.BriefShape()
}

// EachBriefRows gives fn the brief rows of the library's runs a batch at a time (store.List,
// brief: without the statistics and definitions, store.ListBatchRuns each but the last), in
// id order.
func EachBriefRows(st *store.Store, fn func([]BriefRow) error) error {
	return st.List(store.ListOptions{Brief: true}, func(b store.ListBatch) error {
		rows := make([]BriefRow, len(b.Runs))
		for i, r := range b.Runs {
			rows[i] = BriefRowOf(r, b.Evidence[r.ID])
		}
		return fn(rows)
	})
}
