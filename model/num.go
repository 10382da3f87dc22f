// Package model holds the records every stage shares: runs as importers read them, the store
// keeps them and analysis compares them; and the facts every layer must name the same way:
//
//   - the closed sets, each a type whose values are the text stored and printed: Status,
//     CauseCode, CheckState and ConditionState (verdict.go), Role and FileRole (role.go),
//     ChangePath (manifest.go), ShapeClass, BackendStatus (evidence.go), Era, and the
//     warning codes (WarningCodes, warning.go: a warning is a code and its arguments, its
//     English wording beside the code);
//   - the stage metrics, one table (StageMetrics, metric.go): a new stage metric is one row
//     there, and the comparison, the reports, the charts and the views all list it;
//   - how a figure reads for people (Plain, Num.Readable).
//
// A new cause code, status or warning code is a constant beside the others and an entry in
// CauseCodes, Statuses or warningKinds, with its words in every language the front ends speak
// (analysis/report's catalog; a test fails without them).
package model

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Num is an optional number: NaN means "the file did not say". It writes as JSON null when
// unknown and as "inf" / "-inf" for infinities (an infinite request rate is common), so every
// record stays valid JSON.
type Num float64

// Unknown is the Num for a value the source did not give.
var Unknown = Num(math.NaN())

// Known reports whether n holds a value.
func (n Num) Known() bool { return !math.IsNaN(float64(n)) }

// F returns n as a float64 (NaN when unknown).
func (n Num) F() float64 { return float64(n) }

// Readable prints a measurement for people as Plain does, "-" when unknown.
func (n Num) Readable() string { return Plain(float64(n)) }

// Plain prints a measurement for people: four significant digits below 1000 and whole
// numbers from there, trailing zeros dropped, never an exponent (10790, 87.96, 7.361,
// 4012000, 0.0001234); "inf" / "-inf" for infinities, "-" for NaN. Every view and report
// writes figures this way; only a chart's crowded labels use fewer digits.
func Plain(f float64) string {
	a := math.Abs(f)
	switch {
	case math.IsNaN(f):
		return "-"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case a >= 1000:
		return strconv.FormatFloat(f, 'f', 0, 64)
	case a == 0:
		return "0"
	}
	decimals := max(0, 3-int(math.Floor(math.Log10(a))))
	s := strconv.FormatFloat(f, 'f', decimals, 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) { return n.AppendJSON(nil), nil }

// AppendJSON appends n's JSON text, as MarshalJSON writes it: null when unknown, "inf" and
// "-inf" for infinities. Writers that encode by hand (a listing's rows) use it.
func (n Num) AppendJSON(b []byte) []byte {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return append(b, "null"...)
	case math.IsInf(f, 1):
		return append(b, `"inf"`...)
	case math.IsInf(f, -1):
		return append(b, `"-inf"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// UnmarshalJSON implements json.Unmarshaler.
func (n *Num) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case "null":
		*n = Unknown
		return nil
	case `"inf"`:
		*n = Num(math.Inf(1))
		return nil
	case `"-inf"`:
		*n = Num(math.Inf(-1))
		return nil
	}
	// A plain number is parsed as encoding/json parses one, without a decoder of its own per
	// value: listing a library decodes millions of these.
	if plainNumber(b) {
		if f, err := strconv.ParseFloat(string(b), 64); err == nil {
			*n = Num(f)
			return nil
		}
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// plainNumber says b is made of a JSON number's characters, starting as one does; with the
// JSON decoder's own check that b is a value, it is a JSON number.
func plainNumber(b []byte) bool {
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return false
	}
	for _, c := range b {
		if (c < '0' || c > '9') && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-' {
			return false
		}
	}
	return true
}

// MarshalYAML writes unknown as null and infinities as .inf, as YAML does.
func (n Num) MarshalYAML() (any, error) {
	if !n.Known() {
		return nil, nil
	}
	return float64(n), nil
}

// UnmarshalYAML reads null as unknown and .inf as infinity (yaml's pre-v3 interface, so this
// package needs no YAML import).
func (n *Num) UnmarshalYAML(unmarshal func(any) error) error {
	var v any
	if err := unmarshal(&v); err != nil {
		return err
	}
	switch x := v.(type) {
	case nil:
		*n = Unknown
	case float64:
		*n = Num(x)
	case int:
		*n = Num(x)
	case string:
		f, err := strconv.ParseFloat(x, 64)
		if err != nil {
			return err
		}
		*n = Num(f)
	default:
		return fmt.Errorf("not a number: %v", v)
	}
	return nil
}

// Series is a run of samples where NaN marks a missing one; it writes NaN as JSON null.
type Series []float64

// MarshalJSON implements json.Marshaler.
func (s Series) MarshalJSON() ([]byte, error) {
	if s == nil {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 8*len(s)+2)
	b = append(b, '[')
	for i, f := range s {
		if i > 0 {
			b = append(b, ',')
		}
		if math.IsNaN(f) || math.IsInf(f, 0) {
			b = append(b, "null"...)
			continue
		}
		b = strconv.AppendFloat(b, f, 'g', -1, 64)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (s *Series) UnmarshalJSON(b []byte) error {
	var raw []*float64
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw == nil {
		*s = nil
		return nil
	}
	out := make(Series, len(raw))
	for i, p := range raw {
		out[i] = math.NaN()
		if p != nil {
			out[i] = *p
		}
	}
	*s = out
	return nil
}
