package compare

import (
	"fmt"
	"sort"
	"strings"

	"benchlens/model"
)

// The engine configuration is a condition (METHOD.md rule 12): two arms whose servers ran
// with other settings (prefix caching, chunked prefill, a hierarchical or offloaded KV cache,
// quantisation, the KV-cache dtype, graph or eager mode, the server's warm-up) are
// environment_differs naming the setting, unless the declared change covers it. The values
// come from the server logs (engine config line, non-default args, SGLang's ServerArgs, the
// graph evidence) and from an SGLang result's server_info. max_num_seqs is a workload field.

// engineSetting is one setting of the engine_config section.
type engineSetting struct {
	name string
	read func(s engineSource) string
	// path is the operator path whose declared change covers the setting; words are what a
	// change's `what` says when it is this setting's change.
	path  model.ChangePath
	words []string
}

// engineSource is what one run says of its server: key=value settings (the logs' engine
// config and args, server_info) and the graph mode its log shows.
type engineSource struct {
	kv    map[string]string
	eager string // "eager", "cuda_graph", "acl_graph"
}

var engineSettings = []engineSetting{
	{"prefix_caching", func(s engineSource) string {
		if v := onOff(s.kv["enable_prefix_caching"]); v != "" {
			return v
		}
		return invert(onOff(s.kv["disable_radix_cache"])) // SGLang's radix cache is its prefix cache
	}, "", []string{"prefix cach", "prefix-cach", "radix", "apc"}},
	{"chunked_prefill", func(s engineSource) string {
		if v := onOff(first(s.kv["enable_chunked_prefill"], s.kv["chunked_prefill_enabled"])); v != "" {
			return v
		}
		switch v := s.kv["chunked_prefill_size"]; v {
		case "", "None":
			return ""
		case "-1", "0":
			return "off"
		default:
			return "on (" + v + " tokens)"
		}
	}, "", []string{"chunked"}},
	{"kv_cache_offload", func(s engineSource) string {
		if onOff(s.kv["enable_hierarchical_cache"]) == "on" {
			return strings.TrimSpace("hierarchical (HiCache) " + kvList(s.kv, "hicache_ratio", "hicache_size", "hicache_storage_backend"))
		}
		if c := s.kv["kv_transfer_config"]; c != "" && c != "None" && (strings.Contains(c, "Offload") || strings.Contains(c, "LMCache")) {
			return "connector " + connectorName(c)
		}
		if v := s.kv["kv_offloading_size"]; v != "" && v != "None" {
			return "offloaded " + v + " GiB " + s.kv["kv_offloading_backend"]
		}
		if onOff(s.kv["enable_hierarchical_cache"]) == "off" {
			return "off"
		}
		return ""
	}, "", []string{"hicache", "hierarchical", "offload", "lmcache", "kv transfer"}},
	{"quantization", func(s engineSource) string {
		switch v := s.kv["quantization"]; v {
		case "None", "none":
			return "none"
		default:
			return v
		}
	}, model.PathLinear, []string{"fp8", "fp4", "nvfp4", "int8", "int4", "w8a8", "w4a16", "awq", "gptq", "marlin", "quant", "bitsandbytes", "gguf"}},
	{"kv_cache_dtype", func(s engineSource) string { return s.kv["kv_cache_dtype"] }, model.PathAttention, []string{"kv cache dtype", "kv-cache dtype", "kv_cache_dtype", "fp8 kv", "kv fp8"}},
	{"graph_mode", func(s engineSource) string {
		if s.eager != "" {
			return s.eager
		}
		switch {
		case onOff(s.kv["enforce_eager"]) == "on", onOff(s.kv["disable_cuda_graph"]) == "on":
			return "eager"
		}
		return ""
	}, model.PathGraph, []string{"eager", "graph", "torch.compile", "compile"}},
	{"server_warmup", func(s engineSource) string {
		switch onOff(s.kv["skip_server_warmup"]) {
		case "on":
			return "skipped"
		case "off":
			return "done"
		}
		return ""
	}, "", []string{"warmup", "warm-up", "warm up"}},
}

// engineSources reads what a run says of its server.
func engineSources(rd RunData) []engineSource {
	var out []engineSource
	for _, l := range rd.Logs {
		kv := map[string]string{}
		for _, src := range []map[string]string{l.EngineConfig, l.Args} {
			for k, v := range src {
				if _, ok := kv[k]; !ok {
					kv[k] = strings.Trim(v, `'"`)
				}
			}
		}
		out = append(out, engineSource{kv: kv, eager: l.Eager})
	}
	if info, ok := rd.Run.Extra["server_info"].(map[string]any); ok { // SGLang bench_serving
		kv := map[string]string{}
		for k, v := range info {
			switch x := v.(type) {
			case bool:
				kv[k] = map[bool]string{true: "True", false: "False"}[x]
			case nil:
				kv[k] = "None"
			case string:
				kv[k] = x
			case float64, int64:
				kv[k] = fmt.Sprint(x)
			}
		}
		out = append(out, engineSource{kv: kv})
	}
	return out
}

// value is a run's value of a setting, from its sources (engineSources, read once per run
// for every setting): the first source that says.
func (e engineSetting) value(sources []engineSource) string {
	for _, s := range sources {
		if v := e.read(s); v != "" {
			return v
		}
	}
	return ""
}

// engineConfig fills the record's engine_config section and returns the differences the
// declared change does not cover, as environment_differs reasons.
func engineConfig(rec *Record, base, cand Arm, change model.Change) []string {
	rec.EngineConfig = map[string]Field{}
	var env []string
	bs, cs := armSources(base), armSources(cand)
	for _, e := range engineSettings {
		bv, bMixed := engineArmValue(e, bs)
		cv, cMixed := engineArmValue(e, cs)
		if bv == "" && cv == "" {
			continue // no file says: not listed
		}
		fld := Field{Baseline: bv, Candidate: cv}
		switch {
		case bMixed || cMixed || (bv != "" && cv != "" && bv != cv):
			fld.State = model.ConditionDiffers
		case bv == "" || cv == "":
			fld.State = model.ConditionUnknown
		default:
			fld.State = model.ConditionSame
		}
		if fld.State == model.ConditionDiffers {
			if why := e.covered(change, cv); why != "" {
				fld.Declared, fld.Note = true, why
			} else {
				env = append(env, fmt.Sprintf("engine_config.%s (%s vs %s)", e.name, orUnknown(bv), orUnknown(cv)))
			}
		}
		rec.EngineConfig[e.name] = fld
	}
	return env
}

// armSources are the engineSources of each of an arm's runs.
func armSources(a Arm) [][]engineSource {
	out := make([][]engineSource, len(a.Runs))
	for i, rd := range a.Runs {
		out[i] = engineSources(rd)
	}
	return out
}

// engineArmValue is an arm's value of a setting, from its runs' sources (armSources): known
// when every run that says agrees.
func engineArmValue(e engineSetting, runs [][]engineSource) (string, bool) {
	seen := map[string]bool{}
	for _, src := range runs {
		if v := e.value(src); v != "" {
			seen[v] = true
		}
	}
	vals := make([]string, 0, len(seen))
	for v := range seen {
		vals = append(vals, v)
	}
	sort.Strings(vals)
	return strings.Join(vals, " | "), len(vals) > 1
}

// covered says why the declared change covers a difference of the setting, "" when it does
// not: the change names it (fields: [engine_config.quantization] or [quantization]), targets
// its operator path (path: linear for quantisation), or says it (`what: "FP8 weights"`, or
// the candidate's value itself, "fp8").
func (e engineSetting) covered(c model.Change, candidate string) string {
	if c.Declares("engine_config", e.name) {
		return "the declared change names it"
	}
	if e.path != "" && c.Path == e.path {
		return "the declared change targets the " + string(e.path) + " path"
	}
	what := strings.ToLower(c.What)
	if what == "" {
		return ""
	}
	for _, w := range e.words {
		if strings.Contains(what, w) {
			return fmt.Sprintf("the declared change (%s) says it", c.What)
		}
	}
	if v := strings.ToLower(candidate); len(v) > 2 && strings.Contains(what, v) {
		return fmt.Sprintf("the declared change (%s) names the candidate's %s", c.What, candidate)
	}
	return ""
}

// quantisedCheckpoint reports whether a declared change covers a model_name difference as a
// quantised checkpoint of the same model: the change covers the quantization difference the
// engine config shows, or its `what` names a quantisation the candidate's model name carries
// ("FP8 weights" and Meta-Llama-3.1-8B-Instruct-FP8).
func quantisedCheckpoint(rec *Record, c model.Change, candModel string) string {
	if f, ok := rec.EngineConfig["quantization"]; ok && f.Declared {
		return "a quantised checkpoint: the declared change covers the quantization (" + f.Baseline + " vs " + f.Candidate + ")"
	}
	what, name := strings.ToLower(c.What), strings.ToLower(candModel)
	for _, w := range engineSettings[quantizationSetting].words {
		if w != "quant" && strings.Contains(what, w) && strings.Contains(name, w) {
			return fmt.Sprintf("a quantised checkpoint: the declared change (%s) and the candidate's model name say %s", c.What, w)
		}
	}
	return ""
}

// quantizationSetting is the index of quantization in engineSettings.
const quantizationSetting = 3

func onOff(v string) string {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "1", "on", "yes":
		return "on"
	case "false", "0", "off", "no":
		return "off"
	}
	return ""
}

func invert(v string) string {
	switch v {
	case "on":
		return "off"
	case "off":
		return "on"
	}
	return ""
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func kvList(kv map[string]string, keys ...string) string {
	var parts []string
	for _, k := range keys {
		if v := kv[k]; v != "" && v != "None" {
			parts = append(parts, k+"="+v)
		}
	}
	return strings.Join(parts, ", ")
}

// connectorName is the kv_connector a kv_transfer_config names, or the config itself.
func connectorName(c string) string {
	for _, sep := range []string{`"kv_connector": "`, `"kv_connector":"`, `'kv_connector': '`, `kv_connector='`} {
		if _, rest, ok := strings.Cut(c, sep); ok {
			if name, _, ok := strings.Cut(rest, string(sep[len(sep)-1])); ok {
				return name
			}
		}
	}
	return c
}
