package trace

import (
	"benchlens/importers/jsonx"
)

// val is a number or string member of an event as the file holds it, without boxing it in an
// any: the event scanner reads millions of them.
type val struct {
	kind uint8
	i    int64
	f    float64
	s    string
}

// Kinds of val; vNone is an absent member or one of another type (object, array, bool, null).
const (
	vNone uint8 = iota
	vInt
	vFloat
	vStr
)

// valOf is the val of a decoded member.
func valOf(v any) val {
	switch x := v.(type) {
	case int64:
		return val{kind: vInt, i: x}
	case float64:
		return val{kind: vFloat, f: x}
	case string:
		return val{kind: vStr, s: x}
	}
	return val{}
}

// ns reads a µs time as ns (toNs).
func (v val) ns() (int64, bool) {
	switch v.kind {
	case vInt:
		return intNs(v.i)
	case vFloat:
		return floatNs(v.f)
	case vStr:
		return strNs(v.s)
	}
	return 0, false
}

// int reads an integral number or a string holding one (jsonx.Int).
func (v val) int() (int64, bool) {
	switch v.kind {
	case vInt:
		return v.i, true
	case vFloat:
		return jsonx.Int(v.f)
	case vStr:
		return jsonx.Int(v.s)
	}
	return 0, false
}

// str is a string member, or "" for any other type (jsonx.Str).
func (v val) str() string {
	if v.kind == vStr {
		return v.s
	}
	return ""
}

// pkey is the lane a pid names: int, float (truncated) or string.
func (v val) pkey() pkey {
	switch v.kind {
	case vInt:
		return pkey{n: v.i}
	case vFloat:
		return pkey{n: int64(v.f)}
	case vStr:
		return pkey{s: v.s}
	}
	return pkey{}
}

// evt is what the reduction reads of one trace event: its top-level ph, name, cat, pid, ts and
// dur, and of its args object the correlation, the copy's bytes, the sync kind, the Ascend task
// type and the process name of an M event.
type evt struct {
	ph, name, cat  val
	pid, ts, dur   val
	hasArgs        bool
	corr, bytes    val
	syncKind, task val
	argName        val
}

// resetArgs forgets what an earlier args member said (a repeated key: the last one counts).
func (e *evt) resetArgs() {
	e.hasArgs = false
	e.corr, e.bytes, e.syncKind, e.task, e.argName = val{}, val{}, val{}, val{}, val{}
}

// evtOf reads an event decoded whole (the scanner's fallback).
func evtOf(m map[string]any) evt {
	e := evt{ph: valOf(m["ph"]), name: valOf(m["name"]), cat: valOf(m["cat"]),
		pid: valOf(m["pid"]), ts: valOf(m["ts"]), dur: valOf(m["dur"])}
	if args, ok := m["args"].(map[string]any); ok {
		e.hasArgs = true
		e.corr, e.bytes = valOf(args["correlation"]), valOf(args["bytes"])
		e.syncKind, e.task = valOf(args["cuda_sync_kind"]), valOf(args["Task Type"])
		e.argName = valOf(args["name"])
	}
	return e
}

// event files one trace event.
func (p *jparser) event(e *evt) {
	ph, name := e.ph.str(), e.name.str()
	switch ph {
	case "M":
		if name == "process_name" {
			p.procs[e.pid.pkey()] = e.argName.str()
		}
		return
	case "X":
	default:
		return
	}
	ts, ok := e.ts.ns()
	if !ok {
		return
	}
	dur, _ := e.dur.ns()
	dur = max(dur, 0)
	cat := e.cat.str()
	k := catKind(cat)
	if !p.legacy && legacyCats[cat] {
		p.legacy = true
	}
	if n, ok := stepNumber(name); ok {
		p.a.step(n, k == kGPUAnno, ts, dur)
		return
	}
	switch k {
	case kCPU, kAnno, kGPUAnno:
		return
	}
	r := rec{name: name, pid: e.pid.pkey(), ts: ts, dur: dur, kind: k}
	if e.hasArgs {
		if c, ok := e.corr.int(); ok {
			r.corr, r.hasCorr = c, true
		}
		switch k {
		case kMemcpy:
			if b, ok := e.bytes.int(); ok {
				r.bytes = b
			}
		case kSync:
			r.aux = e.syncKind.str()
		default:
			r.aux = e.task.str()
		}
	}
	p.recs = append(p.recs, r)
}
