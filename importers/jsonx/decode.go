// Package jsonx decodes the JSON that benchmark tools really write: Python's json.dump with
// allow_nan (bare NaN, Infinity, -Infinity), several values per file (one object, JSONL,
// concatenated objects, an array), and files of a hundred megabytes with millions of numbers.
//
// Values decode to map[string]any, []any, string, bool, nil, int64 (integer literals that fit),
// float64, and, for arrays holding only numbers, []int64 or []float64 without boxing each
// element. Errors carry the byte offset and line, so importers can name the spot. README.md
// says why encoding/json is not enough here, with the measured difference (BenchmarkDecode).
package jsonx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"benchlens/importers/position"
)

// Decoder reads consecutive JSON values from a byte slice.
type Decoder struct {
	data []byte
	pos  int
	// SkipKeys names members of the outermost object whose values are checked for syntax but
	// not kept (generated_texts of a 100 MB result, say).
	SkipKeys map[string]bool
	// Progress, if set, is told every few megabytes how far decoding has got: the bytes before
	// that offset will not be read again (unless an error is reported).
	Progress func(offset int)
	mark     int
	depth    int
	// floatLen is the length of the last array of floats at each nesting level: its
	// siblings (a result's per-request gaps) are about as long, so one allocation fits most.
	floatLen [4]int
	// Replaced counts the strings kept with invalid UTF-8 replaced by U+FFFD (a Latin-1 file,
	// say); FirstReplaced is the offset of the first such string.
	Replaced, FirstReplaced int
	// MaxString, if positive, bounds the strings kept: a longer one is checked whole but kept
	// cut, so a gigabyte string costs no gigabyte of heap.
	MaxString int
	// Shallow keeps a member of the outermost object that is an array of numbers, or of
	// arrays of numbers and nulls, as its Shape: checked for syntax, not built (see Shape).
	Shallow bool
}

// progressStep is how often Progress hears from the decoder.
const progressStep = 8 << 20

func (d *Decoder) progressed() {
	if d.Progress != nil && d.pos >= d.mark {
		d.mark = d.pos + progressStep
		d.Progress(d.pos)
	}
}

// MaxDepth bounds nesting so hostile input cannot exhaust the stack.
const MaxDepth = 512

// NewDecoder returns a decoder over data. A UTF-8 byte order mark is skipped.
func NewDecoder(data []byte) *Decoder {
	return &Decoder{data: bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))}
}

// More reports whether another value follows (after whitespace and separating commas of a
// top-level sequence such as JSONL).
func (d *Decoder) More() bool {
	d.skipSpace()
	return d.pos < len(d.data)
}

// Offset is the position of the next unread byte.
func (d *Decoder) Offset() int { return d.pos }

// Decode reads the next value.
func (d *Decoder) Decode() (any, error) {
	d.skipSpace()
	d.depth = 0
	return d.value(0)
}

// errorf says where the input stopped being JSON: a *position.Error without a file, the
// offset counted from the start of the input.
func (d *Decoder) errorf(format string, args ...any) error {
	pos := min(d.pos, len(d.data))
	return &position.Error{Line: 1 + bytes.Count(d.data[:pos], []byte{'\n'}), Offset: pos, Err: fmt.Errorf(format, args...)}
}

func (d *Decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *Decoder) value(level int) (any, error) {
	if d.pos >= len(d.data) {
		return nil, d.errorf("unexpected end of input")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(level)
	case c == '[':
		return d.array(level)
	case c == '"':
		return d.str()
	case c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I':
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	default:
		return nil, d.errorf("unexpected %s", quoteByte(c))
	}
}

func quoteByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (d *Decoder) literal(word string) error {
	if !bytes.HasPrefix(d.data[d.pos:], []byte(word)) {
		return d.errorf("invalid literal, expected %s", word)
	}
	d.pos += len(word)
	return nil
}

func (d *Decoder) enter(level int) error {
	if level >= MaxDepth {
		return d.errorf("nesting deeper than %d", MaxDepth)
	}
	return nil
}

func (d *Decoder) object(level int) (any, error) {
	if err := d.enter(level); err != nil {
		return nil, err
	}
	d.pos++ // {
	obj := map[string]any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return obj, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			if d.pos >= len(d.data) {
				return nil, d.errorf("unexpected end of input in object")
			}
			return nil, d.errorf("expected object key, found %s", quoteByte(d.data[d.pos]))
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.errorf("expected ':' after object key %q", key)
		}
		d.pos++
		d.skipSpace()
		if level == 0 && d.SkipKeys[key] {
			if err := d.skip(level + 1); err != nil {
				return nil, err
			}
		} else if s, ok := d.shallow(level); ok {
			obj[key] = s
		} else {
			v, err := d.value(level + 1)
			if err != nil {
				return nil, err
			}
			obj[key] = v
		}
		d.skipSpace()
		if d.pos >= len(d.data) {
			return nil, d.errorf("unexpected end of input in object")
		}
		switch d.data[d.pos] {
		case ',':
			d.pos++
		case '}':
			d.pos++
			return obj, nil
		default:
			return nil, d.errorf("expected ',' or '}' in object, found %s", quoteByte(d.data[d.pos]))
		}
	}
}

// array decodes an array, keeping numbers unboxed while every element is a number.
func (d *Decoder) array(level int) (any, error) {
	if err := d.enter(level); err != nil {
		return nil, err
	}
	d.pos++ // [
	var ints []int64
	var floats []float64
	var items []any
	kind := 0 // 0 ints, 1 floats, 2 any
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return []any{}, nil
	}
	for {
		d.skipSpace()
		if kind != 2 && d.pos < len(d.data) && isNumberStart(d.data[d.pos]) {
			// Numbers straight into the typed slice: no boxing for millions of gaps.
			n, f, isInt, err := d.scanNumber()
			if err != nil {
				return nil, err
			}
			switch {
			case isInt && kind == 0:
				ints = append(ints, n)
			case kind == 0:
				floats = make([]float64, len(ints), max(2*len(ints), 8, d.floatLen[min(level, len(d.floatLen)-1)]))
				for i, x := range ints {
					floats[i] = float64(x)
				}
				ints, kind = nil, 1
				floats = append(floats, f)
			case isInt:
				floats = append(floats, float64(n))
			default:
				floats = append(floats, f)
			}
			if !d.arrayNext() {
				return d.arrayEnd(level, kind, ints, floats, items)
			}
			if err := d.arrayErr(); err != nil {
				return nil, err
			}
			continue
		}
		v, err := d.value(level + 1)
		if err != nil {
			return nil, err
		}
		switch x := v.(type) {
		case int64:
			switch kind {
			case 0:
				ints = append(ints, x)
			case 1:
				floats = append(floats, float64(x))
			default:
				items = append(items, x)
			}
		case float64:
			switch kind {
			case 0:
				floats = make([]float64, len(ints), max(2*len(ints), 8, d.floatLen[min(level, len(d.floatLen)-1)]))
				for i, n := range ints {
					floats[i] = float64(n)
				}
				ints, kind = nil, 1
				floats = append(floats, x)
			case 1:
				floats = append(floats, x)
			default:
				items = append(items, x)
			}
		default:
			if kind != 2 {
				items = make([]any, 0, len(ints)+len(floats)+1)
				for _, n := range ints {
					items = append(items, n)
				}
				for _, f := range floats {
					items = append(items, f)
				}
				ints, floats, kind = nil, nil, 2
			}
			items = append(items, v)
		}
		if !d.arrayNext() {
			return d.arrayEnd(level, kind, ints, floats, items)
		}
		if err := d.arrayErr(); err != nil {
			return nil, err
		}
		d.progressed()
	}
}

// arrayNext consumes the separator after an element: true after ',', false after ']'. On
// anything else it consumes nothing and returns true; arrayErr then reports it.
func (d *Decoder) arrayNext() bool {
	d.skipSpace()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',':
			d.pos++
			return true
		case ']':
			d.pos++
			return false
		}
	}
	return true
}

// arrayErr reports a missing separator, if the last arrayNext found none.
func (d *Decoder) arrayErr() error {
	if d.pos > 0 && d.data[d.pos-1] == ',' {
		return nil
	}
	if d.pos >= len(d.data) {
		return d.errorf("unexpected end of input in array")
	}
	return d.errorf("expected ',' or ']' in array, found %s", quoteByte(d.data[d.pos]))
}

func (d *Decoder) arrayEnd(level, kind int, ints []int64, floats []float64, items []any) (any, error) {
	switch kind {
	case 0:
		return ints, nil
	case 1:
		d.floatLen[min(level, len(d.floatLen)-1)] = len(floats)
		if cap(floats) > len(floats)+len(floats)/4+8 {
			floats = append(make([]float64, 0, len(floats)), floats...) // sized for a longer sibling
		}
		return floats, nil
	}
	return items, nil
}

func isNumberStart(c byte) bool { return c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I' }

// skip checks one value's syntax without building it (skipValue); a value at fault is read
// again by value, which reports the fault as it always did.
func (d *Decoder) skip(level int) error {
	if d.pos < len(d.data) && d.data[d.pos] == '"' {
		_, err := d.strBytes() // a string member skipped was never counted in Replaced
		return err
	}
	start := d.pos
	if d.skipValue(level) {
		return nil
	}
	d.pos = start
	_, err := d.value(level)
	return err
}

func (d *Decoder) str() (string, error) {
	start := d.pos
	b, err := d.strBytes()
	b = d.cut(b)
	if !utf8.Valid(b) {
		d.replaced(start)
		return validUTF8(b), err
	}
	return string(b), err
}

// cut is a string's bytes as kept: cut at MaxString.
func (d *Decoder) cut(b []byte) []byte {
	if d.MaxString > 0 && len(b) > d.MaxString {
		n := d.MaxString
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		b = append(b[:n:n], fmt.Sprintf("… (cut: longer than %d bytes)", d.MaxString)...)
	}
	return b
}

// replaced counts a string at start kept with invalid UTF-8 replaced.
func (d *Decoder) replaced(start int) {
	if d.Replaced == 0 {
		d.FirstReplaced = start
	}
	d.Replaced++
}

// validUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func validUTF8(b []byte) string {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, unicodeReplacement)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return string(out)
}

// strBytes reads a string literal; the result aliases the input when there are no escapes.
func (d *Decoder) strBytes() ([]byte, error) {
	start := d.pos
	d.pos++ // opening quote
	rest := d.data[d.pos:]
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		d.pos = start
		return nil, d.errorf("unterminated string")
	}
	if bytes.IndexByte(rest[:end], '\\') < 0 {
		raw := rest[:end]
		if i := firstControl(raw); i >= 0 {
			d.pos += i
			return nil, d.errorf("control character %s in string", quoteByte(raw[i]))
		}
		d.pos += end + 1
		return raw, nil
	}
	return d.unescape(start)
}

func firstControl(b []byte) int {
	for i, c := range b {
		if c < 0x20 {
			return i
		}
	}
	return -1
}

func (d *Decoder) unescape(start int) ([]byte, error) {
	out := make([]byte, 0, 64)
	for {
		if d.pos >= len(d.data) {
			d.pos = start
			return nil, d.errorf("unterminated string")
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return out, nil
		case c < 0x20:
			return nil, d.errorf("control character %s in string", quoteByte(c))
		case c != '\\':
			if d.MaxString <= 0 || len(out) <= d.MaxString { // one byte more tells str to cut
				out = append(out, c)
			}
			d.pos++
			continue
		}
		if d.pos+1 >= len(d.data) {
			d.pos = start
			return nil, d.errorf("unterminated string")
		}
		e := d.data[d.pos+1]
		d.pos += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
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
			r, ok := d.hex4()
			if !ok {
				return nil, d.errorf("invalid \\u escape")
			}
			if utf16.IsSurrogate(r) {
				r2 := unicodeReplacement
				if d.pos+1 < len(d.data) && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
					d.pos += 2
					low, ok := d.hex4()
					if !ok {
						return nil, d.errorf("invalid \\u escape")
					}
					if dec := utf16.DecodeRune(r, low); dec != unicodeReplacement {
						r2 = dec
					} else {
						d.pos -= 6 // not a low surrogate: it stands on its own, as encoding/json reads it
					}
				}
				r = r2
			}
			out = utf8.AppendRune(out, r)
		default:
			d.pos -= 2
			return nil, d.errorf("invalid escape \\%c", e)
		}
		if d.MaxString > 0 && len(out) > d.MaxString+utf8.UTFMax {
			out = out[:d.MaxString+1]
		}
	}
}

const unicodeReplacement = '\uFFFD'

func (d *Decoder) hex4() (rune, bool) {
	if d.pos+4 > len(d.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.pos += 4
	return rune(n), true
}

// number reads a JSON number, or one of Python's NaN, Infinity, -Infinity.
func (d *Decoder) number() (any, error) {
	n, f, isInt, err := d.scanNumber()
	if err != nil {
		return nil, err
	}
	if isInt {
		return n, nil
	}
	return f, nil
}

// scanNumber reads a number without boxing it: an int64 for integer literals that fit,
// else a float64.
func (d *Decoder) scanNumber() (int64, float64, bool, error) {
	// The scan works on locals (registers), not on the decoder's fields: it runs for every one
	// of millions of gaps. d.pos is set again before each return.
	data, pos := d.data, d.pos
	start := pos
	// Python's special numbers are told by their first letter: a comparison of the bytes
	// ahead for each of millions of gaps cost a tenth of the scan.
	if data[pos] == 'N' && bytes.HasPrefix(data[pos:], []byte("NaN")) {
		d.pos = pos + 3
		return 0, math.NaN(), false, nil
	}
	neg := data[pos] == '-'
	if neg {
		pos++
	}
	if pos < len(data) && data[pos] == 'I' && bytes.HasPrefix(data[pos:], []byte("Infinity")) {
		d.pos = pos + len("Infinity")
		if neg {
			return 0, math.Inf(-1), false, nil
		}
		return 0, math.Inf(1), false, nil
	}
	// Mantissa digits accumulate as they are scanned, for the exact fast path below.
	var mant uint64
	nd, dropped := 0, false
	digits := pos
	for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
		if nd < 19 {
			mant = mant*10 + uint64(data[pos]-'0')
			if mant != 0 {
				nd++
			}
		} else {
			dropped = true
		}
		pos++
	}
	if pos == digits {
		d.pos = pos
		return 0, 0, false, d.errorf("invalid number")
	}
	intDigits := pos - digits
	exp10 := 0
	if dropped {
		exp10 = intDigits - 19 // only reached for huge integers; the slow path handles them
	}
	integral := true
	if pos < len(data) && data[pos] == '.' {
		integral = false
		pos++
		frac := pos
		if mant == 0 { // the zeros of 0.0134 only move the point
			for pos < len(data) && data[pos] == '0' {
				pos++
				exp10--
			}
		}
		// Eight digits at a time, then the rest in one step: a timing written by Python has
		// 16-17 significant digits, all of them past the zeros skipped. Digits counted that are
		// not significant (a fraction of zeros) only send the number to strconv sooner.
		for pos+8 <= len(data) && nd <= 19-8 {
			v, ok := eightDigits(data[pos:])
			if !ok {
				break
			}
			mant = mant*1e8 + v
			nd += 8
			exp10 -= 8
			pos += 8
		}
		if pos+8 <= len(data) && data[pos] >= '0' && data[pos] <= '9' {
			if v, n := digitsAhead(data[pos:]); nd+n <= 19 {
				mant = mant*pow10u[n] + v
				nd += n
				exp10 -= n
				pos += n
			}
		}
		for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
			if nd < 19 {
				mant = mant*10 + uint64(data[pos]-'0')
				exp10--
				if mant != 0 {
					nd++
				}
			} else {
				dropped = true
			}
			pos++
		}
		if pos == frac {
			d.pos = pos
			return 0, 0, false, d.errorf("invalid number: no digits after '.'")
		}
	}
	hasExp := false // an exponent too large for the fast paths
	if pos < len(data) && (data[pos] == 'e' || data[pos] == 'E') {
		integral = false
		pos++
		expNeg := false
		if pos < len(data) && (data[pos] == '+' || data[pos] == '-') {
			expNeg = data[pos] == '-'
			pos++
		}
		exp, e := pos, 0
		for pos < len(data) && data[pos] >= '0' && data[pos] <= '9' {
			if e < 1000 {
				e = e*10 + int(data[pos]-'0')
			}
			pos++
		}
		if pos == exp {
			d.pos = pos
			return 0, 0, false, d.errorf("invalid number: no digits in exponent")
		}
		// Python writes gaps below 1e-4 with one (2.1e-05): they stay on the fast paths.
		if expNeg {
			e = -e
		}
		if e >= 1000 || e <= -1000 {
			hasExp = true
		} else {
			exp10 += e
		}
	}
	lit := data[start:pos]
	if integral && !dropped && mant <= math.MaxInt64 {
		if neg {
			d.pos = pos
			return -int64(mant), 0, true, nil
		}
		d.pos = pos
		return int64(mant), 0, true, nil
	}
	// Clinger's fast path: a mantissa exact in a float64 and a power of ten exact too give a
	// correctly rounded result with one operation, as strconv would.
	if !hasExp && !dropped && mant < 1<<53 && exp10 >= -22 && exp10 <= 0 {
		f := float64(mant) / pow10[-exp10]
		if neg {
			f = -f
		}
		d.pos = pos
		return 0, f, false, nil
	}
	if !hasExp && !dropped {
		if f, ok := eiselLemire64(mant, exp10, neg); ok {
			d.pos = pos
			return 0, f, false, nil
		}
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil && !isRangeErr(err) {
		pos = start
		d.pos = pos
		return 0, 0, false, d.errorf("invalid number %q", lit)
	}
	d.pos = pos
	return 0, f, false, nil
}

// eightDigits reads eight ASCII digits as a number (SWAR, as simdjson does), or says they are
// not all digits.
func eightDigits(b []byte) (uint64, bool) {
	v := binary.LittleEndian.Uint64(b)
	if (v&0xF0F0F0F0F0F0F0F0)|(((v+0x0606060606060606)&0xF0F0F0F0F0F0F0F0)>>4) != 0x3333333333333333 {
		return 0, false
	}
	v = (v & 0x0F0F0F0F0F0F0F0F) * 2561 >> 8
	v = (v & 0x00FF00FF00FF00FF) * 6553601 >> 16
	return (v & 0x0000FFFF0000FFFF) * 42949672960001 >> 32, true
}

// digitsAhead reads the ASCII digits that start b[:8], eight at most, as a number, and says
// how many there were: the last few digits of a timing in one step, not one by one. b holds
// at least eight bytes.
func digitsAhead(b []byte) (uint64, int) {
	x := binary.LittleEndian.Uint64(b)
	// A byte is a digit when its high nibble is 3, and still 3 with 6 added (0x30-0x39). A
	// carry out of a byte's +6 reaches only bytes after the first that is no digit.
	other := (x&0xF0F0F0F0F0F0F0F0 ^ 0x3030303030303030) | ((x+0x0606060606060606)&0xF0F0F0F0F0F0F0F0 ^ 0x3030303030303030)
	n := bits.TrailingZeros64(other) / 8
	if n == 0 {
		return 0, 0
	}
	// The n digits' values moved to the top bytes, which hold the last digits of eight: the
	// bytes shifted in are leading zeros (and what followed the digits is shifted out).
	v := (x - 0x3030303030303030) << (64 - 8*n)
	v = v * 2561 >> 8
	v = (v & 0x00FF00FF00FF00FF) * 6553601 >> 16
	return (v & 0x0000FFFF0000FFFF) * 42949672960001 >> 32, n
}

// pow10u[n] is 10^n, for a mantissa that takes n more digits.
var pow10u = [...]uint64{1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8}

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12,
	1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
