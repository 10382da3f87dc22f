package result

import (
	"fmt"
	"math"
	"path"
	"regexp"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/model"
)

// nvMetricNames maps genai-perf and AIPerf metric names to benchlens's; other time metrics
// (time_to_second_token, inter_chunk_latency, http_req_*) keep their own names.
var nvMetricNames = map[string]string{
	"time_to_first_token": model.TTFT,
	"inter_token_latency": model.ITL,
	"request_latency":     model.E2EL,
}

var nvPercentile = regexp.MustCompile(`^p\d+(?:\.\d+)?$`)

// msPer returns how many milliseconds one unit is, for time units.
func msPer(unit string) (float64, bool) {
	switch strings.ToLower(strings.TrimSpace(unit)) {
	case "ms", "msec", "millisecond", "milliseconds":
		return 1, true
	case "s", "sec", "secs", "second", "seconds":
		return 1000, true
	case "us", "µs", "usec", "microsecond", "microseconds":
		return 1e-3, true
	case "ns", "nsec", "nanosecond", "nanoseconds":
		return 1e-6, true
	}
	return 0, false
}

// isTimeMetricName says whether genai-perf measured a metric in time, from its name alone:
// its unit labels are unreliable (formats/results.md 3.2).
func isTimeMetricName(k string) bool {
	return strings.HasSuffix(k, "_latency") || strings.HasPrefix(k, "time_to_")
}

// readNVMetrics reads the {unit, avg, p1…p99, min, max, std} objects of a genai-perf or AIPerf
// summary into run and returns the keys it consumed. AIPerf's units are taken as written;
// genai-perf's time metrics are known by name and are in ms unless a time unit says otherwise.
func readNVMetrics(run *model.Run, obj map[string]any, aiperf bool) (map[string]bool, error) {
	known := map[string]bool{}
	counts := map[string]any{}
	mislabelled := false
	for k, v := range obj {
		m, ok := v.(map[string]any)
		if !ok || (!has(m, "avg") && !has(m, "unit")) {
			continue
		}
		unit := jsonx.Str(m["unit"])
		f := fields{obj: m, prefix: k + "."}
		if !aiperf && unit == "requests/sec" && k != "request_throughput" && k != "request_goodput" {
			mislabelled = true
		}
		switch k {
		case "request_throughput":
			run.RequestThroughput = f.num("avg")
		case "output_token_throughput":
			run.OutputThroughput = f.num("avg")
		case "total_token_throughput":
			run.TotalTokenThroughput = f.num("avg")
		case "request_goodput", "goodput":
			run.Goodput = f.num("avg")
		case "request_count":
			run.Completed = f.num("avg")
		case "error_request_count":
			run.Failed = f.num("avg")
		case "total_isl": // AIPerf's totals: the request shape of a summary-only run (METHOD.md rule 12)
			run.TotalInputTokens = f.num("avg")
		case "total_osl", "total_output_tokens":
			if !run.TotalOutputTokens.Known() {
				run.TotalOutputTokens = f.num("avg")
			}
		case "benchmark_duration":
			run.DurationS = f.num("avg")
			if ms, ok := msPer(unit); ok {
				run.DurationS *= model.Num(ms / 1000)
			}
		default:
			factor, isTime := msPer(unit)
			if !aiperf {
				if !isTime {
					factor = 1 // genai-perf writes its time metrics in ms
				}
				isTime = isTimeMetricName(k)
			}
			if !isTime || strings.HasSuffix(k, "_timestamp") {
				// token counts, per-user throughput, bytes, and AIPerf's min_request_timestamp /
				// max_response_timestamp (epoch ns: points in time, not durations): kept whole in Extra
				continue
			}
			if err := readNVStats(run, k, m, factor); err != nil {
				return nil, err
			}
			if c, ok := m["count"]; ok {
				counts[k] = c
			}
		}
		if f.err != nil {
			return nil, f.err
		}
		known[k] = true
	}
	if len(counts) > 0 {
		setExtra(run, "sample_counts", counts)
	}
	if mislabelled {
		run.Warnings = append(run.Warnings, model.Warn(model.WarnUnitsFromNames))
	}
	return known, nil
}

// readNVStats copies one metric object's statistics into the summary, in ms.
func readNVStats(run *model.Run, key string, m map[string]any, factor float64) error {
	metric := key
	if n, ok := nvMetricNames[key]; ok {
		metric = n
	}
	for stat, v := range m {
		name := stat
		switch {
		case stat == "avg":
			name = "mean"
		case stat == "std" || stat == "min" || stat == "max" || nvPercentile.MatchString(stat):
		default:
			continue // unit, count, sum
		}
		if v == nil {
			continue
		}
		x, ok := jsonx.Float(v)
		if !ok {
			return shapeError(key+"."+stat, "a number", v)
		}
		run.SetStat(metric, name, x*factor)
		if stat == "p50" {
			run.SetStat(metric, "median", x*factor)
		}
	}
	return nil
}

// dig follows object keys (model.Dig); nil when a step is missing or not an object.
func dig(v any, keys ...string) any { return model.Dig(v, keys...) }

// strOrFirst returns a string, or the first string of an array ("model": ["llama"]).
func strOrFirst(v any) string {
	if arr, ok := v.([]any); ok && len(arr) > 0 {
		v = arr[0]
	}
	return jsonx.Str(v)
}

// nvInputConfig takes the model, tokenizer, endpoint and load from input_config: flat in older
// genai-perf, nested sections in newer genai-perf and AIPerf.
func nvInputConfig(run *model.Run, obj map[string]any) error {
	v, ok := obj["input_config"]
	if !ok || v == nil {
		return nil
	}
	ic, ok := v.(map[string]any)
	if !ok {
		return shapeError("input_config", "an object", v)
	}
	for _, m := range []any{ic["model"], ic["model_names"], dig(ic, "endpoint", "model_names"),
		dig(ic, "models", "items"), ic["models"]} {
		if run.Model != "" {
			break
		}
		if arr, ok := m.([]any); ok && len(arr) > 0 {
			if item := jsonx.Object(arr[0]); item != nil {
				run.Model = jsonx.Str(item["name"])
				continue
			}
		}
		run.Model = strOrFirst(m)
	}
	run.Tokenizer = strOrFirst(ic["tokenizer"])
	if run.Tokenizer == "" {
		run.Tokenizer = jsonx.Str(dig(ic, "tokenizer", "name"))
	}
	run.Backend = firstString(ic, "endpoint_type", "service_kind")
	if run.Backend == "" {
		run.Backend = jsonx.Str(dig(ic, "endpoint", "type"))
	}

	nvWarmup(run, ic)
	load := []any{ic, dig(ic, "perf_analyzer", "stimulus"), ic["loadgen"]}
	if phases, ok := ic["phases"].([]any); ok {
		for _, p := range phases {
			if ph := jsonx.Object(p); ph != nil && ph["exclude_from_results"] != true && ph["name"] != "warmup" {
				load = append(load, ph)
			}
		}
	}
	for _, l := range load {
		m := jsonx.Object(l)
		if m == nil {
			continue
		}
		if c, ok := jsonx.Float(m["concurrency"]); ok && !run.MaxConcurrency.Known() {
			run.MaxConcurrency = model.Num(c)
		}
		if r, ok := jsonx.Float(m["request_rate"]); ok && !run.RequestRate.Known() {
			run.RequestRate = model.Num(r)
		}
	}
	return nil
}

// nvWarmup records the warm-up requests genai-perf (--warmup-request-count, flat
// input_config) or AIPerf (loadgen.warmup_request_count, or a warmup phase) sent before
// profiling: neither tool keeps them in its exports or statistics.
func nvWarmup(run *model.Run, ic map[string]any) {
	for _, p := range [][]string{{"warmup_request_count"}, {"loadgen", "warmup_request_count"}, {"perf_analyzer", "warmup_request_count"}} {
		if n, ok := jsonx.Float(dig(ic, p...)); ok && n > 0 {
			run.ToolWarmup = &model.Warmup{Requests: int(n), Setting: "input_config." + strings.Join(p, ".")}
			return
		}
	}
	phases, _ := ic["phases"].([]any)
	for i, p := range phases {
		ph := jsonx.Object(p)
		if ph == nil || (ph["name"] != "warmup" && ph["exclude_from_results"] != true) {
			continue
		}
		for _, k := range []string{"request_count", "requests", "count"} {
			if n, ok := jsonx.Float(ph[k]); ok && n > 0 {
				run.ToolWarmup = &model.Warmup{Requests: int(n), Setting: fmt.Sprintf("input_config.phases[%d].%s", i, k)}
				return
			}
		}
	}
}

// parseGenAIPerfSummary reads genai-perf's profile_export_genai_perf.json (formats/results.md 3.2).
func parseGenAIPerfSummary(obj map[string]any) (*model.Run, error) {
	run := model.NewRun("genai-perf")
	known, err := readNVMetrics(run, obj, false)
	if err != nil {
		return nil, err
	}
	if err := nvInputConfig(run, obj); err != nil {
		return nil, err
	}
	run.Era = eraGenAIPerfNested
	if ic := jsonx.Object(obj["input_config"]); ic == nil || has(ic, "model") {
		run.Era = eraGenAIPerfFlat
	}
	run.ToolVersion = jsonx.Str(obj["version"])
	known["version"] = true
	run.Definitions = genaiPerfDefinitions()
	keepRest(run, obj, known)
	return run, nil
}

func genaiPerfDefinitions() map[string]string {
	return map[string]string{
		model.TTFT: "per request, from request send to the first response chunk with content",
		model.ITL: "per request: (request_latency - ttft) / (output tokens - 1), output retokenized " +
			"by genai-perf; statistics over requests (what vLLM calls TPOT)",
		model.E2EL: "per request, from request send to the last response chunk with content",
	}
}

// parseAIPerf reads NVIDIA AIPerf's profile_export_aiperf.json (formats/results.md 3.5).
func parseAIPerf(obj map[string]any) (*model.Run, error) {
	run := model.NewRun("aiperf")
	run.ToolVersion = jsonx.Str(obj["aiperf_version"])
	run.Era = era("schema " + jsonx.Str(obj["schema_version"]))
	metrics, nested := obj, false
	if recs := jsonx.Object(obj["records"]); recs != nil && !has(obj, "schema_version") {
		metrics, nested = recs, true // early AIPerf: JsonExportData.records
		run.Era = eraAIPerfRecords
	} else if !has(obj, "schema_version") {
		run.Era = eraAIPerfUnversioned
	}
	known, err := readNVMetrics(run, metrics, true)
	if err != nil {
		return nil, err
	}
	if nested {
		rest := map[string]any{}
		for k, v := range metrics {
			if !known[k] {
				rest[k] = v
			}
		}
		if len(rest) > 0 {
			setExtra(run, "records", rest)
		}
		known = map[string]bool{"records": true}
	}
	if err := nvInputConfig(run, obj); err != nil {
		return nil, err
	}
	run.Date = parseDate(jsonx.Str(obj["start_time"]))
	known["aiperf_version"], known["schema_version"] = true, true

	if v, ok := obj["error_summary"]; ok && v != nil && !run.Failed.Known() {
		list, ok := v.([]any)
		if !ok {
			return nil, shapeError("error_summary", "an array", v)
		}
		failed := 0.0
		for i, e := range list {
			c, ok := jsonx.Float(jsonx.Object(e)["count"])
			if !ok {
				return nil, shapeError(fmt.Sprintf("error_summary[%d].count", i), "a number", dig(e, "count"))
			}
			failed += c
		}
		run.Failed = model.Num(failed)
	}
	if run.Completed.Known() && run.Failed.Known() {
		run.NumPrompts = run.Completed + run.Failed
	}
	run.Definitions = map[string]string{
		model.TTFT: "per request, from request send to the first token (reasoning tokens " +
			"included; time_to_first_output_token excludes them)",
		model.ITL: "per request: (request_latency - ttft) / (output_sequence_length - 1); " +
			"statistics over requests (what vLLM calls TPOT); the pooled gaps are inter_chunk_latency",
		"inter_chunk_latency": "pooled over every gap between streamed chunks (what vLLM calls ITL)",
		model.E2EL:            "per request, from request send to the last response",
	}
	keepExtra(run, obj, known)
	return run, nil
}

// parseGenAIPerfRaw reads perf_analyzer's profile_export.json (formats/results.md 3.1):
// nanosecond timestamps per request and per streamed chunk.
func parseGenAIPerfRaw(name string, obj map[string]any) (*format.Part, error) {
	exps, ok := obj["experiments"].([]any)
	if !ok {
		return nil, shapeError("experiments", "an array", obj["experiments"])
	}
	part := &format.Part{Tool: "genai-perf", Stem: artifactDir(name), Extra: map[string]any{
		"request_output_len": "count of streamed chunks with content, not tokens " +
			"(genai-perf retokenizes the text)",
	}}
	var seen []any
	for i, e := range exps {
		exp, ok := e.(map[string]any)
		if !ok {
			return nil, shapeError(fmt.Sprintf("experiments[%d]", i), "an object", e)
		}
		reqs, ok := exp["requests"].([]any)
		if !ok && exp["requests"] != nil {
			return nil, shapeError(fmt.Sprintf("experiments[%d].requests", i), "an array", exp["requests"])
		}
		for j, rv := range reqs {
			r, err := genaiPerfRequest(rv)
			if err != nil {
				return nil, fmt.Errorf("experiments[%d].requests[%d]: %w", i, j, err)
			}
			part.Requests = append(part.Requests, r)
		}
		seen = append(seen, map[string]any{"experiment": jsonx.Plain(exp["experiment"]), "requests": len(reqs)})
	}
	if len(exps) > 1 {
		part.Extra["experiments"] = seen
		part.Extra["experiments_note"] = fmt.Sprintf("requests of %d experiments concatenated", len(exps))
	}
	for _, k := range []string{"service_kind", "endpoint", "version"} {
		if s := jsonx.Str(obj[k]); s != "" {
			part.Extra["genai_perf_"+k] = s
		}
	}
	return part, nil
}

// artifactDir is the name of the folder holding name: genai-perf's artifact directory,
// {model}-{service_kind}-{backend}-{concurrencyN|request_rateR}.
func artifactDir(name string) string {
	dir := path.Dir(strings.ReplaceAll(name, `\`, "/"))
	if dir == "." || dir == "/" {
		return ""
	}
	return path.Base(dir)
}

// genaiPerfRequest turns one perf_analyzer request into seconds. Like genai-perf, chunks with
// no content (the role-only first chunk, empty deltas, data: [DONE]) are dropped with their
// timestamps before TTFT, latency and gaps are taken, when the outputs are recorded.
func genaiPerfRequest(v any) (model.Request, error) {
	r := model.Request{InputLen: -1, OutputLen: -1, TTFT: math.NaN(), TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN()}
	rec, ok := v.(map[string]any)
	if !ok {
		return r, errf("expected an object, found %s", describe(v))
	}
	sent, ok := jsonx.Int(rec["timestamp"])
	if !ok {
		return r, shapeError("timestamp", "an integer (ns)", rec["timestamp"])
	}
	r.Start = float64(sent) / 1e9
	stamps, ok := nanos(rec["response_timestamps"])
	if !ok {
		return r, shapeError("response_timestamps", "an array of integers (ns)", rec["response_timestamps"])
	}
	if outs, ok := rec["response_outputs"].([]any); ok && len(outs) == len(stamps) {
		var kept []int64
		for i, o := range outs {
			if chunkHasContent(o) {
				kept = append(kept, stamps[i])
			}
		}
		stamps = kept
		r.OutputLen = len(kept)
	}
	if len(stamps) == 0 {
		r.Error = "no response with content"
		return r, nil
	}
	r.TTFT = float64(stamps[0]-sent) / 1e9
	r.Latency = float64(stamps[len(stamps)-1]-sent) / 1e9
	r.ITL = make([]float64, 0, len(stamps)-1)
	for i := 1; i < len(stamps); i++ {
		r.ITL = append(r.ITL, float64(stamps[i]-stamps[i-1])/1e9)
	}
	return r, nil
}

// nanos reads integer nanosecond timestamps without a float64 round trip, which would lose
// precision at epoch scale.
func nanos(v any) ([]int64, bool) {
	switch x := v.(type) {
	case []int64:
		return x, true
	case []float64:
		if len(x) == 0 {
			return nil, true
		}
	case []any:
		out := make([]int64, len(x))
		for i, e := range x {
			n, ok := jsonx.Int(e)
			if !ok {
				return nil, false
			}
			out[i] = n
		}
		return out, true
	}
	return nil, false
}

// chunkHasContent says whether one recorded response carries generated text: a Triton
// {"text_output": …} or OpenAI SSE text "data: {…}\n\n" (possibly several events at once).
func chunkHasContent(o any) bool {
	m := jsonx.Object(o)
	if m == nil {
		return false
	}
	if t, ok := m["text_output"]; ok {
		return jsonx.Str(t) != ""
	}
	resp := jsonx.Str(m["response"])
	for _, line := range strings.Split(resp, "\n") {
		data := strings.TrimSpace(line)
		if !strings.HasPrefix(data, "data:") && !strings.HasPrefix(data, "{") {
			continue // blank separators, "event:" or ": comment" lines
		}
		data = strings.TrimSpace(strings.TrimPrefix(data, "data:"))
		if data == "" || data == "[DONE]" {
			continue
		}
		ev, err := jsonx.NewDecoder([]byte(data)).Decode()
		if err != nil {
			return true // not JSON, but text the server sent
		}
		var choice map[string]any
		if arr, _ := dig(ev, "choices").([]any); len(arr) > 0 {
			choice = jsonx.Object(arr[0])
		}
		for _, text := range []any{dig(choice, "delta", "content"), choice["text"], dig(choice, "message", "content")} {
			if jsonx.Str(text) != "" {
				return true
			}
		}
	}
	return false
}
