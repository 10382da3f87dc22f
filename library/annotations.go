package library

import (
	"time"

	"benchlens/store"
)

// SittingLength is how long the saves of one Sitting fold into one history entry.
const SittingLength = time.Minute

// Sitting is one stretch of an analyst's editing of a comparison's annotation. Its saves
// revise one history entry while it lasts, so a sentence typed with pauses is one entry, not
// seven; the first save after it ends (End, another comparison, SittingLength) adds a new
// entry. The zero Sitting has not saved yet. A Sitting is not safe for concurrent use.
type Sitting struct {
	comparison, annotation int64
	revision               int64 // the entry's revision as last saved
	started                time.Time
}

// Save writes an edit at once: it revises the sitting's entry while the sitting lasts and is
// of a.ComparisonID, else records a new edit (a.Replaces and a.ReplacesRevision naming the
// edit it was made from, as store.Annotate asks) and starts the sitting over. An edit made
// from a version another analyst changed meanwhile is refused with store.ErrEditConflict.
func (s *Sitting) Save(st *store.Store, a store.Annotation) (store.Annotation, error) {
	if s.comparison == a.ComparisonID && s.annotation != 0 && time.Since(s.started) < SittingLength {
		a.ID, a.Revision = s.annotation, s.revision
		saved, err := st.ReviseAnnotation(a)
		if err == nil {
			s.revision = saved.Revision
		}
		return saved, err
	}
	saved, err := st.Annotate(a)
	if err == nil {
		*s = Sitting{comparison: a.ComparisonID, annotation: saved.ID, revision: saved.Revision, started: time.Now()}
	}
	return saved, err
}

// End ends the sitting: the next save adds a new history entry.
func (s *Sitting) End() { *s = Sitting{} }

// Annotations returns a saved comparison's edits, oldest first; the last is current.
func Annotations(st *store.Store, comparisonID int64) ([]store.Annotation, error) {
	return st.Annotations(comparisonID)
}

// CurrentAnnotation is a saved comparison's newest edit, or an empty one when there is none.
func CurrentAnnotation(st *store.Store, comparisonID int64) (store.Annotation, error) {
	return st.CurrentAnnotation(comparisonID)
}
