package result

import (
	"bytes"
	"fmt"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/internal/textsafe"
	"benchlens/model"
)

// maxString bounds a string kept from a result: no field benchlens reads is longer, and a
// file holding one giant string must not need its size again in heap.
const maxString = 1 << 20

// skipKeys are large per-request members nobody analyses; skipping them halves the work on a
// --save-detailed file.
var skipKeys = map[string]bool{"generated_texts": true}

// IsJSON sniffs a JSON result: text that starts as JSON, or a file named like one (.json,
// .jsonl), whose fault is then a result gone wrong.
func IsJSON(f *format.File) bool {
	lead := f.Lead()
	return len(lead) > 0 && (lead[0] == '{' || lead[0] == '[') || NamedLikeResult(f)
}

// ReadJSON reads the results of a JSON file: one object, JSONL, concatenated objects or an
// array of run objects, of every tool and era this package knows. A file that holds none is
// format.ErrUnrecognized (a vLLM log written as JSON lines, rocm-smi --json); one that
// looks like a result but is broken returns the runs read before the fault and a
// *position.Error naming the spot.
func ReadJSON(f *format.File) (format.Parsed, error) {
	if c := f.Lead()[0]; c != '{' && c != '[' {
		// Named like JSON but is not: decoding reports the spot.
		if _, err := jsonx.NewDecoder(f.Data).Decode(); err != nil {
			return format.Parsed{}, position.InFile(f.Name, err)
		}
		return format.Parsed{}, format.ErrUnrecognized
	}
	p, err := parseJSON(f)
	if err != nil {
		return p, position.InFile(f.Name, err)
	}
	return p, nil
}

// NamedLikeResult is used only to decide whether a broken file deserves an error: a broken
// .json or .jsonl is a result gone wrong, not an attachment.
func NamedLikeResult(f *format.File) bool { return f.NameEnds(".json", ".jsonl") }

// parseJSON reads every value of a JSON file (one object, JSONL, concatenated objects or an
// array of run objects) and turns each into runs.
func parseJSON(f *format.File) (format.Parsed, error) {
	name, data := f.Name, f.Data
	dec := jsonx.NewDecoder(data)
	dec.SkipKeys = skipKeys
	dec.Progress = f.Drop
	dec.MaxString = maxString
	var p format.Parsed
	for first := true; dec.More(); first = false {
		start := dec.Offset()
		v, err := dec.Decode()
		if err != nil {
			if first && !NamedLikeResult(f) {
				// Text that merely starts with '{' or '[' (an SGLang log's "[2025-…"): the
				// text formats get their turn.
				return format.Parsed{}, format.ErrUnrecognized
			}
			return p, err
		}
		values := []any{v}
		if arr, ok := v.([]any); ok && isRunArray(arr) {
			values = arr
		}
		if obj := jsonx.Object(v); first && obj != nil {
			if why := aiperfRollup(obj); why != "" {
				return format.Parsed{Why: why}, nil
			}
			if why := inferencePerfSummary(name, obj); why != "" {
				return format.Parsed{Why: why}, nil
			}
		}
		for _, val := range values {
			runs, part, err := parseValue(name, val)
			if err != nil {
				line := 1 + bytes.Count(data[:start], []byte{'\n'})
				return p, &position.Error{File: name, Line: line, Offset: start, Err: err}
			}
			p.Runs = append(p.Runs, runs...)
			switch {
			case part == nil:
			case p.Part != nil && p.Part.Tool == part.Tool:
				p.Part.Requests = append(p.Part.Requests, part.Requests...) // one record per line
				p.Part.Warmup += part.Warmup
			default:
				p.Part = part
			}
		}
		if len(p.Runs) == 0 && p.Part == nil {
			return p, format.ErrUnrecognized // other JSON: a log or utilisation row may read it
		}
	}
	if dec.Replaced > 0 {
		p.Warnings = append(p.Warnings, model.Warn(model.WarnEncoding, textsafe.Quote(name), dec.FirstReplaced, dec.Replaced))
	}
	return p, nil
}

// isRunArray tells a JSON array of run objects (sweep summary.json) from other arrays.
func isRunArray(arr []any) bool {
	if len(arr) == 0 {
		return false
	}
	obj, ok := arr[0].(map[string]any)
	return ok && detect(obj) != ""
}

// detect names the tool that wrote obj (formats/results.md, "Tool detection"), or "".
func detect(obj map[string]any) string { return identify(obj).tool }

// identity is the tool that wrote a result object and the signal in the file that decided it.
type identity struct{ tool, signal string }

// identify names the tool by the strongest signal the object holds: version keys first, then
// the tool's own schema keys, then the benchmark client's backend field, then key families
// shared between forks.
func identify(obj map[string]any) identity {
	has := func(k string) bool { _, ok := obj[k]; return ok }
	backend := jsonx.Str(obj["backend"])
	switch {
	case has("schema_version") && has("aiperf_version"):
		return identity{"aiperf", "schema_version and aiperf_version keys"}
	case has("input_config") && isGenAIPerfSummary(obj) && (has("was_cancelled") || has("error_summary")):
		return identity{"aiperf", "was_cancelled / error_summary keys beside input_config (AIPerf's export; genai-perf writes neither)"}
	case has("input_config") && jsonx.Object(obj["records"]) != nil && isGenAIPerfSummary(jsonx.Object(obj["records"])):
		return identity{"aiperf", "metrics under records beside input_config (early AIPerf export)"}
	case has("experiments"):
		if exps, ok := obj["experiments"].([]any); ok && len(exps) > 0 {
			return identity{"genai-perf-raw", "experiments[] of perf_analyzer requests"}
		}
	case has("input_config") && isGenAIPerfSummary(obj):
		return identity{"genai-perf", "input_config beside {unit, avg} metric objects, no AIPerf keys"}
	case has("benchmarks"):
		if b, ok := obj["benchmarks"].([]any); ok && len(b) > 0 {
			if first := jsonx.Object(b[0]); first != nil && (first["type_"] != nil || first["metrics"] != nil) {
				return identity{"guidellm", "benchmarks[] with type_ / metrics"}
			}
		}
	case isInferencePerfLifecycle(obj):
		return identity{"inference-perf", "load_summary, successes.latency and failures blocks (inference-perf lifecycle report)"}
	case obj["version"] == "2023-08-31":
		return identity{"llmperf", `version "2023-08-31"`}
	case hasPrefixKey(obj, "results_"):
		return identity{"llmperf", "results_* keys"}
	}
	switch {
	case strings.HasPrefix(backend, "sglang") && !has("model_id") &&
		(has("mean_ttft_ms") || has("median_e2e_latency_ms") || has("request_throughput") || has("completed") || has("ttfts")):
		return identity{"sglang", fmt.Sprintf("backend %q without vLLM's model_id key", backend)}
	case has("dataset_name") && (has("total_output_tokens_retokenized") || has("server_info") || has("mean_e2e_latency_ms")) && !has("model_id"):
		return identity{"sglang", "dataset_name with SGLang's keys (server_info, *_retokenized, *_e2e_latency_ms), no model_id"}
	case has("model_id"):
		return identity{"vllm", "model_id key"}
	case has("date") && has("backend"):
		return identity{"vllm", "date and backend keys"}
	case has("backend") && (has("mean_ttft_ms") || has("request_throughput") || has("ttfts")):
		return identity{"vllm", "backend with vLLM's statistics keys"}
	}
	return identity{}
}

func hasPrefixKey(obj map[string]any, prefix string) bool {
	for k := range obj {
		if strings.HasPrefix(k, prefix) {
			return true
		}
	}
	return false
}

func isGenAIPerfSummary(obj map[string]any) bool {
	for _, k := range []string{"request_throughput", "time_to_first_token", "request_latency"} {
		if m := jsonx.Object(obj[k]); m != nil && m["avg"] != nil {
			return true
		}
	}
	return false
}

// parseValue turns one decoded JSON value into runs or a per-request part; a value of no
// result gives neither.
func parseValue(name string, v any) ([]*model.Run, *format.Part, error) {
	if arr, ok := v.([]any); ok {
		if isInferencePerfRequests(arr) {
			return nil, parseInferencePerfRequests(arr), nil
		}
		if isLLMPerfResponses(arr) {
			part, err := parseLLMPerfResponses(name, arr)
			return nil, part, err
		}
		if isVLLMNightlyTable(arr) {
			return nil, nil, errVLLMNightlyTable
		}
		return nil, nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, nil, nil
	}
	if isAIPerfRecord(obj) {
		part, err := parseAIPerfRecord(name, obj)
		return nil, part, err
	}
	id := identify(obj)
	if id.tool == "" {
		if keys := wrapperKeys(obj); keys != nil {
			runs, err := parseWrapper(name, obj, keys)
			return runs, nil, err
		}
	}
	var run *model.Run
	var runs []*model.Run
	var err error
	switch id.tool {
	case "vllm":
		run, err = parseVLLM(obj)
	case "sglang":
		run, err = parseSGLang(obj)
	case "llmperf":
		run, err = parseLLMPerfSummary(name, obj)
	case "aiperf":
		run, err = parseAIPerf(obj)
	case "genai-perf":
		run, err = parseGenAIPerfSummary(obj)
	case "inference-perf":
		run, err = parseInferencePerf(name, obj)
	case "genai-perf-raw":
		part, err := parseGenAIPerfRaw(name, obj)
		return nil, part, err
	case "guidellm":
		runs, err = parseGuideLLM(obj)
		for _, r := range runs {
			r.IdentifiedBy = id.signal
		}
		return runs, nil, err
	default:
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	run.IdentifiedBy = id.signal
	loadFromFolders(run, name)
	return []*model.Run{run}, nil, nil
}
