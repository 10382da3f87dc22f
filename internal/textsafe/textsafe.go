// Package textsafe keeps names from files out of a terminal's control: a file name with a
// newline or an escape sequence must not break a one-line report or forge one.
package textsafe

import (
	"fmt"
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

// Escape returns s with each character Plain refuses written as its Go escape (\n, \x1b,
// \u202e, \xff for a byte that is not UTF-8) and everything else as it is: the text stays on
// one line and prints as it reads, with no quotes added around it.
func Escape(s string) string {
	if Plain(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case Plain(s[i : i+n]):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}
