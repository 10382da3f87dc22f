package demo

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// pyFloat formats v the way Python's repr (and so json.dump) does: shortest round-trip
// digits, a ".0" on integral values, exponent form only below 1e-4 or from 1e16 up.
func pyFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	a := math.Abs(v)
	if v != 0 && (a < 1e-4 || a >= 1e16) {
		s := strconv.FormatFloat(v, 'e', -1, 64) // 1e-05, 1.5e+16: Python's shape too
		return s
	}
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// pyString writes s as Python's json.dumps does with ensure_ascii=True.
func pyString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r > 0x7e:
			if r > 0xffff {
				r -= 0x10000
				b.WriteString(`\u` + hex4(0xd800+(r>>10)) + `\u` + hex4(0xdc00+(r&0x3ff)))
			} else {
				b.WriteString(`\u` + hex4(r))
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func hex4(r rune) string {
	s := strconv.FormatInt(int64(r), 16)
	return strings.Repeat("0", 4-len(s)) + s
}

// pyObj builds one JSON object with Python's default separators (", " and ": ").
type pyObj struct {
	b     strings.Builder
	first bool
}

func newPyObj() *pyObj { o := &pyObj{first: true}; o.b.WriteByte('{'); return o }

func (o *pyObj) key(k string) {
	if !o.first {
		o.b.WriteString(", ")
	}
	o.first = false
	o.b.WriteString(pyString(k))
	o.b.WriteString(": ")
}

func (o *pyObj) raw(k, v string)         { o.key(k); o.b.WriteString(v) }
func (o *pyObj) str(k, v string)         { o.raw(k, pyString(v)) }
func (o *pyObj) num(k string, v float64) { o.raw(k, pyFloat(v)) }
func (o *pyObj) int(k string, v int)     { o.raw(k, strconv.Itoa(v)) }
func (o *pyObj) null(k string)           { o.raw(k, "null") }
func (o *pyObj) done() string            { o.b.WriteByte('}'); return o.b.String() }

func pyList[T any](xs []T, f func(T) string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = f(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// --- numpy-exact statistics (float64, as vLLM calls them; sum, mean, std in internal/numpy) ---

func npMedian(a []float64) float64 {
	s := slices.Clone(a)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// npPercentile is numpy.percentile with the default "linear" method.
func npPercentile(a []float64, p float64) float64 {
	s := slices.Clone(a)
	slices.Sort(s)
	n := len(s)
	vi := (p / 100) * float64(n-1)
	lo := math.Floor(vi)
	g := vi - lo
	i := int(lo)
	if i >= n-1 {
		return s[n-1]
	}
	x, y := s[i], s[i+1]
	d := y - x
	if g >= 0.5 {
		return y - d*(1-g)
	}
	return x + d*g
}
