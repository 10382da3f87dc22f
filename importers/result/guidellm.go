package result

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"benchlens/importers/jsonx"
	"benchlens/model"
)

// guidellmStats and guidellmPercentiles name GuideLLM's distribution statistics.
var (
	guidellmStats       = map[string]string{"mean": "mean", "median": "median", "std_dev": "std", "min": "min", "max": "max"}
	guidellmPercentiles = map[string]string{
		"p001": "p0.1", "p01": "p1", "p05": "p5", "p10": "p10", "p25": "p25", "p50": "p50",
		"p75": "p75", "p90": "p90", "p95": "p95", "p99": "p99", "p999": "p99.9",
	}
)

// guidellmLatencies are the time distributions read into the summary, with the factor to ms.
var guidellmLatencies = []struct {
	key, metric string
	toMS        float64
}{
	{"time_to_first_token_ms", model.TTFT, 1},
	{"time_per_output_token_ms", model.TPOT, 1},
	{"inter_token_latency_ms", model.ITL, 1},
	{"request_latency", model.E2EL, 1000}, // seconds
}

// parseGuideLLM reads guidellm's benchmarks.json (formats/results.md 5, v0.3 to v0.5): one
// run per element of benchmarks[].
func parseGuideLLM(obj map[string]any) ([]*model.Run, error) {
	list, ok := obj["benchmarks"].([]any)
	if !ok {
		return nil, shapeError("benchmarks", "an array", obj["benchmarks"])
	}
	meta, ok := obj["metadata"].(map[string]any)
	if !ok && obj["metadata"] != nil {
		return nil, shapeError("metadata", "an object", obj["metadata"])
	}
	args := jsonx.Object(obj["args"])
	version := firstString(meta, "guidellm_version", "version")
	var runs []*model.Run
	for i, b := range list {
		bench, ok := b.(map[string]any)
		if !ok {
			return nil, shapeError(fmt.Sprintf("benchmarks[%d]", i), "an object", b)
		}
		run, err := guidellmRun(bench, args, version)
		if err != nil {
			return nil, fmt.Errorf("benchmarks[%d]: %w", i, err)
		}
		if meta != nil {
			run.Era = eraGuideLLM05
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func guidellmRun(bench, args map[string]any, version string) (*model.Run, error) {
	run := model.NewRun("guidellm")
	run.ToolVersion = version
	run.Era = eraGuideLLM03
	if has(bench, "config") || has(bench, "scheduler_state") {
		run.Era = eraGuideLLM04
	}
	run.Model = firstString(args, "model")
	for _, p := range [][]string{{"worker", "backend_model"}, {"config", "model"}, {"args", "model"}} {
		if run.Model == "" {
			run.Model = jsonx.Str(dig(bench, p...))
		}
	}
	run.Backend = firstString(args, "backend", "backend_type")

	// The load: synchronous is one request at a time; concurrent keeps N streams; constant
	// and poisson send at a rate.
	strategy := jsonx.Object(dig(bench, "config", "strategy"))
	if strategy == nil {
		strategy = jsonx.Object(dig(bench, "args", "strategy"))
	}
	if strategy != nil {
		setExtra(run, "strategy", strategy)
		f := fields{obj: strategy, prefix: "strategy."}
		switch jsonx.Str(strategy["type_"]) {
		case "synchronous":
			run.MaxConcurrency = 1
		case "concurrent":
			run.MaxConcurrency = f.num("streams")
		case "throughput":
			run.MaxConcurrency = f.num("max_concurrency")
		case "constant", "poisson", "async":
			run.RequestRate = f.num("rate")
		}
		if f.err != nil {
			return nil, f.err
		}
	}

	for _, where := range []string{"", "scheduler_state", "scheduler_metrics", "run_stats"} {
		m := bench
		if where != "" {
			m = jsonx.Object(bench[where])
		}
		start, okS := jsonx.Float(m["start_time"])
		end, okE := jsonx.Float(m["end_time"])
		if okS && okE && start > 0 && end >= start && !math.IsInf(end, 0) {
			run.DurationS = model.Num(end - start)
			sec, frac := math.Modf(start)
			run.Date = time.Unix(int64(sec), int64(frac*1e9)).UTC().Format(time.RFC3339)
			break
		}
	}

	metrics, ok := bench["metrics"].(map[string]any)
	if !ok {
		return nil, shapeError("metrics", "an object", bench["metrics"])
	}
	totals, prefix := jsonx.Object(metrics["request_totals"]), "metrics.request_totals."
	if totals == nil {
		totals, prefix = jsonx.Object(bench["request_totals"]), "request_totals."
	}
	if totals != nil {
		f := fields{obj: totals, prefix: prefix}
		run.Completed = f.num("successful")
		run.Errored, run.Incomplete = f.num("errored"), f.num("incomplete")
		run.Failed = run.Errored + run.Incomplete
		if c := f.num("cancelled"); c.Known() {
			run.Cancelled = c
			run.Failed += c
		}
		run.NumPrompts = f.num("total")
		if f.err != nil {
			return nil, f.err
		}
	}

	consumed := map[string]bool{"request_totals": true}
	for _, l := range guidellmLatencies {
		dist, err := guidellmDist(metrics, l.key)
		if err != nil {
			return nil, err
		}
		if dist == nil {
			continue
		}
		consumed[l.key] = true
		if err := guidellmStatsInto(run, l.metric, "metrics."+l.key+".successful.", dist, l.toMS); err != nil {
			return nil, err
		}
	}
	for _, t := range []struct {
		key, stat string
		dst       *model.Num
	}{
		{"requests_per_second", "mean", &run.RequestThroughput},
		{"output_tokens_per_second", "mean", &run.OutputThroughput},
		{"tokens_per_second", "mean", &run.TotalTokenThroughput},
		{"prompt_token_count", "total_sum", &run.TotalInputTokens},
		{"output_token_count", "total_sum", &run.TotalOutputTokens},
	} {
		dist, err := guidellmDist(metrics, t.key)
		if err != nil {
			return nil, err
		}
		f := fields{obj: dist, prefix: "metrics." + t.key + ".successful."}
		*t.dst = f.num(t.stat)
		if f.err != nil {
			return nil, f.err
		}
	}
	rest := map[string]any{}
	for k, v := range metrics {
		if !consumed[k] {
			rest[k] = v
		}
	}
	if len(rest) > 0 {
		setExtra(run, "metrics", rest)
	}

	reqs, err := guidellmRequests(bench["requests"])
	if err != nil {
		return nil, err
	}
	run.Requests = guidellmMeasured(run, bench, reqs)
	guidellmSampled(run, bench, args)
	run.Definitions = map[string]string{
		model.TTFT: "per successful request, from request start to the first token",
		model.TPOT: "per request: (last token - request start) / output tokens; includes the TTFT",
		model.ITL: "per request: (last token - first token) / (output tokens - 1); statistics " +
			"over requests (what vLLM calls TPOT)",
		model.E2EL: "per successful request, from request start to the end of the response",
	}
	keepExtra(run, bench, map[string]bool{"metrics": true, "requests": true, "request_totals": true})
	return run, nil
}

// guidellmDist returns metrics[key].successful, nil when absent.
func guidellmDist(metrics map[string]any, key string) (map[string]any, error) {
	v, ok := metrics[key]
	if !ok || v == nil {
		return nil, nil
	}
	split, ok := v.(map[string]any)
	if !ok {
		return nil, shapeError("metrics."+key, "an object", v)
	}
	d, ok := split["successful"].(map[string]any)
	if !ok && split["successful"] != nil {
		return nil, shapeError("metrics."+key+".successful", "an object", split["successful"])
	}
	return d, nil
}

// guidellmStatsInto copies one distribution's statistics into the summary, in ms.
func guidellmStatsInto(run *model.Run, metric, prefix string, dist map[string]any, toMS float64) error {
	put := func(key, stat string, v any) error {
		if v == nil {
			return nil
		}
		x, ok := jsonx.Float(v)
		if !ok {
			return shapeError(prefix+key, "a number", v)
		}
		run.SetStat(metric, stat, x*toMS)
		return nil
	}
	for k, stat := range guidellmStats {
		if err := put(k, stat, dist[k]); err != nil {
			return err
		}
	}
	pv, ok := dist["percentiles"]
	if !ok || pv == nil {
		return nil
	}
	pcts, ok := pv.(map[string]any)
	if !ok {
		return shapeError(prefix+"percentiles", "an object", pv)
	}
	for k, stat := range guidellmPercentiles {
		if err := put("percentiles."+k, stat, pcts[k]); err != nil {
			return err
		}
	}
	return nil
}

// guidellmRequests reads requests {successful, errored, incomplete}: times in Request are
// seconds, so the *_ms fields are divided by 1000.
func guidellmRequests(v any) ([]guidellmReq, error) {
	if v == nil {
		return nil, nil
	}
	groups, ok := v.(map[string]any)
	if !ok {
		return nil, shapeError("requests", "an object", v)
	}
	var reqs []guidellmReq
	for _, status := range []string{"successful", "errored", "incomplete"} {
		gv := groups[status]
		if gv == nil {
			continue
		}
		list, ok := gv.([]any)
		if !ok {
			return nil, shapeError("requests."+status, "an array", gv)
		}
		for i, e := range list {
			rec, ok := e.(map[string]any)
			if !ok {
				return nil, shapeError(fmt.Sprintf("requests.%s[%d]", status, i), "an object", e)
			}
			f := fields{obj: rec, prefix: fmt.Sprintf("requests.%s[%d].", status, i)}
			r := model.Request{
				InputLen:  intOr(f.num("prompt_tokens").F()),
				OutputLen: intOr(f.num("output_tokens").F()),
				TTFT:      f.num("time_to_first_token_ms").F() / 1000,
				TPOT:      f.num("inter_token_latency_ms").F() / 1000,
				Latency:   f.num("request_latency").F(),
				Start:     math.NaN(),
			}
			if f.err != nil {
				return nil, f.err
			}
			r.Start = firstFloat(rec, []string{"info", "timings", "request_start"}, []string{"scheduler_info", "request_timings", "request_start"},
				[]string{"request_start_time"}, []string{"start_time"})
			switch status {
			case "errored":
				r.Error = firstString(rec, "error")
				if r.Error == "" {
					r.Error = "errored"
				}
			case "incomplete":
				r.Error = "incomplete"
			}
			end := firstFloat(rec, []string{"info", "timings", "request_end"}, []string{"scheduler_info", "request_timings", "request_end"},
				[]string{"request_end_time"})
			if math.IsNaN(end) && !math.IsNaN(r.Start) && !math.IsNaN(r.Latency) {
				end = r.Start + r.Latency
			}
			reqs = append(reqs, guidellmReq{r, end})
		}
	}
	return reqs, nil
}

// guidellmReq is a request record with the end time that places it in GuideLLM's phases.
type guidellmReq struct {
	model.Request
	End float64 // s, Unix; NaN when unknown
}

// guidellmMeasured drops the warm-up and cool-down records: GuideLLM ≥0.5 keeps them in
// requests.successful but compiles its statistics only over the requests that overlap its
// measurement window (scheduler_metrics.measure_start_time to measure_end_time, set by the
// warmup / cooldown settings). They become the run's declared warm-up.
func guidellmMeasured(run *model.Run, bench map[string]any, reqs []guidellmReq) []model.Request {
	if reqs == nil {
		return nil
	}
	sm := jsonx.Object(bench["scheduler_metrics"])
	from, okFrom := jsonx.Float(sm["measure_start_time"])
	to, okTo := jsonx.Float(sm["measure_end_time"])
	first, _ := jsonx.Float(sm["request_start_time"])
	last, _ := jsonx.Float(sm["request_end_time"])
	window := okFrom && okTo && from > 0 && to >= from && (from > first || to < last)
	out := make([]model.Request, 0, len(reqs))
	warm, cool := 0, 0
	for _, r := range reqs {
		switch {
		case window && r.End < from: // NaN compares false: a record without times is kept
			warm++
		case window && r.Start > to:
			cool++
		default:
			out = append(out, r.Request)
		}
	}
	if warm+cool > 0 {
		run.ToolWarmup = &model.Warmup{Requests: warm, Cooldown: cool, InFile: true,
			Setting: guidellmPhaseSetting(bench)}
		run.Warnings = append(run.Warnings, model.Warn(model.WarnOutsideWindow, warm, cool))
	}
	return out
}

// guidellmPhaseSetting describes the warmup / cooldown settings of config (0.5) or args.
func guidellmPhaseSetting(bench map[string]any) string {
	var parts []string
	for _, k := range []string{"warmup", "cooldown"} {
		for _, v := range []any{dig(bench, "config", k), dig(bench, "args", k), dig(bench, "args", k+"_percent")} {
			if v != nil {
				parts = append(parts, k+" "+compactJSON(v))
				break
			}
		}
	}
	parts = append(parts, "measurement window from scheduler_metrics.measure_start_time / measure_end_time")
	return strings.Join(parts, "; ")
}

// guidellmSampled flags records that are a sample of the successful requests GuideLLM
// summarised (--output-sampling, sample_requests).
func guidellmSampled(run *model.Run, bench, args map[string]any) {
	if run.Requests == nil || !run.Completed.Known() {
		return
	}
	ok := 0
	for i := range run.Requests {
		if run.Requests[i].OK() {
			ok++
		}
	}
	population := int(run.Completed.F())
	if ok >= population {
		return
	}
	why := "GuideLLM keeps a sample of its request records"
	for _, v := range []any{dig(bench, "config", "sample_requests"), args["sample_requests"], args["output_sampling"]} {
		if n, isNum := jsonx.Float(v); isNum {
			why = fmt.Sprintf("GuideLLM kept a sample of %v request records (--output-sampling / sample_requests)", n)
			break
		}
	}
	run.Sampled = &model.Sample{Records: ok, Population: population, Why: why}
}

// firstFloat returns the first path that holds a number, NaN when none does.
func firstFloat(obj map[string]any, paths ...[]string) float64 {
	for _, p := range paths {
		if f, ok := jsonx.Float(dig(obj, p...)); ok {
			return f
		}
	}
	return math.NaN()
}

// compactJSON prints a setting as short JSON for a description.
func compactJSON(v any) string {
	b, err := json.Marshal(jsonx.Plain(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
