// Package model holds the records every stage shares: runs as importers read them, the store
// keeps them and analysis compares them.
package model

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
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

// Readable prints a measurement for people: four significant digits and no exponent below a
// million (10790, 87.96, 7.36, 4.012e+06), "-" when unknown.
func (n Num) Readable() string {
	f := float64(n)
	switch a := math.Abs(f); {
	case math.IsNaN(f):
		return "-"
	case a >= 1000 && a < 1e6:
		return fmt.Sprintf("%.0f", f)
	}
	return fmt.Sprintf("%.4g", f)
}

// MarshalJSON implements json.Marshaler.
func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	switch {
	case math.IsNaN(f):
		return []byte("null"), nil
	case math.IsInf(f, 1):
		return []byte(`"inf"`), nil
	case math.IsInf(f, -1):
		return []byte(`"-inf"`), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
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
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
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
