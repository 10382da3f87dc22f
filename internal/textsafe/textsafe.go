// Package textsafe keeps names from files out of a terminal's control: a file name with a
// newline or an escape sequence must not break a one-line report or forge one.
package textsafe

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote returns s unchanged when it is plain printable text, and strconv.Quote(s) otherwise.
// Applied to a whole report line, it keeps a line holding a name nobody quoted on one line.
func Quote(s string) string {
	if Plain(s) {
		return s
	}
	return strconv.Quote(s)
}

// Plain reports whether s is valid UTF-8 without control characters.
func Plain(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
	})
}
