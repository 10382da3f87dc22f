package trace

import (
	"bytes"

	"benchlens/importers/jsonx"
)

// scanDepth bounds the nesting the scanner follows itself; deeper values go to jsonx, which
// enforces its own limit.
const scanDepth = 64

// scanEvent reads the event object at data[pos] ('{') straight from the bytes and files it:
// no map per event, only the members evt keeps are decoded, their strings interned, and the
// other members checked for syntax and skipped. Events that cannot change the figures are
// left as soon as their first members say so (flows and instants at "ph", host ops at "cat"
// and "name"): like the rest of such events they are only bracket-matched, not checked. It
// reports false, having filed nothing, on anything it does not read as jsonx would (an escaped
// key, bad syntax, deep nesting): the caller then decodes the event whole, which also words
// the error.
func (p *jparser) scanEvent(pos int) (int, bool) {
	d := p.data
	e := &p.ev
	*e = evt{}
	p.left = false
	var seen uint8 // members read: seenPh, seenName, seenCat
	i := skipWS(d, pos+1)
	if i < len(d) && d[i] == '}' {
		p.event(e)
		return i + 1, true
	}
	for {
		key, next, ok := rawKey(d, i)
		if !ok {
			return 0, false
		}
		i = next
		switch string(key) {
		case "ph":
			e.ph, i, ok = p.scalar(i)
			seen |= seenPh
		case "name":
			e.name, i, ok = p.scalar(i)
			seen |= seenName
		case "cat":
			e.cat, i, ok = p.scalar(i)
			seen |= seenCat
		case "pid":
			e.pid, i, ok = p.scalar(i)
		case "ts":
			e.ts, i, ok = p.scalar(i)
		case "dur":
			e.dur, i, ok = p.scalar(i)
		case "args":
			e.resetArgs()
			if i < len(d) && d[i] == '{' {
				i, ok = p.scanArgs(i, e)
			} else {
				i, ok = p.skip(i, 1)
			}
		default:
			i, ok = p.skip(i, 1)
		}
		if !ok {
			return 0, false
		}
		var done bool
		if i, done, ok = sep(d, i, '}'); !ok {
			return 0, false
		}
		if done {
			p.event(e)
			return i, true
		}
		if ignorable(e, seen) {
			p.left = true
			end := skipNested(d, i, 1)
			return end, end > 0
		}
	}
}

// Members scanEvent has read, for ignorable.
const (
	seenPh uint8 = 1 << iota
	seenName
	seenCat
)

// ignorable reports an event that cannot change the figures, from its members read so far: a
// phase other than X and M, an M event other than process_name, a host op or annotation that
// is no ProfilerStep#N (legacy categories are read whole: they mark the trace legacy).
func ignorable(e *evt, seen uint8) bool {
	if seen&seenPh == 0 {
		return false
	}
	switch e.ph.str() {
	case "X":
		if seen&(seenName|seenCat) != seenName|seenCat {
			return false
		}
		cat := e.cat.str()
		if legacyCats[cat] {
			return false
		}
		switch catKind(cat) {
		case kCPU, kAnno, kGPUAnno:
			_, step := stepNumber(e.name.str())
			return !step
		}
		return false
	case "M":
		return seen&seenName != 0 && e.name.str() != "process_name"
	}
	return true
}

// scanArgs reads an args object, keeping the members evt needs.
func (p *jparser) scanArgs(i int, e *evt) (int, bool) {
	d := p.data
	e.hasArgs = true
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		return i + 1, true
	}
	for {
		key, next, ok := rawKey(d, i)
		if !ok {
			return 0, false
		}
		i = next
		switch string(key) {
		case "correlation":
			e.corr, i, ok = p.scalar(i)
		case "bytes":
			e.bytes, i, ok = p.scalar(i)
		case "cuda_sync_kind":
			e.syncKind, i, ok = p.scalar(i)
		case "Task Type":
			e.task, i, ok = p.scalar(i)
		case "name":
			e.argName, i, ok = p.scalar(i)
		default:
			i, ok = p.skip(i, 2)
		}
		if !ok {
			return 0, false
		}
		var done bool
		if i, done, ok = sep(d, i, '}'); !ok || done {
			return i, ok
		}
	}
}

// sep reads what follows a member or element: ',' (the offset of the next one) or the closer
// (done, the offset after it).
func sep(d []byte, i int, closer byte) (next int, done, ok bool) {
	i = skipWS(d, i)
	if i >= len(d) {
		return 0, false, false
	}
	switch d[i] {
	case ',':
		return skipWS(d, i+1), false, true
	case closer:
		return i + 1, true, true
	}
	return 0, false, false
}

// rawKey reads an object key at data[i] and the ':' after it, returning the key's bytes and
// the offset of its value. Keys with escapes or control characters are left to jsonx.
func rawKey(d []byte, i int) ([]byte, int, bool) {
	if i >= len(d) || d[i] != '"' {
		return nil, 0, false
	}
	j := i + 1
	for ; j < len(d); j++ {
		c := d[j]
		if c == '"' {
			break
		}
		if c < 0x20 || c == '\\' {
			return nil, 0, false
		}
	}
	if j >= len(d) {
		return nil, 0, false
	}
	k := skipWS(d, j+1)
	if k >= len(d) || d[k] != ':' {
		return nil, 0, false
	}
	return d[i+1 : j], skipWS(d, k+1), true
}

// scalar reads a string or number member; any other value is checked and read as none.
func (p *jparser) scalar(i int) (val, int, bool) {
	d := p.data
	if i >= len(d) {
		return val{}, 0, false
	}
	switch c := d[i]; {
	case c == '"':
		s, end, ok := p.str(i)
		return val{kind: vStr, s: s}, end, ok
	case c == '-' || c >= '0' && c <= '9' || c == 'N' || c == 'I':
		n, f, isInt, size, err := jsonx.Number(d[i:])
		if err != nil {
			return val{}, 0, false
		}
		if isInt {
			return val{kind: vInt, i: n}, i + size, true
		}
		return val{kind: vFloat, f: f}, i + size, true
	}
	end, ok := p.skip(i, 1)
	return val{}, end, ok
}

// str reads a string literal. Plain ASCII strings (nearly all of a trace) are interned from
// the bytes: a name repeated a million times is one string. The others go through jsonx.
func (p *jparser) str(i int) (string, int, bool) {
	d := p.data
	for j := i + 1; j < len(d); j++ {
		c := d[j]
		if c == '"' {
			return p.intern(d[i+1 : j]), j + 1, true
		}
		if c < 0x20 || c == '\\' || c >= 0x80 {
			break
		}
	}
	s, size, err := jsonx.String(d[i:])
	if err != nil {
		return "", 0, false
	}
	return s, i + size, true
}

func (p *jparser) intern(b []byte) string {
	if p.names == nil {
		p.names = map[string]string{}
	}
	if s, ok := p.names[string(b)]; ok {
		return s
	}
	s := string(b)
	p.names[s] = s
	return s
}

// skip checks one value's syntax as jsonx would and returns the offset after it.
func (p *jparser) skip(i, depth int) (int, bool) {
	d := p.data
	if i >= len(d) {
		return 0, false
	}
	switch c := d[i]; {
	case c == '"':
		for j := i + 1; j < len(d); j++ {
			c := d[j]
			if c == '"' {
				return j + 1, true
			}
			if c < 0x20 || c == '\\' {
				break
			}
		}
		_, size, err := jsonx.String(d[i:])
		return i + size, err == nil
	case c == '-' || c >= '0' && c <= '9' || c == 'N' || c == 'I':
		_, _, _, size, err := jsonx.Number(d[i:])
		return i + size, err == nil
	case c == '{' || c == '[':
		if depth >= scanDepth {
			return 0, false
		}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == closer {
			return i + 1, true
		}
		for {
			var ok bool
			if c == '{' {
				if _, i, ok = rawKey(d, i); !ok {
					return 0, false
				}
			}
			if i, ok = p.skip(i, depth+1); !ok {
				return 0, false
			}
			var done bool
			if i, done, ok = sep(d, i, closer); !ok || done {
				return i, ok
			}
		}
	case c == 't':
		return i + 4, bytes.HasPrefix(d[i:], []byte("true"))
	case c == 'f':
		return i + 5, bytes.HasPrefix(d[i:], []byte("false"))
	case c == 'n':
		return i + 4, bytes.HasPrefix(d[i:], []byte("null"))
	}
	return 0, false
}
