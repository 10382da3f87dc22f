package trace

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/model"
)

// rec is the part of an X event the reduction needs. Events are kept until all process names
// (which tell the Ascend lanes apart) are known.
type rec struct {
	name  string
	aux   string // Ascend "Task Type", cuda_sync kind
	pid   pkey
	ts    int64 // ns
	dur   int64 // ns
	corr  int64
	bytes int64
	kind  kind
	// hasCorr tells a correlation of 0 from none.
	hasCorr bool
}

type jparser struct {
	file    string
	data    []byte
	recs    []rec
	procs   map[pkey]string
	a       *acc
	legacy  bool
	devName []string
	rank    string
	ev      evt               // the event scanEvent is reading
	left    bool              // scanEvent left that event early (ignorable), unchecked
	names   map[string]string // interned strings of the events
}

// parseJSON reads a Kineto object trace or a bare event array (Ascend trace_view.json).
func parseJSON(name string, data []byte) (*model.TraceEvidence, error) {
	p := &jparser{file: name, data: data, procs: map[pkey]string{}, a: newAcc()}
	pos := skipWS(data, 0)
	if pos < len(data) && bytes.HasPrefix(data[pos:], []byte("\xef\xbb\xbf")) {
		pos = skipWS(data, pos+3)
	}
	var err error
	switch {
	case pos < len(data) && data[pos] == '[':
		err = p.events(pos, true)
	case pos < len(data) && data[pos] == '{':
		err = p.root(pos)
	default:
		err = p.errAt(pos, fmt.Errorf("%w: expected a JSON object or array", ErrNotTrace))
	}
	if err != nil {
		return nil, err
	}
	return p.reduce(), nil
}

func skipWS(data []byte, pos int) int {
	for pos < len(data) {
		switch data[pos] {
		case ' ', '\t', '\n', '\r':
			pos++
		default:
			return pos
		}
	}
	return pos
}

// errAt makes an error at byte offset pos.
func (p *jparser) errAt(pos int, err error) error {
	pos = min(max(pos, 0), len(p.data))
	return &position.Error{File: p.file, Line: 1 + bytes.Count(p.data[:pos], []byte{'\n'}), Offset: pos, Err: err}
}

// value decodes one JSON value at pos, returning it and the offset after it.
func (p *jparser) value(pos int) (any, int, error) {
	if bytes.HasPrefix(p.data[pos:], []byte("\xef\xbb\xbf")) {
		// NewDecoder would skip it and the offsets would no longer match.
		return nil, pos, p.errAt(pos, errors.New("unexpected byte order mark"))
	}
	d := jsonx.NewDecoder(p.data[pos:])
	v, err := d.Decode()
	if err != nil {
		var pe *position.Error
		if errors.As(err, &pe) {
			return nil, pos, p.errAt(pos+pe.Offset, pe.Err)
		}
		return nil, pos, p.errAt(pos, err)
	}
	return v, pos + d.Offset(), nil
}

// root walks the top-level object, streaming traceEvents and keeping the small metadata.
func (p *jparser) root(pos int) error {
	pos++ // {
	found := false
	pos = skipWS(p.data, pos)
	if pos < len(p.data) && p.data[pos] == '}' {
		return p.errAt(pos, fmt.Errorf("%w: no traceEvents array", ErrNotTrace))
	}
	for {
		pos = skipWS(p.data, pos)
		if pos >= len(p.data) {
			if found {
				return nil // truncated after the events: everything needed was read
			}
			return p.errAt(pos, errors.New("unexpected end of input in object"))
		}
		if p.data[pos] != '"' {
			return p.errAt(pos, fmt.Errorf("expected object key, found %q", p.data[pos]))
		}
		k, next, err := p.value(pos)
		if err != nil {
			return err
		}
		key, _ := k.(string)
		pos = skipWS(p.data, next)
		if pos >= len(p.data) || p.data[pos] != ':' {
			return p.errAt(pos, fmt.Errorf("expected ':' after object key %q", key))
		}
		pos = skipWS(p.data, pos+1)
		if key == "traceEvents" && !found {
			if pos >= len(p.data) || p.data[pos] != '[' {
				return p.errAt(pos, errors.New(`"traceEvents" is not an array`))
			}
			found = true
			end, err := p.eventsAt(pos, false)
			if err != nil {
				return err
			}
			pos = end
		} else {
			v, next, err := p.value(pos)
			if err != nil {
				return err
			}
			p.meta(key, v)
			pos = next
		}
		pos = skipWS(p.data, pos)
		if pos >= len(p.data) {
			if found {
				return nil
			}
			return p.errAt(pos, errors.New("unexpected end of input in object"))
		}
		switch p.data[pos] {
		case ',':
			pos++
		case '}':
			if !found {
				return p.errAt(pos, fmt.Errorf("%w: no traceEvents array", ErrNotTrace))
			}
			return nil
		default:
			return p.errAt(pos, fmt.Errorf("expected ',' or '}' in object, found %q", p.data[pos]))
		}
	}
}

// meta keeps what the report header uses.
func (p *jparser) meta(key string, v any) {
	switch key {
	case "deviceProperties":
		if arr, ok := v.([]any); ok {
			for _, d := range arr {
				if n := jsonx.Str(jsonx.Object(d)["name"]); n != "" {
					p.devName = append(p.devName, n)
				}
			}
		}
	case "computeProperties":
		p.legacy = true
	case "distributedInfo":
		if r, ok := jsonx.Int(jsonx.Object(v)["rank"]); ok {
			p.rank = fmt.Sprint(r)
		}
	}
}

func (p *jparser) events(pos int, bare bool) error {
	_, err := p.eventsAt(pos, bare)
	return err
}

// eventsAt reads an event array starting at pos ('['), returning the offset after ']'. A missing
// closing bracket after a complete event is tolerated (an interrupted Ascend export).
func (p *jparser) eventsAt(pos int, bare bool) (int, error) {
	pos++ // [
	pos = skipWS(p.data, pos)
	if pos < len(p.data) && p.data[pos] == ']' {
		return pos + 1, nil
	}
	for {
		pos = skipWS(p.data, pos)
		if pos >= len(p.data) {
			return pos, nil // "]" missing after a separator: tolerated
		}
		next := -1
		if p.data[pos] == '{' {
			if end, ok := p.scanEvent(pos); ok {
				next = end
			}
		}
		if next < 0 {
			v, n, err := p.value(pos)
			if err != nil {
				return pos, err
			}
			if m, ok := v.(map[string]any); ok {
				e := evtOf(m)
				p.event(&e)
			}
			next = n
		}
		pos = skipWS(p.data, next)
		if pos >= len(p.data) {
			return pos, nil // "]" missing: tolerated
		}
		switch p.data[pos] {
		case ',':
			pos++
		case ']':
			return pos + 1, nil
		default:
			return pos, p.errAt(pos, fmt.Errorf("expected ',' or ']' in traceEvents, found %q", p.data[pos]))
		}
	}
}

// syncKinds are the cuda_sync kinds that block the host (Stream Wait Event does not).
var syncKinds = map[string]bool{"Event Sync": true, "Stream Sync": true, "Context Sync": true, "Unknown Sync": true}

// reduce classifies the kept events now that every lane is named.
func (p *jparser) reduce() *model.TraceEvidence {
	lanes := ascendLanes(p.procs)
	ascend := lanes.ascend()
	a := p.a
	a.wholeNames = ascend
	var syncRecs []int
	var dirCache = map[string]int{}
	dirOf := func(name string) int {
		d, ok := dirCache[name]
		if !ok {
			d = copyDir(name)
			dirCache[name] = d
		}
		return d
	}
	var overlap []laneSlice
	var hcclTasks []*rec
	hcom := false
	for i := range p.recs {
		r := &p.recs[i]
		switch {
		case ascend && lanes.hw[r.pid]:
			if ascendTask(a, r, dirOf) {
				hcclTasks = append(hcclTasks, r)
			}
			continue
		case lanes.hccl[r.pid]:
			if strings.HasPrefix(r.name, "hcom") {
				a.comm(lanes.device(r.pid), r.name, r.ts, r.dur)
				hcom = true
			} // the rest are the op's task slices (Notify_Wait, Memcpy, Reduce_Inline), inside it
			continue
		case lanes.overlap[r.pid]:
			overlap = append(overlap, laneSlice{r.name, r.ts, r.dur})
			continue
		}
		switch r.kind {
		case kKernel:
			a.kernel(r.pid, r.name, r.ts, r.dur)
		case kMemcpy:
			a.copy(r.pid, dirOf(r.name), r.ts, r.dur, r.bytes)
		case kMemset:
			a.memset(r.pid, r.ts, r.dur)
		case kRuntime:
			a.call(roleOf(r.name), r.dur)
		case kSync:
			syncRecs = append(syncRecs, i)
		default:
			if ascend && (lanes.cann[r.pid] || strings.Contains(r.name, "@")) {
				a.call(roleOf(r.name), r.dur)
			}
		}
	}
	if !hcom {
		// No HCCL lane with its ops (Level0): the HCCL tasks on the device are the communication.
		for _, r := range hcclTasks {
			a.comm(r.pid, "HCCL "+r.name, r.ts, r.dur)
		}
	}
	// cuda_sync records count only where the runtime call they mirror is absent (or is not a
	// sync: cudaEventQuery shows up as "Event Sync" too but blocks nothing).
	if len(syncRecs) > 0 {
		rt := map[int64]bool{}
		for i := range p.recs {
			if r := &p.recs[i]; r.kind == kRuntime && r.hasCorr {
				rt[r.corr] = true
			}
		}
		for _, i := range syncRecs {
			r := &p.recs[i]
			kind := r.aux
			if kind == "" {
				kind = r.name
			}
			if syncKinds[kind] && !(r.hasCorr && rt[r.corr]) {
				a.call(roleSync, r.dur)
			}
		}
	}
	ev := &model.TraceEvidence{Source: "kineto"}
	switch {
	case ascend:
		ev.Source = "ascend-trace-view"
	case p.legacy:
		ev.Source = "kineto-legacy"
	}
	ev.Device = deviceLabel(p.devName, p.rank)
	if ascend && ev.Device == "" {
		ev.Device = "Ascend NPU"
	}
	var split *model.StepTime
	if len(overlap) > 0 {
		split = a.overlapSplit(overlap)
	}
	a.finish(ev, true, true)
	if split != nil {
		// The lane's own split, which step_trace_time.csv is written from, over the same span.
		ev.StepTime = split
		ev.BusyFraction = model.Num(1 - split.FreeShare)
	}
	return ev
}

func deviceLabel(names []string, rank string) string {
	var uniq []string
	seen := map[string]bool{}
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			uniq = append(uniq, n)
		}
	}
	s := strings.Join(uniq, ", ")
	if rank != "" {
		if s != "" {
			s += " "
		}
		s += "rank " + rank
	}
	return s
}

// skipNested returns the offset after the object or array data[pos] is in, depth levels deep
// (0: the one starting at data[pos]), or -1 when it does not end. It only matches brackets
// outside strings; the content is not validated.
func skipNested(data []byte, pos, depth int) int {
	for i := pos; i < len(data); i++ {
		switch data[i] {
		case '"':
			j := i + 1
			for {
				k := bytes.IndexByte(data[j:], '"')
				if k < 0 {
					return -1
				}
				j += k
				bs := 0
				for m := j - 1; m > i && data[m] == '\\'; m-- {
					bs++
				}
				if bs%2 == 0 {
					break
				}
				j++
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
