// Package position holds the one error every importer returns for refused input: the file,
// where in it, and why. It sits below jsonx and the importer packages so all of them can use
// it; callers find it with errors.As (x/perf's benchfmt.SyntaxError is the model).
package position

import (
	"errors"
	"fmt"

	"benchlens/internal/textsafe"
)

// Error is a refused input. It prints as one line, "file: line N, byte B: cause", leaving out
// what is unknown.
type Error struct {
	File   string // "" when the reader does not know it (jsonx); the caller then names it
	Line   int    // 1-based; 0 when unknown
	Offset int    // byte offset (of decompressed data); -1 when unknown
	Err    error
}

func (e *Error) Error() string {
	at := ""
	switch {
	case e.Line > 0 && e.Offset >= 0:
		at = fmt.Sprintf("line %d, byte %d: ", e.Line, e.Offset)
	case e.Line > 0:
		at = fmt.Sprintf("line %d: ", e.Line)
	case e.Offset >= 0:
		at = fmt.Sprintf("byte %d: ", e.Offset)
	}
	if e.File == "" {
		return fmt.Sprintf("%s%v", at, e.Err)
	}
	return fmt.Sprintf("%s: %s%v", textsafe.Quote(e.File), at, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// InFile makes err an *Error naming file. An error that already carries a position keeps it
// (jsonx's lacks only the file); anything else gets the file alone.
func InFile(file string, err error) error {
	var pe *Error
	if !errors.As(err, &pe) {
		return &Error{File: file, Offset: -1, Err: err}
	}
	if pe.File != "" {
		return pe
	}
	return &Error{File: file, Line: pe.Line, Offset: pe.Offset, Err: pe.Err}
}
