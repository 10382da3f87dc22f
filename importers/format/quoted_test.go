package format

import (
	"bytes"
	"strings"
	"testing"
)

// Quoted answers exactly what bytes.Contains of the quoted key answers, whatever the text:
// keys inside strings, escaped quotes, an unclosed quote, empty keys.
func TestQuotedAsContains(t *testing.T) {
	texts := []string{
		`{"traceEvents": [], "schemaVersion": 1}`,
		`{"a": "b \"config\" c", "x": "y"}`,
		`{"config" "`,
		`"" "config"`,
		`no quotes at all`,
		`{"k":"v","Test Duration (s)":1.5}`,
		`"a""b""c"`,
	}
	keys := []string{"traceEvents", "schemaVersion", "config", "a", "b", "c", "", "v", "k", "x", "y",
		"Test Duration (s)", " c", ": ", ",", "b \\"}
	for _, text := range texts {
		q := Quote([]byte(text))
		for _, k := range keys {
			if got, want := q.Has(k), bytes.Contains([]byte(text), []byte(`"`+k+`"`)); got != want {
				t.Errorf("%s: Has(%q) = %v, bytes.Contains says %v", text, k, got, want)
			}
		}
	}
}

func FuzzQuotedAsContains(f *testing.F) {
	f.Add(`{"a": "b", "c": "d"}`, "b")
	f.Add(`""""`, "")
	f.Fuzz(func(t *testing.T, text, key string) {
		if strings.Contains(key, `"`) {
			return // keys hold no quote
		}
		if got, want := Quote([]byte(text)).Has(key), bytes.Contains([]byte(text), []byte(`"`+key+`"`)); got != want {
			t.Errorf("%q: Has(%q) = %v, bytes.Contains says %v", text, key, got, want)
		}
	})
}
