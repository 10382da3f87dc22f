package report

import (
	"benchlens/analysis/compare"
	"benchlens/internal/version"
	"benchlens/model"
)

// Entry is one comparison to export: the record with its saved identity and the analyst's
// current annotation and edit history. The caller converts from the store's types.
type Entry struct {
	ID         int64
	SavedAt    string
	Record     compare.Record
	Annotation Annotation   // current
	History    []Annotation // oldest first
	Runs       []*model.Run // the runs used (both arms), for the Runs and Requests sheets
	// Files optionally names each run's source files (paths inside the bundle), by run id.
	Files map[int64][]string
	// Benchlens is the build writing the export, cited in every format beside the build that
	// judged the comparison (Record.Benchlens).
	Benchlens version.Info
}

// Status is the verdict that stands: the analyst's override when there is one, else the
// proposed status.
func (e Entry) Status() model.Status {
	if o := e.Annotation.StatusOverride; o != "" {
		return o
	}
	return e.Record.Status
}

// Annotation is one edit of the analyst's view of a comparison.
type Annotation struct {
	At, Author, Note string
	Tags             []string
	StatusOverride   model.Status
	OverrideReason   string
}
