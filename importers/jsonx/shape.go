package jsonx

import "bytes"

// Shape stands, in a Shallow decode, for an array of the outermost object that was checked
// but not built: Len numbers (Depth 1), or Len arrays of numbers and nulls (Depth 2). A plan
// of a folder of results reads each file for the few fields its grouping needs
// (importers.PlanBundle); the per-request arrays, most of a result's bytes and nearly all its
// parse, only have to be well formed and of the right lengths there.
type Shape struct{ Len, Depth int }

// shallow reads, at a member value of the outermost object in a Shallow decode, an array
// that has a Shape. Anything else, an empty array or a fault among them, is left for value
// to decode (and to report at the spot it always did): ok is false and nothing is consumed.
func (d *Decoder) shallow(level int) (Shape, bool) {
	if !d.Shallow || level != 0 || d.pos >= len(d.data) || d.data[d.pos] != '[' {
		return Shape{}, false
	}
	start := d.pos
	s, ok := d.shape()
	if !ok {
		d.pos = start
	}
	return s, ok
}

// shape scans the array at d.pos as a Shape.
func (d *Decoder) shape() (Shape, bool) {
	d.pos++ // [
	var s Shape
	for {
		d.skipSpace()
		if d.pos >= len(d.data) {
			return s, false
		}
		switch c := d.data[d.pos]; {
		case isNumberStart(c) && s.Depth != 2:
			if !d.skipNumber() {
				return s, false
			}
			s.Depth = 1
		case c == '[' && s.Depth != 1:
			if !d.numbers() {
				return s, false
			}
			s.Depth = 2
		case c == 'n' && s.Depth != 1 && d.skipLiteral("null"):
			s.Depth = 2
		default:
			return s, false // an empty array too: value builds it ([]any{})
		}
		s.Len++
		if more, ok := d.skipSeparator(']'); !ok || !more {
			return s, ok
		}
	}
}

// numbers skips an array of numbers (possibly empty), as array would decode it.
func (d *Decoder) numbers() bool {
	return d.elements(func() bool { return d.pos < len(d.data) && isNumberStart(d.data[d.pos]) && d.skipNumber() })
}

// skipNumber passes a number scanNumber would read without error, and reports whether it
// found one: the same grammar (digits, an optional fraction and exponent; NaN, Infinity,
// -Infinity), no value.
func (d *Decoder) skipNumber() bool {
	data, pos := d.data, d.pos
	if bytes.HasPrefix(data[pos:], []byte("NaN")) {
		d.pos = pos + len("NaN")
		return true
	}
	if data[pos] == '-' {
		pos++
	}
	if bytes.HasPrefix(data[pos:], []byte("Infinity")) {
		d.pos = pos + len("Infinity")
		return true
	}
	digits := func() bool {
		from := pos
		for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
			pos++
		}
		return pos > from
	}
	if !digits() {
		return false
	}
	if pos < len(data) && data[pos] == '.' {
		pos++
		if !digits() {
			return false
		}
	}
	if pos < len(data) && (data[pos] == 'e' || data[pos] == 'E') {
		pos++
		if pos < len(data) && (data[pos] == '+' || data[pos] == '-') {
			pos++
		}
		if !digits() {
			return false
		}
	}
	d.pos = pos
	return true
}
