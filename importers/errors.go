package importers

import (
	"errors"
	"fmt"
	"strings"

	"benchlens/importers/jsonx"
)

// FileError is a refused input: the file, where in it, and why. It prints as one line.
type FileError struct {
	File   string
	Line   int // 0 when unknown
	Offset int // byte offset, -1 when unknown
	Err    error
}

func (e *FileError) Error() string {
	switch {
	case e.Line > 0 && e.Offset >= 0:
		return fmt.Sprintf("%s: line %d, byte %d: %v", e.File, e.Line, e.Offset, e.Err)
	case e.Line > 0:
		return fmt.Sprintf("%s: line %d: %v", e.File, e.Line, e.Err)
	case e.Offset >= 0:
		return fmt.Sprintf("%s: byte %d: %v", e.File, e.Offset, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.File, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// fileError names the file; a jsonx syntax error brings its own position.
func fileError(file string, err error) error {
	var fe *FileError
	if errors.As(err, &fe) {
		return fe
	}
	if strings.HasPrefix(err.Error(), file+":") {
		return err // the parser named the file already
	}
	var se *jsonx.SyntaxError
	if errors.As(err, &se) {
		return &FileError{File: file, Line: se.Line, Offset: se.Offset, Err: errors.New(se.Msg)}
	}
	return &FileError{File: file, Offset: -1, Err: err}
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
