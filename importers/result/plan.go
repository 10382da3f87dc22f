package result

import (
	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/model"
)

// PlanJSON reads of a JSON result what a plan of a folder groups its runs by (importers.Plan):
// each run's tool, model and label, nothing else of it. It decodes the file shallow (the
// per-request arrays checked for syntax and counted, not built: jsonx.Shape) and reads no
// run. ok is true only when ReadJSON would give exactly those runs without an error; for
// anything it cannot be sure of (a tool other than vLLM's clients, several values, an array
// of another shape, any fault) it says false and the plan reads the file whole, so a file that
// fails still fails as ReadJSON says, at its line and offset.
func PlanJSON(f *format.File) (format.Parsed, bool) {
	if lead := f.Lead(); len(lead) == 0 || lead[0] != '{' {
		return format.Parsed{}, false
	}
	dec := jsonx.NewDecoder(f.Data)
	dec.SkipKeys = skipKeys
	dec.MaxString = maxString
	dec.Shallow = true
	v, err := dec.Decode()
	if err != nil || dec.More() {
		return format.Parsed{}, false
	}
	obj, _ := v.(map[string]any)
	// parseJSON's and parseValue's way to a vLLM run, each step asked as they ask it: these
	// read only presence, strings and nested objects, which the shallow decode keeps.
	if obj == nil || aiperfRollup(obj) != "" || inferencePerfSummary(f.Name, obj) != "" || isAIPerfRecord(obj) ||
		identify(obj).tool != "vllm" || !vllmParses(obj) {
		return format.Parsed{}, false
	}
	run := &model.Run{Tool: vllmTool(vllmEraOf(obj)), Model: jsonx.Str(obj["model_id"]), Label: jsonx.Str(obj["label"])}
	return format.Parsed{Runs: []*model.Run{run}}, true
}

// vllmParses reports whether parseVLLM reads obj, decoded shallow, without an error: the
// checks of readStats and vllmRequests, on the arrays' shapes rather than their values.
func vllmParses(obj map[string]any) bool {
	for k, v := range obj {
		if _, _, ok := statKey(k); ok && v != nil {
			if _, ok := jsonx.Float(v); !ok {
				return false
			}
		}
	}
	n := -1
	for _, k := range []string{"input_lens", "output_lens", "ttfts", "start_times", "latencies"} {
		v, ok := obj[k]
		if !ok || v == nil {
			continue
		}
		l, ok := numbers(v)
		if !ok || n >= 0 && l != n {
			return false
		}
		n = l
	}
	if v, ok := obj["itls"]; ok && v != nil {
		l := 0
		switch x := v.(type) {
		case jsonx.Shape:
			if x.Depth != 2 {
				return false // a flat array of numbers: "an array of arrays"
			}
			l = x.Len
		case []any: // empty, or of other elements: each must be numbers or null
			for _, e := range x {
				if _, ok := jsonx.Floats(e); e != nil && !ok {
					return false
				}
			}
			l = len(x)
		default:
			return false
		}
		if n >= 0 && l != n {
			return false
		}
		n = max(n, l)
	}
	if v, ok := obj["errors"]; ok && v != nil {
		s, ok := jsonx.Strings(v)
		if !ok || n >= 0 && s != nil && len(s) != n {
			return false
		}
	}
	return true
}

// numbers is the length of a per-request array of numbers as vllmRequests reads it.
func numbers(v any) (int, bool) {
	if s, ok := v.(jsonx.Shape); ok {
		return s.Len, s.Depth == 1
	}
	f, ok := jsonx.Floats(v)
	return len(f), ok
}
