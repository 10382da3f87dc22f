package reproduce

import (
	"fmt"
	"strconv"
	"strings"
)

// serverFacts is what the files say about the server of one run.
type serverFacts struct {
	engine, version, from string
	args, config          map[string]string // the log's (or SGLang result's) arguments and engine config
	dtype, eager          string
	target, targetFrom    string // target backend as the server was asked, and how (flag, env, default, manifest)
	resolved              string
	hasLog                bool
}

// facts gathers the server facts of a run: its server log first, then an SGLang result's
// server_info, then the manifest's stack_fingerprint.engine_version, then the benchmark's
// --backend.
func facts(r Run) serverFacts {
	f := serverFacts{args: map[string]string{}, config: map[string]string{}}
	if l := firstLog(r); l != nil {
		f.hasLog, f.engine, f.version, f.from = true, l.Engine, l.Version, "server log"
		for k, v := range l.Args {
			f.args[k] = v
		}
		for k, v := range l.EngineConfig {
			f.config[k] = v
		}
		f.dtype, f.eager, f.resolved = l.Dtype, l.Eager, l.Resolved
		f.target, f.targetFrom = l.TargetBackend, string(l.TargetSource)
		if raw := f.args["attention_backend"]; raw != "" && raw != "None" {
			f.target = raw // the spelling the server was given
		}
	}
	run := r.Run
	if info, ok := run.Extra["server_info"].(map[string]any); ok && f.engine == "" {
		f.engine, f.version, f.from = "sglang", run.ToolVersion, "the result's server_info"
		for k, v := range info {
			switch v.(type) {
			case map[string]any, []any:
				continue
			case nil:
				f.args[k] = "None" // as the server's own log prints an unset argument
				continue
			}
			f.args[k] = fmt.Sprint(v)
		}
		if b := f.args["attention_backend"]; b != "" && b != "None" && b != "<nil>" {
			f.target, f.targetFrom = b, "flag"
		}
	}
	if f.engine == "" {
		if ev := run.Manifest.String("stack_fingerprint", "engine_version"); ev != "" {
			name, ver, _ := strings.Cut(strings.TrimSpace(ev), " ")
			switch strings.ToLower(name) {
			case "vllm", "vllm-ascend", "sglang":
				f.engine, f.version, f.from = strings.ToLower(name), strings.TrimPrefix(strings.TrimSpace(ver), "v"), "bundle.yaml engine_version"
			}
		}
	}
	if f.engine == "" && (run.Backend == "vllm" || run.Backend == "sglang") {
		f.engine, f.from = run.Backend, "the benchmark's --backend "+run.Backend
	}
	if t := run.Manifest.String("path", "target_backend"); t != "" && (f.target == "" || f.targetFrom == "default") {
		f.target, f.targetFrom = t, "manifest"
	}
	return f
}

// serverCommand builds the command that starts the run's server.
func serverCommand(r Run) Command {
	f := facts(r)
	c := Command{Runs: []int64{r.Run.ID}}
	if f.engine == "" {
		c.Tool = "unknown server"
		c.Args = []string{Placeholder("server command")}
		c.Notes = append(c.Notes, "no server log and no stack_fingerprint.engine_version: attach the server's startup log to rebuild this command")
		return c
	}
	era := serverEra(f)
	c.Tool = era.Name
	c.Args = append([]string(nil), era.Program...)
	c.place(r.Fingerprint)
	mdl := first(f.args["model"], f.args["model_path"], f.config["model"], r.Run.Model, r.Run.Manifest.String("workload", "model_name"))
	if mdl == "" {
		mdl = Placeholder("model")
	}
	if flag, ok := era.Flags[cModel]; ok {
		c.Args = append(c.Args, flag, mdl)
	} else {
		c.Args = append(c.Args, mdl) // vllm serve takes the model as its first argument
	}
	if f.version == "" {
		c.Notes = append(c.Notes, "engine version not recorded: flags of "+era.Name)
	}
	switch f.from {
	case "server log", "the result's server_info":
	default:
		c.Notes = append(c.Notes, "engine from "+f.from+"; no server log, so its settings are placeholders")
	}

	add := func(concept, value string) {
		if flag, ok := era.Flags[concept]; ok {
			c.Args = append(c.Args, flag, value)
		}
	}
	// attention backend: by flag or environment, per era; Ascend picks its own.
	switch {
	case f.engine == "vllm-ascend":
		c.Notes = append(c.Notes, "attention on Ascend is chosen by vllm-ascend (resolved: "+orUnknown(f.resolved)+")")
	case f.target == "" && !f.hasLog:
		c.setAttention(era, Placeholder("attention backend"))
	case f.target == "" || f.targetFrom == "default":
		c.Notes = append(c.Notes, "no attention backend was asked for: the server chose its default (resolved: "+orUnknown(f.resolved)+")")
	default:
		c.setAttention(era, f.target)
	}
	if f.engine == "vllm-ascend" {
		if name, ok := era.Env[cUseV1]; ok {
			c.Env = append(c.Env, name+"="+Placeholder(name))
		}
	}

	known := func(what string, vals ...string) string {
		for _, v := range vals {
			if v != "" && v != "None" && v != "<nil>" {
				return v
			}
		}
		return Placeholder(what)
	}
	if f.engine == "sglang" {
		add(cTP, known("tp_size", f.args["tp_size"]))
		add(cDtype, known("dtype", f.args["dtype"]))
		add(cKVCacheDtype, known("kv_cache_dtype", f.args["kv_cache_dtype"]))
		switch v, ok := f.args["max_running_requests"]; {
		case ok && (v == "None" || v == "<nil>") && r.Run.Manifest.String("workload", "max_num_seqs") == "":
			c.Notes = append(c.Notes, "max_running_requests is None in the server's arguments: the server default")
		default:
			add(cMaxNumSeqs, known("max_running_requests", v, r.Run.Manifest.String("workload", "max_num_seqs")))
		}
		switch strings.ToLower(f.args["disable_cuda_graph"]) {
		case "true":
			c.Args = append(c.Args, era.Flags[cNoCUDAGraph])
		case "false":
		default:
			c.Notes = append(c.Notes, "disable_cuda_graph not recorded: add --disable-cuda-graph if the run had no CUDA graphs")
		}
		return c
	}
	add(cTP, known("tensor_parallel_size", f.config["tensor_parallel_size"], f.args["tensor_parallel_size"]))
	add(cDtype, known("dtype", f.dtype, strings.TrimPrefix(f.args["dtype"], "torch.")))
	add(cKVCacheDtype, known("kv_cache_dtype", f.config["kv_cache_dtype"], f.args["kv_cache_dtype"]))
	switch seqs := first(f.args["max_num_seqs"], r.Run.Manifest.String("workload", "max_num_seqs")); {
	case seqs != "":
		add(cMaxNumSeqs, seqs)
	case f.hasLog && len(f.args) > 0:
		c.Notes = append(c.Notes, "max_num_seqs not among the log's non-default args: the server default")
	default:
		add(cMaxNumSeqs, Placeholder("max_num_seqs"))
	}
	switch eager := strings.ToLower(first(f.config["enforce_eager"], f.args["enforce_eager"])); {
	case eager == "true" || f.eager == "eager":
		c.Args = append(c.Args, era.Flags[cEnforceEager])
	case eager == "false" || f.eager != "":
	default:
		c.Notes = append(c.Notes, "enforce_eager not recorded: add --enforce-eager if the run was eager")
	}
	if ac := f.args["additional_config"]; ac != "" && ac != "None" && ac != "{}" {
		add(cAddConfig, ac)
	}
	return c
}

// setAttention asks for the attention backend the way the era takes it.
func (c *Command) setAttention(era Era, backend string) {
	if name, ok := era.Env[cAttention]; ok {
		c.Env = append(c.Env, name+"="+backend)
		return
	}
	if flag, ok := era.Flags[cAttention]; ok {
		c.Args = append(c.Args, flag, backend)
	}
}

// serverEra picks the server's command-line era from its engine and version. A vLLM log that
// shows the backend given as a flag proves the flag exists whatever the version says.
func serverEra(f serverFacts) Era {
	if f.engine == "sglang" {
		return SGLangServer
	}
	major, minor, ok := parseVersion(f.version)
	switch {
	case f.targetFrom == "flag" && f.engine == "vllm":
		return VLLMServe
	case !ok:
		return VLLMServe
	case major == 0 && minor < 5:
		return VLLMAPIServer
	case major == 0 && minor < 12:
		return VLLMServeEnv
	}
	return VLLMServe
}

// parseVersion reads "0.12.0", "v0.6.4.post1", "0.9.1rc1" as major and minor.
func parseVersion(v string) (int, int, bool) {
	v = strings.TrimPrefix(strings.TrimSpace(v), "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	digits := strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })
	minor, err2 := strconv.Atoi(digits)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return major, minor, true
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" && v != "None" {
			return v
		}
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
