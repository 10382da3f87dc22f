package result

import (
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/model"
)

// llmperfStat splits a results_* key into the measured quantity and the statistic.
var llmperfStat = regexp.MustCompile(`^results_(.+?)_(quantiles_p\d+(?:\.\d+)?|mean|stddev|min|max)$`)

// llmperfMetrics maps llmperf's latency quantities (seconds) to metric names.
var llmperfMetrics = map[string]string{
	"ttft_s":                model.TTFT,
	"inter_token_latency_s": model.ITL,
	"end_to_end_latency_s":  model.E2EL,
}

var llmperfKnown = map[string]bool{
	"version": true, "model": true, "num_concurrent_requests": true, "timestamp": true,
	"results_num_requests_started": true, "results_number_errors": true,
	"results_num_completed_requests": true, "results_num_completed_requests_per_min": true,
	"results_mean_output_throughput_token_per_s": true,
}

// parseLLMPerfSummary reads ray-project/llmperf's {stem}_summary.json (formats/results.md 4):
// latencies in seconds, numbers sometimes written as strings, NaN possible.
func parseLLMPerfSummary(name string, obj map[string]any) (*model.Run, error) {
	run := model.NewRun("llmperf")
	run.ToolVersion = jsonx.Str(obj["version"])
	run.Era = eraLLMPerfSummary
	if run.ToolVersion != "" {
		run.Era = eraLLMPerfSummary + era(", version "+run.ToolVersion)
	}
	run.Model = jsonx.Str(obj["model"])

	f := fields{obj: obj}
	run.NumPrompts = f.num("results_num_requests_started")
	run.Completed = f.num("results_num_completed_requests")
	run.Failed = f.num("results_number_errors")
	run.OutputThroughput = f.num("results_mean_output_throughput_token_per_s")
	run.RequestThroughput = f.num("results_num_completed_requests_per_min") / 60
	run.MaxConcurrency = f.num("num_concurrent_requests")
	ts := f.num("timestamp")
	if f.err != nil {
		return nil, f.err
	}
	if ts.Known() && !math.IsInf(ts.F(), 0) {
		run.Date = time.Unix(int64(ts), 0).UTC().Format(time.RFC3339)
	}

	known := map[string]bool{}
	for k, v := range obj {
		if llmperfKnown[k] {
			known[k] = true
			continue
		}
		if !strings.HasPrefix(k, "results_") {
			continue
		}
		known[k] = true
		m := llmperfStat.FindStringSubmatch(k)
		metric, isLatency := "", false
		if m != nil {
			metric, isLatency = llmperfMetrics[m[1]]
		}
		if !isLatency {
			// Token counts, per-request throughput, error rate and the error-code dict repr:
			// kept as numbers when they are numbers written as strings.
			if x, ok := jsonx.Float(v); ok {
				setExtra(run, k, x)
			} else {
				setExtra(run, k, v)
			}
			continue
		}
		if v == nil {
			continue
		}
		x, ok := jsonx.Float(v)
		if !ok {
			return nil, shapeError(k, "a number", v)
		}
		run.SetStat(metric, llmperfStatName(m[2]), x*1000)
	}
	run.Definitions = map[string]string{
		model.TTFT: "per successful request, from request send to the first streamed chunk",
		model.ITL: "per-request mean inter-token latency, averaged over requests; llmperf's " +
			"per-request value is the sum of all chunk gaps including the TTFT divided by the " +
			"output tokens (≈ e2e latency / output tokens)",
		model.E2EL: "per successful request, end to end",
	}
	keepRest(run, obj, known)
	return run, nil
}

// llmperfStatName turns llmperf's statistic suffix into benchlens's name.
func llmperfStatName(s string) string {
	switch s {
	case "mean":
		return "mean"
	case "stddev":
		return "std"
	case "min", "max":
		return s
	}
	return strings.TrimPrefix(s, "quantiles_") // quantiles_p50 -> p50
}

// isLLMPerfResponses tells llmperf's _individual_responses.json (an array of per-request
// objects) from other JSON arrays.
func isLLMPerfResponses(arr []any) bool {
	if len(arr) == 0 {
		return false
	}
	first := jsonx.Object(arr[0])
	return first != nil && has(first, "ttft_s") && has(first, "end_to_end_latency_s")
}

// llmperfForkSuffix is what forks add before _individual_responses.json: _{concurrency}_{mode}.
var llmperfForkSuffix = regexp.MustCompile(`_\d+_[A-Za-z][\w-]*$`)

// parseLLMPerfResponses reads the per-request records; times are seconds.
func parseLLMPerfResponses(name string, arr []any) (*format.Part, error) {
	stem := path.Base(strings.ReplaceAll(name, `\`, "/"))
	stem = strings.TrimSuffix(stem, ".json")
	stem = strings.TrimSuffix(stem, "_individual_responses")
	stem = llmperfForkSuffix.ReplaceAllString(stem, "")

	reqs := make([]model.Request, len(arr))
	for i, v := range arr {
		rec, ok := v.(map[string]any)
		if !ok {
			return nil, errf("element %d: expected an object, found %s", i, describe(v))
		}
		f := fields{obj: rec}
		num := func(k string) float64 { return f.num(k).F() }
		r := &reqs[i]
		r.TTFT = num("ttft_s")
		r.Latency = num("end_to_end_latency_s")
		// inter_token_latency_s is latency / output tokens, TTFT included: not a TPOT, so
		// benchlens derives TPOT from the latency as vLLM defines it.
		r.TPOT = math.NaN()
		r.Start = num("request_start_time")
		r.InputLen = intOr(num("number_input_tokens"))
		r.OutputLen = intOr(num("number_output_tokens"))
		if code := rec["error_code"]; code != nil {
			c, ok := jsonx.Int(code)
			if !ok {
				return nil, errf("element %d: %w", i, shapeError("error_code", "an integer or null", code))
			}
			r.Error = jsonx.Str(rec["error_msg"])
			if r.Error == "" {
				r.Error = "error_code " + strconv.FormatInt(c, 10)
			}
		}
		if f.err != nil {
			return nil, errf("element %d: %w", i, f.err)
		}
	}
	return &format.Part{
		Tool:     "llmperf",
		Stem:     stem,
		Requests: reqs,
		Extra: map[string]any{
			"request_tpot": "derived as (latency - ttft) / (output tokens - 1); llmperf's per-request " +
				"inter_token_latency_s includes the TTFT (≈ latency / output tokens) and is not used",
		},
	}, nil
}
