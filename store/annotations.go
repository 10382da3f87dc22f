package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"benchlens/model"
)

// Annotation is one edit of the analyst's view of a comparison: the note, tags and a status
// override (which needs a reason). The newest edit is current and the rest are its history;
// the app revises an edit in place while one sitting lasts. Each edit names the edit it was
// made from, and each has a revision, bumped when it is revised or replaced: an edit made
// from a version that changed meanwhile (another analyst's edit) is refused, never saved
// over it.
type Annotation struct {
	ID               int64        `json:"id"`
	ComparisonID     int64        `json:"comparison_id"`
	Replaces         int64        `json:"replaces"` // the edit this one was made from; 0 for the first
	ReplacesRevision int64        `json:"-"`        // that edit's Revision as read
	Revision         int64        `json:"revision"` // as read; ReviseAnnotation expects it unchanged
	At               string       `json:"at"`
	Author           string       `json:"author"`
	Note             string       `json:"note"`
	Tags             []string     `json:"tags"`
	StatusOverride   model.Status `json:"status_override"`
	OverrideReason   string       `json:"override_reason"`
}

// ErrOverrideNeedsReason refuses a status override without a reason.
var ErrOverrideNeedsReason = errors.New("a status override needs a reason")

// ErrEditConflict refuses an edit made from a version that another edit replaced or revised
// meanwhile (another analyst's): saving it would silently overwrite theirs.
var ErrEditConflict = errors.New("edited meanwhile")

// Annotate records a new edit at once (one transaction, durable when it returns). a.Replaces
// and a.ReplacesRevision must be the current edit's id and revision as read (0, 0 when there
// is none); otherwise the edit is refused with ErrEditConflict, naming who edited meanwhile.
// The replaced edit's revision is bumped in the same transaction and a unique constraint
// allows one edit per replaced edit, so the check holds between writers on many machines.
func (s *Store) Annotate(a Annotation) (out Annotation, err error) {
	err = s.again(func() (err error) {
		out, err = s.annotate(a)
		return err
	})
	return out, err
}

func (s *Store) annotate(a Annotation) (Annotation, error) {
	if err := prepareEdit(&a); err != nil {
		return a, err
	}
	tx, err := s.begin()
	if err != nil {
		return a, err
	}
	defer tx.Rollback()
	if a.Replaces != 0 {
		res, err := tx.Exec(`UPDATE annotations SET revision = revision + 1 WHERE id = ? AND comparison_id = ? AND revision = ?`,
			a.Replaces, a.ComparisonID, a.ReplacesRevision)
		if err != nil {
			return a, err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			tx.Rollback()
			return a, s.editConflict(a.ComparisonID, a.Replaces)
		}
	}
	err = tx.QueryRow(`INSERT INTO annotations (comparison_id, replaces, at, author, note, tags, status_override, override_reason)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (comparison_id, replaces) DO NOTHING RETURNING id`,
		a.ComparisonID, a.Replaces, a.At, a.Author, a.Note, tagsJSON(a.Tags), string(a.StatusOverride), a.OverrideReason).Scan(&a.ID)
	if errors.Is(err, sql.ErrNoRows) {
		tx.Rollback()
		return a, s.editConflict(a.ComparisonID, a.Replaces)
	}
	if err != nil {
		return a, err
	}
	a.Revision = 0
	return a, tx.Commit()
}

// ReviseAnnotation rewrites an edit in place (same id, new time and fields, next revision):
// the app folds the autosaves of one sitting into one history entry, so pauses in typing are
// not history. a.Revision must be the edit's revision as read; an edit revised or replaced
// meanwhile is refused with ErrEditConflict.
func (s *Store) ReviseAnnotation(a Annotation) (out Annotation, err error) {
	err = s.again(func() (err error) {
		out, err = s.reviseAnnotation(a)
		return err
	})
	return out, err
}

func (s *Store) reviseAnnotation(a Annotation) (Annotation, error) {
	a.At = ""
	if err := prepareEdit(&a); err != nil {
		return a, err
	}
	res, err := s.exec(`UPDATE annotations SET at = ?, author = ?, note = ?, tags = ?, status_override = ?, override_reason = ?,
		revision = revision + 1 WHERE id = ? AND comparison_id = ? AND revision = ?`,
		a.At, a.Author, a.Note, tagsJSON(a.Tags), string(a.StatusOverride), a.OverrideReason, a.ID, a.ComparisonID, a.Revision)
	if err != nil {
		return a, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return a, s.editConflict(a.ComparisonID, a.ID)
	}
	a.Revision++
	return a, nil
}

// prepareEdit checks an edit and fills its time and tags.
func prepareEdit(a *Annotation) error {
	if a.StatusOverride != "" && a.OverrideReason == "" {
		return ErrOverrideNeedsReason
	}
	if a.At == "" {
		a.At = time.Now().UTC().Format(time.RFC3339Nano)
	}
	if a.Tags == nil {
		a.Tags = []string{}
	}
	return nil
}

func tagsJSON(tags []string) string {
	b, _ := json.Marshal(tags)
	return string(b)
}

// editConflict explains why an edit made from edit base was refused: base is not an edit of
// the comparison, or the comparison's newest edit is someone's since.
func (s *Store) editConflict(comparisonID, base int64) error {
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM annotations WHERE id = ? AND comparison_id = ?`, base, comparisonID).Scan(&n); err != nil {
		return err
	}
	if n == 0 && base != 0 {
		return fmt.Errorf("annotation %d of comparison %d not found", base, comparisonID)
	}
	cur, err := s.CurrentAnnotation(comparisonID)
	if err != nil {
		return err
	}
	return fmt.Errorf("%w by %s at %s; your edit was not saved: reload to see theirs", ErrEditConflict, cur.Author, cur.At)
}

// Annotations returns a comparison's edits, oldest first; the last is current.
func (s *Store) Annotations(comparisonID int64) ([]Annotation, error) {
	rows, err := s.db.Query(`SELECT id, comparison_id, replaces, revision, at, author, note, tags, status_override, override_reason
		FROM annotations WHERE comparison_id = ? ORDER BY id`, comparisonID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Annotation
	for rows.Next() {
		var a Annotation
		var tags string
		if err := rows.Scan(&a.ID, &a.ComparisonID, &a.Replaces, &a.Revision, &a.At, &a.Author, &a.Note, &tags, &a.StatusOverride, &a.OverrideReason); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(tags), &a.Tags); err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// CurrentAnnotation is the newest edit, or a zero Annotation when there is none.
func (s *Store) CurrentAnnotation(comparisonID int64) (Annotation, error) {
	list, err := s.Annotations(comparisonID)
	if err != nil || len(list) == 0 {
		return Annotation{ComparisonID: comparisonID, Tags: []string{}}, err
	}
	return list[len(list)-1], nil
}
