package store

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Annotation is one edit of the analyst's view of a comparison: the note, tags and a status
// override (which needs a reason). Edits are never updated in place; the newest is current
// and the rest are its history. Each edit names the edit it replaces, the one its author saw.
type Annotation struct {
	ID             int64    `json:"id"`
	ComparisonID   int64    `json:"comparison_id"`
	Replaces       int64    `json:"replaces"` // the edit this one was made from; 0 for the first
	At             string   `json:"at"`
	Author         string   `json:"author"`
	Note           string   `json:"note"`
	Tags           []string `json:"tags"`
	StatusOverride string   `json:"status_override"`
	OverrideReason string   `json:"override_reason"`
}

// ErrOverrideNeedsReason refuses a status override without a reason.
var ErrOverrideNeedsReason = errors.New("a status override needs a reason")

// ErrEditConflict refuses an edit made from a version another edit has replaced meanwhile
// (another analyst's): saving it would silently overwrite theirs.
var ErrEditConflict = errors.New("edited meanwhile")

// Annotate records an edit at once (one transaction, durable when it returns). a.Replaces
// must be the current edit's id (0 when there is none); otherwise the edit is refused with
// ErrEditConflict, naming who edited meanwhile. A unique constraint decides between two
// writers saving at once, so the check holds across processes and machines.
func (s *Store) Annotate(a Annotation) (Annotation, error) {
	if a.StatusOverride != "" && a.OverrideReason == "" {
		return a, ErrOverrideNeedsReason
	}
	if a.Replaces != 0 {
		var n int
		if err := s.db.QueryRow(`SELECT count(*) FROM annotations WHERE id = ? AND comparison_id = ?`, a.Replaces, a.ComparisonID).Scan(&n); err != nil {
			return a, err
		}
		if n == 0 {
			return a, fmt.Errorf("comparison %d has no edit %d to replace", a.ComparisonID, a.Replaces)
		}
	}
	if a.At == "" {
		a.At = time.Now().UTC().Format(time.RFC3339Nano)
	}
	if a.Tags == nil {
		a.Tags = []string{}
	}
	tags, _ := json.Marshal(a.Tags)
	if err := s.Writable(); err != nil {
		return a, err
	}
	err := s.db.QueryRow(`INSERT INTO annotations (comparison_id, replaces, at, author, note, tags, status_override, override_reason)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (comparison_id, replaces) DO NOTHING RETURNING id`,
		a.ComparisonID, a.Replaces, a.At, a.Author, a.Note, string(tags), a.StatusOverride, a.OverrideReason).Scan(&a.ID)
	if errors.Is(err, sql.ErrNoRows) {
		var by, at string
		s.db.QueryRow(`SELECT author, at FROM annotations WHERE comparison_id = ? AND replaces = ?`, a.ComparisonID, a.Replaces).Scan(&by, &at)
		return a, fmt.Errorf("%w by %s at %s; your edit was not saved: reload to see theirs", ErrEditConflict, by, at)
	}
	return a, err
}

// ReviseAnnotation rewrites an edit in place (same id, new time and fields): the app folds
// the autosaves of one sitting into one history entry, so pauses in typing are not history.
func (s *Store) ReviseAnnotation(a Annotation) (Annotation, error) {
	if a.StatusOverride != "" && a.OverrideReason == "" {
		return a, ErrOverrideNeedsReason
	}
	a.At = time.Now().UTC().Format(time.RFC3339Nano)
	if a.Tags == nil {
		a.Tags = []string{}
	}
	tags, _ := json.Marshal(a.Tags)
	res, err := s.db.Exec(`UPDATE annotations SET at = ?, author = ?, note = ?, tags = ?, status_override = ?, override_reason = ?
		WHERE id = ? AND comparison_id = ?`, a.At, a.Author, a.Note, string(tags), a.StatusOverride, a.OverrideReason, a.ID, a.ComparisonID)
	if err != nil {
		return a, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return a, fmt.Errorf("annotation %d of comparison %d not found", a.ID, a.ComparisonID)
	}
	return a, nil
}

// Annotations returns a comparison's edits, oldest first; the last is current.
func (s *Store) Annotations(comparisonID int64) ([]Annotation, error) {
	rows, err := s.db.Query(`SELECT id, comparison_id, replaces, at, author, note, tags, status_override, override_reason
		FROM annotations WHERE comparison_id = ? ORDER BY id`, comparisonID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Annotation
	for rows.Next() {
		var a Annotation
		var tags string
		if err := rows.Scan(&a.ID, &a.ComparisonID, &a.Replaces, &a.At, &a.Author, &a.Note, &tags, &a.StatusOverride, &a.OverrideReason); err != nil {
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
