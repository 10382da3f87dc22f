package jsonx

import (
	"bytes"
	"unicode/utf8"
)

// skipValue passes one value that value would read without an error, building nothing, and
// reports whether it did; at a fault it says false, wherever it stopped. Its strings count in
// Replaced as value's do, so a file's encoding warning is the same. A skipped member
// (generated_texts: an array of every request's text) was built string by string and thrown
// away: a third of a small result's decoding, in the plan's light pass and in the full parse.
func (d *Decoder) skipValue(level int) bool {
	if d.pos >= len(d.data) {
		return false
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return level < MaxDepth && d.skipMembers(level)
	case c == '[':
		return level < MaxDepth && d.skipElements(level)
	case c == '"':
		return d.skipString()
	case isNumberStart(c):
		return d.skipNumber()
	case c == 't':
		return d.skipLiteral("true")
	case c == 'f':
		return d.skipLiteral("false")
	case c == 'n':
		return d.skipLiteral("null")
	}
	return false
}

func (d *Decoder) skipLiteral(word string) bool {
	if !bytes.HasPrefix(d.data[d.pos:], []byte(word)) {
		return false
	}
	d.pos += len(word)
	return true
}

// skipMembers passes an object, as object reads it.
func (d *Decoder) skipMembers(level int) bool {
	d.pos++ // {
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return true
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return false
		}
		if !d.skipString() {
			return false
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return false
		}
		d.pos++
		d.skipSpace()
		if !d.skipValue(level + 1) {
			return false
		}
		if more, ok := d.skipSeparator('}'); !ok || !more {
			return ok
		}
	}
}

// skipElements passes an array, as array reads it.
func (d *Decoder) skipElements(level int) bool {
	return d.elements(func() bool { return d.skipValue(level + 1) })
}

// elements passes an array each of whose elements each passes, as array reads it.
func (d *Decoder) elements(each func() bool) bool {
	d.pos++ // [
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return true
	}
	for {
		d.skipSpace()
		if !each() {
			return false
		}
		if more, ok := d.skipSeparator(']'); !ok || !more {
			return ok
		}
		d.progressed()
	}
}

// skipSeparator passes the ',' (more) or the closing byte after a member or element.
func (d *Decoder) skipSeparator(closing byte) (more, ok bool) {
	d.skipSpace()
	if d.pos >= len(d.data) {
		return false, false
	}
	switch d.data[d.pos] {
	case ',':
		d.pos++
		return true, true
	case closing:
		d.pos++
		return false, true
	}
	return false, false
}

// skipString passes a string as str reads it, counting it in Replaced as str would.
func (d *Decoder) skipString() bool {
	start := d.pos
	b, err := d.strBytes()
	if err != nil {
		return false
	}
	if !utf8.Valid(d.cut(b)) {
		d.replaced(start)
	}
	return true
}
