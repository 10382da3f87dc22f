package result

import (
	"math"
	"strings"
	"time"

	"benchlens/importers/jsonx"
	"benchlens/model"
)

// statKey splits a summary statistic's key of vLLM and SGLang, {stat}_{metric}_ms: stat is
// mean, median, std, min, max or p<digits>[.<digits>], metric one of statMetrics. It is
// `^(mean|median|std|min|max|p\d+(?:\.\d+)?)_(ttft|…)_ms$` by hand: the regular expression
// was a tenth of a small result's parse, and every result is parsed twice when planned.
func statKey(k string) (stat, metric string, ok bool) {
	stat, rest, found := strings.Cut(k, "_") // no stat holds an underscore
	if !found {
		return "", "", false
	}
	metric, found = strings.CutSuffix(rest, "_ms")
	if !found || !statMetrics[metric] || !statName(stat) {
		return "", "", false
	}
	return stat, metric, true
}

// statMetrics are the metrics of statKey.
var statMetrics = map[string]bool{"ttft": true, "tpot": true, "itl": true, "e2el": true, "e2e_latency": true,
	"latency": true, "client_queue_time": true, "e2el_including_client_queue": true}

// statName reports mean, median, std, min, max, or p and digits with at most one point
// between digits (p99, p99.9).
func statName(s string) bool {
	switch s {
	case "mean", "median", "std", "min", "max":
		return true
	}
	if len(s) < 2 || s[0] != 'p' {
		return false
	}
	whole, frac, point := strings.Cut(s[1:], ".")
	return digits(whole) && (!point || digits(frac))
}

// digits reports a non-empty run of ASCII digits.
func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// metricName normalises the metric part of a statistics key.
func metricName(m string) string {
	switch m {
	case "e2e_latency", "latency": // SGLang; the LambdaLabs fork of vLLM
		return model.E2EL
	}
	return m
}

// vllmKnown are the keys parseVLLM consumes; every other key is metadata (strings) or extra.
var vllmKnown = map[string]bool{
	"date": true, "endpoint_type": true, "backend": true, "label": true, "model_id": true,
	"tokenizer_id": true, "num_prompts": true, "request_rate": true, "burstiness": true,
	"max_concurrency": true, "duration": true, "completed": true, "failed": true,
	"total_input_tokens": true, "total_output_tokens": true, "total_input": true, "total_output": true,
	"request_throughput": true, "request_inthroughput": true, "request_goodput": true,
	"request_goodput:": true, "input_throughput": true, "output_throughput": true,
	"total_token_throughput": true, "input_lens": true, "output_lens": true, "ttfts": true,
	"itls": true, "errors": true, "start_times": true, "latencies": true, "generated_texts": true,
	"version": true, "mode": true,
}

// parseVLLM reads one vLLM result object of any era: benchmark_serving.py, `vllm bench
// serve`, sweep run files and the Rust vllm-bench client.
func parseVLLM(obj map[string]any) (*model.Run, error) {
	era := vllmEraOf(obj)
	run := model.NewRun(vllmTool(era))
	run.Era = era
	run.Date = parseDate(jsonx.Str(obj["date"]))
	run.Backend = firstString(obj, "endpoint_type", "backend")
	if b := jsonx.Str(obj["backend"]); b != "" {
		run.Backend = b
	}
	run.Model = jsonx.Str(obj["model_id"])
	run.Tokenizer = jsonx.Str(obj["tokenizer_id"])
	run.ToolVersion = jsonx.Str(obj["version"])
	if l := jsonx.Str(obj["label"]); l != "" {
		run.Label = l
	}

	run.NumPrompts = num(obj, "num_prompts")
	run.RequestRate = num(obj, "request_rate")
	run.Burstiness = num(obj, "burstiness")
	run.MaxConcurrency = num(obj, "max_concurrency")
	run.DurationS = num(obj, "duration")
	run.Completed = num(obj, "completed")
	run.Failed = num(obj, "failed")
	run.TotalInputTokens = num(obj, "total_input_tokens", "total_input")
	run.TotalOutputTokens = num(obj, "total_output_tokens", "total_output")
	run.RequestThroughput = num(obj, "request_throughput", "request_inthroughput")
	run.Goodput = num(obj, "request_goodput", "request_goodput:")
	run.InputThroughput = num(obj, "input_throughput")
	run.OutputThroughput = num(obj, "output_throughput")
	run.TotalTokenThroughput = num(obj, "total_token_throughput")

	if err := readStats(run, obj); err != nil {
		return nil, err
	}
	reqs, err := vllmRequests(obj)
	if err != nil {
		return nil, err
	}
	run.Requests = reqs
	if n := num(obj, "num_warmups"); n.Known() && n > 0 {
		run.ToolWarmup = &model.Warmup{Requests: int(n), Setting: "num_warmups (--num-warmups): sent before the benchmark, not in its statistics"}
	}
	if !run.Failed.Known() && run.NumPrompts.Known() && run.Completed.Known() {
		run.Failed = run.NumPrompts - run.Completed
	}
	if !run.Completed.Known() && reqs != nil {
		completed := 0
		for i := range reqs {
			if reqs[i].OK() {
				completed++
			}
		}
		run.Completed = model.Num(completed)
		run.Failed = model.Num(len(reqs) - completed)
	}
	run.Definitions = map[string]string{
		model.TTFT: "per successful request, from request start to first streamed token",
		model.TPOT: "per request: (latency - ttft) / (output_len - 1), requests with output_len > 1",
		model.ITL:  "pooled over every gap between streamed chunks of successful requests",
	}
	keepRest(run, obj, vllmKnown)
	if era == eraA || era == eraB {
		run.Definitions[model.TPOT] = "per request: latency / output_len (early versions)"
	}
	return run, nil
}

// vllmTool names the client of an era: the Rust vllm-bench, or vLLM's own.
func vllmTool(era vllmEra) string {
	if era == eraRustBench {
		return "vllm-bench"
	}
	return "vllm"
}

// vllmEra is a generation of vLLM's result format; the eras are model's, so the analysis
// can tell them apart too.
type vllmEra = model.Era

// The eras, newest first.
const (
	eraRustBench = model.EraVLLMRustBench
	eraG         = model.EraVLLMG
	eraE065      = model.EraVLLME065
	eraF         = model.EraVLLMF
	eraE064      = model.EraVLLME064
	eraD         = model.EraVLLMD
	eraB         = model.EraVLLMB
	eraA         = model.EraVLLMA
	eraC         = model.EraVLLMC
	eraUnknown   = model.EraVLLMUnknown
)

// vllmEraOf places a result in the eras by the keys it has.
func vllmEraOf(obj map[string]any) vllmEra {
	has := func(k string) bool { _, ok := obj[k]; return ok }
	date := jsonx.Str(obj["date"])
	switch {
	case has("mode") || strings.Contains(date, "T"):
		return eraRustBench
	case has("endpoint_type") || has("label") || has("failed") || has("request_goodput"):
		return eraG
	case has("request_goodput:") && has("best_of"):
		return eraE065
	case has("request_goodput:"):
		return eraF
	case has("burstiness") || has("max_concurrency"):
		return eraE064
	case has("total_token_throughput"):
		return eraD
	case has("request_inthroughput"):
		return eraB
	case has("total_input") || has("total_output"):
		return eraA
	case has("input_throughput") || has("std_ttft_ms"):
		return eraC
	}
	return eraUnknown
}

// readStats copies every {stat}_{metric}_ms key into the run's summary.
func readStats(run *model.Run, obj map[string]any) error {
	for k, v := range obj {
		stat, name, ok := statKey(k)
		if !ok {
			continue
		}
		if v == nil {
			continue
		}
		f, ok := jsonx.Float(v)
		if !ok {
			return shapeError(k, "a number", v)
		}
		metric := metricName(name)
		if name == "latency" {
			if _, own := obj[stat+"_e2el_ms"]; own {
				metric = "latency"
			}
		}
		run.SetStat(metric, stat, f)
	}
	return nil
}

// vllmRequests reads the per-request arrays, when the file has them.
func vllmRequests(obj map[string]any) ([]model.Request, error) {
	arrays := map[string][]float64{}
	keys := []string{"input_lens", "output_lens", "ttfts", "start_times", "latencies"}
	for _, k := range keys {
		v, ok := obj[k]
		if !ok || v == nil {
			continue
		}
		f, ok := jsonx.Floats(v)
		if !ok {
			return nil, shapeError(k, "an array of numbers", v)
		}
		arrays[k] = f
	}
	n := -1
	for _, k := range keys {
		a, ok := arrays[k]
		if !ok {
			continue
		}
		if n >= 0 && len(a) != n {
			return nil, errf("key %q has %d elements, other per-request arrays have %d", k, len(a), n)
		}
		n = len(a)
	}
	var itls []any
	if v, ok := obj["itls"]; ok && v != nil {
		switch x := v.(type) {
		case []any:
			itls = x
		case []float64, []int64:
			if f, _ := jsonx.Floats(x); len(f) > 0 {
				return nil, shapeError("itls", "an array of arrays", v)
			}
		default:
			return nil, shapeError("itls", "an array of arrays", v)
		}
		if n >= 0 && len(itls) != n {
			return nil, errf("key \"itls\" has %d elements, other per-request arrays have %d", len(itls), n)
		}
		n = max(n, len(itls))
	}
	var errs []string
	if v, ok := obj["errors"]; ok && v != nil {
		s, ok := jsonx.Strings(v)
		if !ok {
			return nil, shapeError("errors", "an array of strings", v)
		}
		errs = s
	}
	if n < 0 {
		return nil, nil
	}
	if errs != nil && len(errs) != n {
		return nil, errf("key \"errors\" has %d elements, other per-request arrays have %d", len(errs), n)
	}
	reqs := make([]model.Request, n)
	at := func(k string, i int) float64 {
		if a := arrays[k]; a != nil {
			return a[i]
		}
		return math.NaN()
	}
	for i := range reqs {
		r := &reqs[i]
		r.InputLen, r.OutputLen = intOr(at("input_lens", i)), intOr(at("output_lens", i))
		r.TTFT, r.Start, r.Latency, r.TPOT = at("ttfts", i), at("start_times", i), at("latencies", i), math.NaN()
		if itls != nil {
			if itls[i] != nil {
				gaps, ok := jsonx.Floats(itls[i])
				if !ok {
					return nil, shapeError("itls", "an array of arrays of numbers", itls[i])
				}
				r.ITL = gaps
			}
		}
		if errs != nil {
			r.Error = errs[i]
		}
	}
	return reqs, nil
}

func intOr(f float64) int {
	if math.IsNaN(f) {
		return -1
	}
	return int(f)
}

// num reads the first key present as a number; unknown when absent, null or not numeric.
func num(obj map[string]any, keys ...string) model.Num {
	for _, k := range keys {
		if v, ok := obj[k]; ok && v != nil {
			if f, ok := jsonx.Float(v); ok {
				return model.Num(f)
			}
		}
	}
	return model.Unknown
}

func firstString(obj map[string]any, keys ...string) string {
	for _, k := range keys {
		if s := jsonx.Str(obj[k]); s != "" {
			return s
		}
	}
	return ""
}

// keepRest stores what the run did not consume: strings as metadata (vLLM's --metadata
// pairs are top-level strings), everything else as extra JSON.
func keepRest(run *model.Run, obj map[string]any, known map[string]bool) {
	for k, v := range obj {
		if _, _, stat := statKey(k); known[k] || stat {
			continue
		}
		if s, ok := v.(string); ok {
			if run.Metadata == nil {
				run.Metadata = map[string]string{}
			}
			run.Metadata[k] = s
			continue
		}
		if run.Extra == nil {
			run.Extra = map[string]any{}
		}
		run.Extra[k] = jsonx.Plain(v)
	}
}

// parseDate turns the tools' dates into ISO 8601: vLLM's local "20250325-223157" (no zone
// is given, so none is invented) and ISO strings as they are.
func parseDate(s string) string {
	if s == "" {
		return ""
	}
	if t, err := time.Parse("20060102-150405", s); err == nil {
		return t.Format("2006-01-02T15:04:05")
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			if strings.HasSuffix(layout, "Z07:00") {
				return t.Format(time.RFC3339Nano)
			}
			return t.Format("2006-01-02T15:04:05.999999999")
		}
	}
	return s
}
