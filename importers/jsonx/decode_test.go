package jsonx

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"benchlens/importers/position"
)

func TestDecodeValues(t *testing.T) {
	tests := []struct {
		in   string
		want []any
	}{
		{`{"a": 1}`, []any{map[string]any{"a": int64(1)}}},
		{`{"a":1}` + "\n" + `{"a":2}`, []any{map[string]any{"a": int64(1)}, map[string]any{"a": int64(2)}}},
		{`{"a":1}{"a":2}`, []any{map[string]any{"a": int64(1)}, map[string]any{"a": int64(2)}}},
		{`[1, 2, 3]`, []any{[]int64{1, 2, 3}}},
		{`[1, 2.5, 3]`, []any{[]float64{1, 2.5, 3}}},
		{`[1, "x", null]`, []any{[]any{int64(1), "x", nil}}},
		{`[[0.5, 0.25], []]`, []any{[]any{[]float64{0.5, 0.25}, []any{}}}},
		{`"\u00e9\n\"\\"`, []any{"é\n\"\\"}},
		{`"\ud83d\ude00"`, []any{"😀"}},
		{`true false null`, []any{true, false, nil}},
		{"\xef\xbb\xbf{}", []any{map[string]any{}}},
		{`-0.000123`, []any{-0.000123}},
		{`1e3`, []any{1000.0}},
		{`12345678901234567890`, []any{12345678901234567890.0}},
		{`-9223372036854775807`, []any{int64(-9223372036854775807)}},
	}
	for _, tt := range tests {
		got, err := decodeAll(tt.in)
		if err != nil {
			t.Errorf("%q: %v", tt.in, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q: got %#v, want %#v", tt.in, got, tt.want)
		}
	}
}

func TestPythonSpecialNumbers(t *testing.T) {
	got, err := decodeAll(`{"rate": Infinity, "b": -Infinity, "c": NaN, "d": [NaN, 1.5, Infinity]}`)
	if err != nil {
		t.Fatal(err)
	}
	m := got[0].(map[string]any)
	if !math.IsInf(m["rate"].(float64), 1) || !math.IsInf(m["b"].(float64), -1) || !math.IsNaN(m["c"].(float64)) {
		t.Errorf("special numbers: %#v", m)
	}
	d := m["d"].([]float64)
	if !math.IsNaN(d[0]) || d[1] != 1.5 || !math.IsInf(d[2], 1) {
		t.Errorf("array of special numbers: %v", d)
	}
}

func TestSyntaxErrorsNameTheSpot(t *testing.T) {
	tests := []struct {
		in         string
		line, byte int
	}{
		{`{"a": 1,`, 1, 8},
		{"{\"a\": [1, 2\n", 2, 12},
		{"{\"a\": 1}\n{\"b\": tru}", 2, 15},
		{`{"a" 1}`, 1, 5},
		{`{"a": "x`, 1, 6},
		{`[1 2]`, 1, 3},
		{`{"a": 1.}`, 1, 8},
		{`{"a": -}`, 1, 7},
		{"{\"a\": \"\x01\"}", 1, 7},
		{`{"a": "\x"}`, 1, 7},
	}
	for _, tt := range tests {
		_, err := decodeAll(tt.in)
		var se *position.Error
		if !errors.As(err, &se) {
			t.Errorf("%q: want a *position.Error, got %v", tt.in, err)
			continue
		}
		if se.Line != tt.line || se.Offset != tt.byte {
			t.Errorf("%q: error at line %d byte %d (%s), want line %d byte %d", tt.in, se.Line, se.Offset, se.Err, tt.line, tt.byte)
		}
	}
}

func TestSkipKeys(t *testing.T) {
	d := NewDecoder([]byte(`{"generated_texts": ["a\"b", "c"], "ttfts": [0.1]}`))
	d.SkipKeys = map[string]bool{"generated_texts": true}
	v, err := d.Decode()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"ttfts": []float64{0.1}}
	if !reflect.DeepEqual(v, want) {
		t.Errorf("got %#v, want %#v", v, want)
	}
}

func TestDeepNestingRefused(t *testing.T) {
	in := make([]byte, 0, 2*MaxDepth+10)
	for range MaxDepth + 5 {
		in = append(in, '[')
	}
	if _, err := decodeAll(string(in)); err == nil {
		t.Fatal("deep nesting accepted")
	}
}

// Floats parse exactly as strconv does, on the fast path and off it.
func TestFloatsMatchStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 200000 {
		var f float64
		switch i % 4 {
		case 0:
			f = rng.Float64() * 0.05 // a gap in seconds
		case 1:
			f = rng.NormFloat64() * 1e3
		case 2:
			f = math.Float64frombits(rng.Uint64())
		default:
			f = float64(rng.IntN(1e6)) / 1e3
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		// 'e' as Python writes gaps below 1e-4 (2.1e-05), and every exponent besides.
		for _, s := range []string{strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'f', -1, 64), strconv.FormatFloat(f, 'e', -1, 64)} {
			want, _ := strconv.ParseFloat(s, 64)
			got, err := decodeAll("[" + s + ", 0.5]")
			if err != nil {
				t.Fatalf("%s: %v", s, err)
			}
			if g := got[0].([]float64)[0]; g != want {
				t.Fatalf("%s: got %v, want %v", s, g, want)
			}
		}
	}
}

func decodeAll(s string) ([]any, error) {
	d := NewDecoder([]byte(s))
	var out []any
	for d.More() {
		v, err := d.Decode()
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// FuzzDecode checks that valid JSON decodes to what encoding/json sees, and that nothing
// panics or loops on arbitrary bytes.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, NaN]}`, `[{"x": "y"}, null]`, `{"a":1}{"b":2}`, `"\ud800"`, `-Infinity`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(data)
		for d.More() {
			start := d.Offset()
			v, err := d.Decode()
			if err != nil {
				var se *position.Error
				if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(data) {
					t.Fatalf("bad error %v", err)
				}
				return
			}
			if d.Offset() <= start {
				t.Fatal("no progress")
			}
			var std any
			if json.Unmarshal(data[start:d.Offset()], &std) == nil {
				if !sameJSON(std, v) {
					t.Fatalf("%q: encoding/json %#v, jsonx %#v", data[start:d.Offset()], std, v)
				}
			}
		}
	})
}

// sameJSON compares an encoding/json value with a jsonx one.
func sameJSON(std, v any) bool {
	switch s := std.(type) {
	case float64:
		f, ok := Float(v)
		return ok && (f == s || math.Abs(f-s) <= 1e-15*math.Abs(s))
	case []any:
		switch x := v.(type) {
		case []any:
			if len(x) != len(s) {
				return false
			}
			for i := range s {
				if !sameJSON(s[i], x[i]) {
					return false
				}
			}
			return true
		default:
			fs, ok := Floats(v)
			if !ok || len(fs) != len(s) {
				return false
			}
			for i := range s {
				if !sameJSON(s[i], fs[i]) {
					return false
				}
			}
			return true
		}
	case map[string]any:
		m, ok := v.(map[string]any)
		if !ok || len(m) != len(s) {
			return false
		}
		for k, e := range s {
			if !sameJSON(e, m[k]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(std, v)
}

// A string beyond MaxString is checked whole but kept cut at a character boundary, with or
// without escapes.
func TestMaxStringCuts(t *testing.T) {
	for _, body := range []string{strings.Repeat("é", 40), strings.Repeat(`\n\u00e9`, 40)} {
		d := NewDecoder([]byte(`{"s": "` + body + `", "n": 1}`))
		d.MaxString = 9
		v, err := d.Decode()
		if err != nil {
			t.Fatal(err)
		}
		s := v.(map[string]any)["s"].(string)
		if !strings.HasSuffix(s, "… (cut: longer than 9 bytes)") || len(s) > 9+len("… (cut: longer than 9 bytes)") || !utf8.ValidString(s) || d.Replaced != 0 {
			t.Errorf("%q (replaced %d)", s, d.Replaced)
		}
		if v.(map[string]any)["n"] != int64(1) && v.(map[string]any)["n"] != float64(1) {
			t.Errorf("after the cut string: %v", v)
		}
	}
}
