package importers

import (
	"errors"
	"fmt"

	"benchlens/importers/position"
	"benchlens/internal/textsafe"
)

// fileError makes err a *position.Error naming file. An error that already carries a
// position keeps it (jsonx's lacks only the file); anything else gets the file alone.
func fileError(file string, err error) error {
	var pe *position.Error
	if !errors.As(err, &pe) {
		return &position.Error{File: file, Offset: -1, Err: err}
	}
	if pe.File != "" {
		return pe
	}
	return &position.Error{File: file, Line: pe.Line, Offset: pe.Offset, Err: pe.Err}
}

// shapeError reports a key whose value has the wrong type.
func shapeError(key, want string, got any) error {
	return fmt.Errorf("key %q: expected %s, found %s", key, want, describe(got))
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case map[string]any:
		return "an object"
	case []any, []float64, []int64:
		return "an array"
	default:
		return fmt.Sprintf("%T", x)
	}
}

// errf builds an error without a position; the caller adds the file and offset.
func errf(format string, args ...any) error { return fmt.Errorf(format, args...) }

// quoteName quotes a file name that holds control characters or is no valid UTF-8, so a name
// with a newline or a terminal escape cannot break or forge a line of a report.
func quoteName(name string) string { return textsafe.Quote(name) }

// Skip is an input left out or kept unread on purpose (a link, a pipe, a file of no known
// format): the import report names it as a note, not as a refusal.
type Skip struct{ Why string }

func (s *Skip) Error() string { return s.Why }

// IsSkip reports whether err is a note about a file left unread rather than a refusal.
func IsSkip(err error) bool {
	var s *Skip
	return errors.As(err, &s)
}
