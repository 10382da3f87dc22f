package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// eachField calls fn with each key of a JSON object and the raw bytes of its value, without
// decoding the values: a listing picks the dozen fields it shows out of a stored run's JSON
// (storeListing) at a fraction of encoding/json's cost, decoding only those. The object's
// structure is checked (a truncated or unbalanced text is an error naming the offset), the
// values fn is not given only skipped.
func eachField(b []byte, fn func(key, val []byte) error) error {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return errors.New("not a JSON object")
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return trailing(b, i+1)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return syntaxAt(i)
		}
		end, escaped, err := stringEnd(b, i)
		if err != nil {
			return err
		}
		key := b[i+1 : end-1]
		if escaped {
			var k string
			if err := json.Unmarshal(b[i:end], &k); err != nil {
				return err
			}
			key = []byte(k)
		}
		if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
			return syntaxAt(i)
		}
		i = skipSpace(b, i+1)
		end, err = valueEnd(b, i)
		if err != nil {
			return err
		}
		if err := fn(key, b[i:end]); err != nil {
			return fmt.Errorf("%q: %w", key, err)
		}
		switch i = skipSpace(b, end); {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return trailing(b, i+1)
		default:
			return syntaxAt(i)
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

func trailing(b []byte, i int) error {
	if skipSpace(b, i) != len(b) {
		return syntaxAt(i)
	}
	return nil
}

func syntaxAt(i int) error { return fmt.Errorf("JSON syntax error at offset %d", i) }

// stringEnd is the offset after the string starting at b[i] ('"'), and whether it holds an
// escape.
func stringEnd(b []byte, i int) (int, bool, error) {
	escaped := false
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			return j + 1, escaped, nil
		}
	}
	return 0, false, fmt.Errorf("unterminated JSON string at offset %d", i)
}

// valueEnd is the offset after the value starting at b[i]: a string, an object or array
// (brackets counted outside strings), or a literal up to the next delimiter.
func valueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, syntaxAt(i)
	}
	switch b[i] {
	case '"':
		end, _, err := stringEnd(b, i)
		return end, err
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, _, err := stringEnd(b, j)
				if err != nil {
					return 0, err
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, fmt.Errorf("unterminated JSON value at offset %d", i)
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\n' && b[j] != '\t' && b[j] != '\r' {
		j++
	}
	if j == i {
		return 0, syntaxAt(i)
	}
	return j, nil
}

// jsonText decodes a JSON string value into dst (null leaves it), as encoding/json would:
// escapes are undone here (stored JSON writes < > & as \u003c …), and only text that is not
// valid UTF-8 goes to encoding/json, which replaces what is invalid.
func jsonText[T ~string](val []byte, dst *T) error {
	if string(val) == "null" {
		return nil
	}
	if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
		if s, ok := unquote(val[1 : len(val)-1]); ok {
			*dst = T(s)
			return nil
		}
	}
	var s string
	if err := json.Unmarshal(val, &s); err != nil {
		return err
	}
	*dst = T(s)
	return nil
}

// unquote is a JSON string's content unescaped; false for anything it leaves to
// encoding/json (invalid UTF-8, a control character, a malformed escape).
func unquote(s []byte) (string, bool) {
	plain := true
	for _, c := range s {
		if c == '\\' || c < 0x20 || c >= 0x80 || c == '"' {
			plain = false
			break
		}
	}
	if plain {
		return string(s), true
	}
	if !utf8.Valid(s) {
		return "", false
	}
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c < 0x20 || c == '"':
			return "", false
		case c != '\\':
			out = append(out, c)
			continue
		}
		if i++; i >= len(s) {
			return "", false
		}
		switch s[i] {
		case '"', '\\', '/':
			out = append(out, s[i])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, n := hex4(s[i+1:])
			if n == 0 {
				return "", false
			}
			i += n
			if utf16.IsSurrogate(r) { // a pair, else encoding/json's replacement character
				r2, n2 := rune(-1), 0
				if i+2 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
					r2, n2 = hex4(s[i+3:])
				}
				if dec := utf16.DecodeRune(r, r2); n2 != 0 && dec != utf8.RuneError {
					r, i = dec, i+2+n2
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return string(out), true
}

// hex4 reads the 4 hex digits of a \u escape: the rune and 4, or 0 when they are not there.
func hex4(s []byte) (rune, int) {
	if len(s) < 4 {
		return 0, 0
	}
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			r = r<<4 | rune(c-'0')
		case 'a' <= c && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case 'A' <= c && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, 0
		}
	}
	return r, 4
}

// jsonInt decodes a JSON integer value into dst (null leaves it).
func jsonInt(val []byte, dst *int) error {
	if string(val) == "null" {
		return nil
	}
	n, err := strconv.Atoi(string(val))
	if err != nil {
		return json.Unmarshal(val, dst)
	}
	*dst = n
	return nil
}
