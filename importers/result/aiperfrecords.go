package result

import (
	"math"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/model"
)

// isAIPerfRecord tells one line of AIPerf's per-request profile_export.jsonl: an object with
// "metadata" and "metrics" whose values are {value, unit} objects.
func isAIPerfRecord(obj map[string]any) bool {
	md, metrics := jsonx.Object(obj["metadata"]), obj["metrics"]
	if md == nil {
		return false
	}
	if metrics == nil {
		_, ok := obj["error"]
		return ok && (md["request_start_ns"] != nil || md["session_num"] != nil)
	}
	m := jsonx.Object(metrics)
	if m == nil {
		return false
	}
	for _, v := range m {
		if mv := jsonx.Object(v); mv != nil {
			_, hasValue := mv["value"]
			return hasValue
		}
	}
	return md["request_start_ns"] != nil
}

// parseAIPerfRecord reads one per-request record: TTFT, latency and AIPerf's per-request
// inter_token_latency (vLLM's TPOT), the inter-chunk gaps (vLLM's pooled ITL), lengths,
// the start time and the error.
func parseAIPerfRecord(name string, obj map[string]any) (*format.Part, error) {
	r := model.Request{InputLen: -1, OutputLen: -1, TTFT: math.NaN(), TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN()}
	md := jsonx.Object(obj["metadata"])
	if ns, ok := jsonx.Float(md["request_start_ns"]); ok {
		r.Start = ns / 1e9
	}
	metrics := jsonx.Object(obj["metrics"])
	seconds := func(key string) (float64, []float64, error) {
		mv := jsonx.Object(metrics[key])
		if mv == nil {
			return math.NaN(), nil, nil
		}
		ms, isTime := msPer(jsonx.Str(mv["unit"]))
		if !isTime {
			ms = 1 // AIPerf writes its latencies in ms when the unit is missing
		}
		if v, ok := jsonx.Float(mv["value"]); ok {
			return v * ms / 1e3, nil, nil
		}
		if vs, ok := jsonx.Floats(mv["value"]); ok {
			for i := range vs {
				vs[i] *= ms / 1e3
			}
			return math.NaN(), vs, nil
		}
		return math.NaN(), nil, shapeError("metrics."+key+".value", "a number or an array of numbers", mv["value"])
	}
	count := func(keys ...string) int {
		for _, k := range keys {
			if mv := jsonx.Object(metrics[k]); mv != nil {
				if n, ok := jsonx.Int(mv["value"]); ok {
					return int(n)
				}
			}
		}
		return -1
	}
	var err error
	if r.TTFT, _, err = seconds("time_to_first_token"); err != nil {
		return nil, err
	}
	if r.Latency, _, err = seconds("request_latency"); err != nil {
		return nil, err
	}
	if r.TPOT, _, err = seconds("inter_token_latency"); err != nil {
		return nil, err
	}
	if _, r.ITL, err = seconds("inter_chunk_latency"); err != nil {
		return nil, err
	}
	r.InputLen = count("input_sequence_length", "error_isl")
	r.OutputLen = count("output_sequence_length", "output_token_count")
	if e := jsonx.Object(obj["error"]); e != nil {
		parts := []string{}
		for _, k := range []string{"type", "message"} {
			if s := jsonx.Str(e[k]); s != "" {
				parts = append(parts, s)
			}
		}
		if c, ok := jsonx.Int(e["code"]); ok {
			parts = append(parts, "code "+strconv.FormatInt(c, 10))
		}
		r.Error = strings.Join(parts, ": ")
		if r.Error == "" {
			r.Error = "error"
		}
	} else if md["was_cancelled"] == true {
		r.Error = "cancelled"
	}
	part := &format.Part{Tool: "aiperf", Stem: partDir(name), Requests: []model.Request{r},
		Extra: map[string]any{"per_request_source": "AIPerf profile_export.jsonl: TPOT is AIPerf's per-request inter_token_latency, ITL its inter_chunk_latency gaps"}}
	if md["benchmark_phase"] == "warmup" {
		part.Requests, part.Warmup = nil, 1
	}
	return part, nil
}

// partDir names a part by its folder, where AIPerf keeps one run's exports.
func partDir(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		return name[:i]
	}
	return ""
}
