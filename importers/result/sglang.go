package result

import (
	"benchlens/importers/jsonx"
	"benchlens/model"
)

// sglangKnown are the keys parseSGLang consumes; server_info is read but kept whole in Extra.
var sglangKnown = map[string]bool{
	"tag": true, "backend": true, "dataset_name": true, "request_rate": true,
	"max_concurrency": true, "num_prompts": true, "duration": true, "completed": true,
	"total_input_tokens": true, "total_output_tokens": true, "request_throughput": true,
	"input_throughput": true, "output_throughput": true, "total_throughput": true,
	"input_lens": true, "output_lens": true, "ttfts": true, "itls": true, "errors": true,
	"start_times": true, "latencies": true, "generated_texts": true,
}

// parseSGLang reads one record of `python -m sglang.bench_serving` (formats/results.md 2):
// the current record with server_info and the old compact one of 2024.
func parseSGLang(obj map[string]any) (*model.Run, error) {
	run := model.NewRun("sglang")
	run.Era = eraSGLangCurrent
	if !has(obj, "request_throughput") && !has(obj, "server_info") && !has(obj, "mean_ttft_ms") {
		run.Era = eraSGLangCompact
	}
	run.Backend = jsonx.Str(obj["backend"])
	run.Dataset = jsonx.Str(obj["dataset_name"])
	run.Label = jsonx.Str(obj["tag"])
	if err := sglangServerInfo(run, obj["server_info"]); err != nil {
		return nil, err
	}

	f := fields{obj: obj}
	run.NumPrompts = f.num("num_prompts")
	run.MaxConcurrency = f.num("max_concurrency")
	run.DurationS = f.num("duration")
	run.Completed = f.num("completed")
	run.TotalInputTokens = f.num("total_input_tokens")
	run.TotalOutputTokens = f.num("total_output_tokens")
	run.RequestThroughput = f.num("request_throughput")
	run.InputThroughput = f.num("input_throughput")
	run.OutputThroughput = f.num("output_throughput")
	run.TotalTokenThroughput = f.num("total_throughput")
	if f.err != nil {
		return nil, f.err
	}
	// request_rate is a number, Infinity, or the string "trace" when a trace was replayed.
	if v := obj["request_rate"]; v != nil {
		if r, ok := jsonx.Float(v); ok {
			run.RequestRate = model.Num(r)
		} else if s, ok := v.(string); ok {
			setMeta(run, "request_rate", s)
		} else {
			return nil, shapeError("request_rate", "a number or a string", v)
		}
	}

	if err := readStats(run, obj); err != nil {
		return nil, err
	}
	reqs, err := vllmRequests(obj)
	if err != nil {
		return nil, err
	}
	run.Requests = reqs
	if run.NumPrompts.Known() && run.Completed.Known() {
		run.Failed = run.NumPrompts - run.Completed
	} else if reqs != nil {
		ok := 0
		for i := range reqs {
			if reqs[i].OK() {
				ok++
			}
		}
		if !run.Completed.Known() {
			run.Completed = model.Num(ok)
		}
		run.Failed = model.Num(len(reqs) - ok)
	}
	run.Definitions = map[string]string{
		model.TTFT: "per successful request, from request start to first streamed token",
		model.TPOT: "per request: (latency - ttft) / (output_len - 1), requests with output_len > 1",
		model.ITL:  "pooled over every gap between streamed chunks of successful requests",
		model.E2EL: "per successful request, end to end (SGLang e2e_latency)",
	}
	keepRest(run, obj, sglangKnown)
	return run, nil
}

// sglangServerInfo takes the model and version from server_info: one object, or with PD
// disaggregation {"prefill": [...], "decode": [...]}.
func sglangServerInfo(run *model.Run, v any) error {
	if v == nil {
		return nil
	}
	info, ok := v.(map[string]any)
	if !ok {
		return shapeError("server_info", "an object", v)
	}
	servers := []map[string]any{info}
	if has(info, "prefill") || has(info, "decode") {
		servers = nil
		for _, side := range []string{"prefill", "decode"} {
			list, ok := info[side].([]any)
			if !ok && info[side] != nil {
				return shapeError("server_info."+side, "an array", info[side])
			}
			for _, s := range list {
				if m := jsonx.Object(s); m != nil {
					servers = append(servers, m)
				}
			}
		}
		setExtra(run, "pd_disaggregated", true)
	}
	for _, s := range servers {
		if run.Model == "" {
			run.Model = firstString(s, "model_path", "served_model_name")
		}
		if run.ToolVersion == "" {
			run.ToolVersion = jsonx.Str(s["version"])
		}
		if run.Tokenizer == "" {
			run.Tokenizer = jsonx.Str(s["tokenizer_path"])
		}
	}
	return nil
}

func has(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
}

func setMeta(run *model.Run, key, value string) {
	if run.Metadata == nil {
		run.Metadata = map[string]string{}
	}
	run.Metadata[key] = value
}

func setExtra(run *model.Run, key string, value any) {
	if run.Extra == nil {
		run.Extra = map[string]any{}
	}
	run.Extra[key] = jsonx.Plain(value)
}

// keepExtra stores every key the run did not consume in Extra, strings included: for tools
// whose top-level strings are ids and times, not --metadata pairs.
func keepExtra(run *model.Run, obj map[string]any, known map[string]bool) {
	for k, v := range obj {
		if !known[k] {
			setExtra(run, k, v)
		}
	}
}

// fields reads numbers from one object and keeps the first wrong-shaped key as its error, so
// a run of reads needs one check (as bufio.Scanner does).
type fields struct {
	obj    map[string]any
	prefix string // names nested keys in errors: "metrics.request_totals."
	err    error
}

// num reads the first of keys present and not null; unknown when none is. A value that is
// not a number (or a string holding one) is an error naming the key.
func (f *fields) num(keys ...string) model.Num {
	for _, k := range keys {
		v, ok := f.obj[k]
		if !ok || v == nil {
			continue
		}
		x, ok := jsonx.Float(v)
		if !ok {
			if f.err == nil {
				f.err = shapeError(f.prefix+k, "a number", v)
			}
			return model.Unknown
		}
		return model.Num(x)
	}
	return model.Unknown
}
