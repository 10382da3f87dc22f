package result

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/importers/serverlog"
	"benchlens/importers/trace"
	"benchlens/importers/utilisation"
	"benchlens/internal/textsafe"
	"benchlens/model"
)

// Parsed is what one file turned out to hold.
type Parsed struct {
	Kind string       // a model.Kind* constant
	Runs []*model.Run // benchmark runs, for results
	// Part holds per-request records that belong to a summary in another file of the same
	// folder (llmperf individual responses, a genai-perf raw profile export).
	Part *Part
	// Why says what a file that looks like a result holds instead (an AIPerf roll-up over
	// runs), for the line the import report gives it.
	Why string
}

// Part is per-request data waiting for its summary.
type Part struct {
	Tool     string
	Stem     string // the run's file stem, to pair with its summary
	Requests []model.Request
	Extra    map[string]any
	// Warmup counts records the tool marked as warm-up (AIPerf's benchmark_phase "warmup"):
	// left out of Requests, as the tool left them out of its statistics.
	Warmup int
}

// maxString bounds a string kept from a result: no field benchlens reads is longer, and a
// file holding one giant string must not need its size again in heap.
const maxString = 1 << 20

// skipKeys are large per-request members nobody analyses; skipping them halves the work on a
// --save-detailed file.
var skipKeys = map[string]bool{"generated_texts": true}

// ParseFile sniffs a file by content and parses it. Results come back as runs; logs, traces,
// utilisation and manifests come back with their kind only, for later stages to read. A file
// that looks like a result but is broken returns the runs read before the fault and a
// *position.Error naming the spot.
func ParseFile(name string, data []byte) (Parsed, error) {
	return ParseFileDropping(name, data, nil)
}

// ParseFileDropping is ParseFile for a mapped file: drop is told how far parsing has got,
// so the pages before can leave memory.
func ParseFileDropping(name string, data []byte, drop func(upTo int)) (Parsed, error) {
	if isManifestName(name) {
		return Parsed{Kind: model.KindManifest}, nil
	}
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(trimmed) == 0 {
		if looksLikeResultName(name) {
			return Parsed{Kind: model.KindOther}, position.InFile(name, errors.New("empty file"))
		}
		return Parsed{Kind: model.KindOther}, nil
	}
	// Evidence first: a profiler trace can be a 100 MB JSON that is no result.
	if trace.Sniff(name, data) {
		return Parsed{Kind: model.KindTrace}, nil
	}
	if why := csvRollup(trimmed); why != "" {
		return Parsed{Kind: model.KindOther, Why: why}, nil
	}
	if p, ok, err := parseCSV(name, data); ok {
		if err != nil {
			return p, position.InFile(name, err)
		}
		return p, nil
	}
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) {
		if looksLikeResultName(name) {
			return Parsed{Kind: model.KindOther}, &position.Error{File: name, Line: 1, Offset: 0, Err: errors.New("UTF-16 text: save it as UTF-8")}
		}
		return Parsed{Kind: model.KindOther}, nil
	}
	if c := trimmed[0]; c != '{' && c != '[' {
		if looksLikeResultName(name) {
			// Named like JSON but is not: decoding reports the spot.
			_, err := jsonx.NewDecoder(data).Decode()
			if err != nil {
				return Parsed{Kind: model.KindOther}, position.InFile(name, err)
			}
		}
		return Parsed{Kind: sniffText(name, trimmed)}, nil
	}
	p, err := parseJSON(name, data, drop)
	if err != nil {
		return p, position.InFile(name, err)
	}
	if p.Kind == model.KindOther {
		// JSON that is no result may still be evidence: a vLLM log written as JSON lines,
		// rocm-smi --json.
		p.Kind = sniffText(name, trimmed)
	}
	return p, nil
}

// parseJSON reads every value of a JSON file (one object, JSONL, concatenated objects or an
// array of run objects) and turns each into runs.
func parseJSON(name string, data []byte, drop func(int)) (Parsed, error) {
	dec := jsonx.NewDecoder(data)
	dec.SkipKeys = skipKeys
	dec.Progress = drop
	dec.MaxString = maxString
	p := Parsed{Kind: model.KindOther}
	for first := true; dec.More(); first = false {
		start := dec.Offset()
		v, err := dec.Decode()
		if err != nil {
			if first && !looksLikeResultName(name) {
				// Text that merely starts with '{' or '[' (an SGLang log's "[2025-…"): the
				// text formats get their turn.
				return Parsed{Kind: sniffText(name, data)}, nil
			}
			return p, err
		}
		if first {
			p.Kind = sniffJSON(v)
		}
		values := []any{v}
		if arr, ok := v.([]any); ok && isRunArray(arr) {
			values = arr
		}
		if obj := jsonx.Object(v); first && obj != nil {
			if why := aiperfRollup(obj); why != "" {
				return Parsed{Kind: model.KindOther, Why: why}, nil
			}
		}
		for _, val := range values {
			kind, runs, part, err := parseValue(name, val)
			if err != nil {
				line := 1 + bytes.Count(data[:start], []byte{'\n'})
				return p, &position.Error{File: name, Line: line, Offset: start, Err: err}
			}
			switch kind {
			case model.KindResult:
				p.Kind = model.KindResult
				p.Runs = append(p.Runs, runs...)
			case model.KindCompanion:
				if p.Kind != model.KindResult {
					p.Kind = model.KindCompanion
				}
				if p.Part != nil && p.Part.Tool == part.Tool {
					p.Part.Requests = append(p.Part.Requests, part.Requests...) // one record per line
					p.Part.Warmup += part.Warmup
				} else {
					p.Part = part
				}
			}
		}
		if p.Kind != model.KindResult && p.Kind != model.KindCompanion {
			return p, nil // a trace or other JSON: its own importer reads it
		}
	}
	if dec.Replaced > 0 {
		w := fmt.Sprintf("%s%s from byte %d: %d strings had characters replaced; save it as UTF-8 (it may be Latin-1)",
			model.EncodingPrefix, textsafe.Quote(name), dec.FirstReplaced, dec.Replaced)
		for _, r := range p.Runs {
			r.Warnings = append(r.Warnings, w)
		}
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

// parseValue turns one decoded JSON value into runs or a per-request part.
func parseValue(name string, v any) (string, []*model.Run, *Part, error) {
	if arr, ok := v.([]any); ok {
		if isLLMPerfResponses(arr) {
			part, err := parseLLMPerfResponses(name, arr)
			return model.KindCompanion, nil, part, err
		}
		if isVLLMNightlyTable(arr) {
			return model.KindResult, nil, nil, errVLLMNightlyTable
		}
		return model.KindOther, nil, nil, nil
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return model.KindOther, nil, nil, nil
	}
	if isAIPerfRecord(obj) {
		part, err := parseAIPerfRecord(name, obj)
		return model.KindCompanion, nil, part, err
	}
	id := identify(obj)
	if id.tool == "" {
		if keys := wrapperKeys(obj); keys != nil {
			runs, err := parseWrapper(name, obj, keys)
			return model.KindResult, runs, nil, err
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
	case "genai-perf-raw":
		part, err := parseGenAIPerfRaw(name, obj)
		return model.KindCompanion, nil, part, err
	case "guidellm":
		runs, err = parseGuideLLM(obj)
		for _, r := range runs {
			r.IdentifiedBy = id.signal
		}
		return model.KindResult, runs, nil, err
	default:
		return model.KindOther, nil, nil, nil
	}
	if err != nil {
		return model.KindResult, nil, nil, err
	}
	run.IdentifiedBy = id.signal
	loadFromFolders(run, name)
	return model.KindResult, []*model.Run{run}, nil, nil
}

// sniffJSON classifies JSON that is not a result.
func sniffJSON(v any) string {
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x["traceEvents"]; ok {
			return model.KindTrace
		}
	case []any:
		if len(x) > 0 {
			if e := jsonx.Object(x[0]); e != nil && e["ph"] != nil && e["ts"] != nil {
				return model.KindTrace // Ascend trace_view.json: a bare array of events
			}
		}
	}
	return model.KindOther
}

// sniffText classifies a text file that is not a result: logs and utilisation traces are read
// by their own importers; here they only need a kind. A server log's markers are asked first:
// a log's lines can pass for utilisation rows (Ray's "2024-05-02 14:03:13,502	INFO …" looks
// like an nvidia-smi query row), while no utilisation tool prints those markers.
func sniffText(name string, data []byte) string {
	switch {
	case serverlog.Sniff(data):
		return model.KindLog
	case utilisation.Sniff(name, data):
		return model.KindUtilisation
	case strings.HasSuffix(strings.ToLower(name), ".log"):
		return model.KindLog
	}
	return model.KindOther
}

func isManifestName(name string) bool {
	base := name[strings.LastIndexAny(name, `/\`)+1:]
	return base == "bundle.yaml" || base == "bundle.yml"
}

// looksLikeResultName is used only to decide whether a broken file deserves an error: a
// broken .json or .jsonl is a result gone wrong, not an attachment.
func looksLikeResultName(name string) bool {
	lower := strings.TrimSuffix(strings.ToLower(name), ".gz") // read through the gzip
	return strings.HasSuffix(lower, ".json") || strings.HasSuffix(lower, ".jsonl")
}
