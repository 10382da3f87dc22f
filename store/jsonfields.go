package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"benchlens/importers/jsonx"
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
// plain text is taken as it is, escapes (stored JSON writes < > & as \u003c …) are undone by
// jsonx, which reads strings exactly as encoding/json does, and encoding/json words what
// neither accepts.
func jsonText[T ~string](val []byte, dst *T) error {
	if string(val) == "null" {
		return nil
	}
	if len(val) >= 2 && val[0] == '"' && val[len(val)-1] == '"' {
		if s, ok := plainText(val[1 : len(val)-1]); ok {
			*dst = T(s)
			return nil
		}
		if s, n, err := jsonx.String(val); err == nil && n == len(val) {
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

// plainText is a string's content when it needs no unescaping: ASCII, no quote, backslash or
// control character (most stored text), without the decoder's set-up.
func plainText(s []byte) (string, bool) {
	for _, c := range s {
		if c == '\\' || c < 0x20 || c >= 0x80 || c == '"' {
			return "", false
		}
	}
	return string(s), true
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
