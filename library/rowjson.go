package library

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"benchlens/model"
)

// AppendRowJSON appends the row as `runs --json` prints it in its array: the text of a
// json.Encoder with SetIndent("  ", "  ") and SetEscapeHTML(false), without the newline it
// ends with. It is written by hand, field by field in RunRow's order, because encoding/json's
// reflection, its map sorting and its second pass to indent took 3.5 s of CPU listing
// 100,000 runs; TestAppendRowJSONAsEncodingJSON holds the two equal over varied rows.
func AppendRowJSON(b []byte, r *RunRow) []byte {
	w := rowJSON{b: b}
	w.open()
	w.key("id")
	w.b = strconv.AppendInt(w.b, r.ID, 10)
	w.str("label", r.Label)
	w.str("role", string(r.Role))
	w.str("tool", r.Tool)
	w.str("tool_version", r.ToolVersion)
	w.str("era", string(r.Era))
	w.str("model", r.Model)
	w.str("precision", r.Precision)
	w.str("date", r.Date)
	for _, n := range []struct {
		key string
		n   model.Num
	}{
		{"num_prompts", r.NumPrompts}, {"completed", r.Completed}, {"failed", r.Failed}, {"errored", r.Errored},
		{"incomplete", r.Incomplete}, {"cancelled", r.Cancelled}, {"request_rate", r.RequestRate},
		{"max_concurrency", r.MaxConcurrency}, {"duration_s", r.DurationS}, {"request_throughput", r.RequestThroughput},
		{"output_throughput", r.OutputThroughput}, {"total_token_throughput", r.TotalTokenThroughput},
		{"request_goodput", r.Goodput},
	} {
		w.key(n.key)
		w.b = n.n.AppendJSON(w.b)
	}
	w.key("sampled")
	if s := r.Sampled; s == nil {
		w.null()
	} else {
		w.open()
		w.int("records", s.Records)
		w.int("population", s.Population)
		w.str("why", s.Why)
		w.close()
	}
	w.key("tool_warmup")
	if t := r.ToolWarmup; t == nil {
		w.null()
	} else {
		w.open()
		w.int("requests", t.Requests)
		w.int("cooldown", t.Cooldown)
		w.key("in_file")
		w.b = strconv.AppendBool(w.b, t.InFile)
		if t.Setting != "" {
			w.str("setting", t.Setting)
		}
		w.close()
	}
	w.metric("ttft", &r.TTFT)
	w.metric("tpot", &r.TPOT)
	w.metric("itl", &r.ITL)
	w.metric("e2el", &r.E2EL)
	w.key("target_backend")
	w.optional(r.TargetBackend)
	if r.TargetFrom != "" {
		w.str("target_source", r.TargetFrom)
	}
	w.key("resolved_backend")
	w.optional(r.ResolvedBackend)
	w.key("utilisation_shape")
	w.optional((*string)(r.UtilisationShape))
	w.key("load_point")
	if p := r.LoadPoint; p == nil {
		w.null()
	} else {
		w.open()
		for _, n := range []struct {
			key string
			n   model.Num
		}{{"max_concurrency", p.MaxConcurrency}, {"request_rate", p.RequestRate}, {"input_len", p.InputLen}, {"output_len", p.OutputLen}} {
			w.key(n.key)
			w.b = n.n.AppendJSON(w.b)
		}
		if p.Measured {
			w.key("lengths_measured")
			w.b = append(w.b, "true"...)
		}
		for _, s := range []struct{ key, v string }{{"input_from", p.InputFrom}, {"output_from", p.OutputFrom},
			{"output_fixed", p.OutputFixed}, {"dataset", p.Dataset}} {
			if s.v != "" {
				w.str(s.key, s.v)
			}
		}
		w.close()
	}
	w.close()
	return w.b
}

// rowJSON writes indented JSON objects as the Encoder does: each member on its own line,
// indented by the prefix and one indent per depth, an empty object as "{}".
type rowJSON struct {
	b       []byte
	members []int // members written so far in each open object
}

const rowPrefix, rowIndent = "  ", "  "

func (w *rowJSON) open() {
	w.b = append(w.b, '{')
	w.members = append(w.members, 0)
}

func (w *rowJSON) close() {
	last := len(w.members) - 1
	n := w.members[last]
	w.members = w.members[:last]
	if n > 0 {
		w.newline()
	}
	w.b = append(w.b, '}')
}

func (w *rowJSON) newline() {
	w.b = append(w.b, '\n')
	w.b = append(w.b, rowPrefix...)
	for range w.members {
		w.b = append(w.b, rowIndent...)
	}
}

// key starts the next member of the innermost object.
func (w *rowJSON) key(k string) {
	last := len(w.members) - 1
	if w.members[last] > 0 {
		w.b = append(w.b, ',')
	}
	w.members[last]++
	w.newline()
	w.b = appendJSONString(w.b, k)
	w.b = append(w.b, ':', ' ')
}

func (w *rowJSON) null() { w.b = append(w.b, "null"...) }

func (w *rowJSON) str(k, v string) {
	w.key(k)
	w.b = appendJSONString(w.b, v)
}

func (w *rowJSON) int(k string, v int) {
	w.key(k)
	w.b = strconv.AppendInt(w.b, int64(v), 10)
}

func (w *rowJSON) optional(s *string) {
	if s == nil {
		w.null()
		return
	}
	w.b = appendJSONString(w.b, *s)
}

func (w *rowJSON) metric(k string, m *Metric) {
	w.key(k)
	w.open()
	w.stats("tool", m.Tool)
	w.stats("recomputed", m.Recomputed)
	if m.Used != "" {
		w.str("used", m.Used)
	}
	if m.Definition != "" {
		w.str("definition", m.Definition)
	}
	w.close()
}

// stats writes a map of statistics with its keys in order, as encoding/json sorts them.
func (w *rowJSON) stats(k string, st model.Stats) {
	w.key(k)
	if st == nil {
		w.null()
		return
	}
	w.open()
	var buf [16]stat // a run's statistics fit: no allocation
	pairs := buf[:0]
	for name, v := range st {
		pairs = append(pairs, stat{name, v})
	}
	slices.SortFunc(pairs, func(a, b stat) int { return strings.Compare(a.name, b.name) })
	for _, p := range pairs {
		w.key(p.name)
		w.b = p.v.AppendJSON(w.b)
	}
	w.close()
}

// stat is one entry of a statistics map.
type stat struct {
	name string
	v    model.Num
}

// appendJSONString appends s quoted. A string of printable ASCII without quote or backslash,
// which is what listings hold, is copied; any other is left to encoding/json, whose escaping
// (control characters, invalid UTF-8, U+2028 and U+2029) it must match.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return appendEscaped(b, s)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

func appendEscaped(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}
