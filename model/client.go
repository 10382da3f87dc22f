package model

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// Client is what a run's benchmark client was told to send (METHOD.md rule 12), as the
// result's own settings, its saved command line and bundle.yaml's workload say: the request
// shape when it was declared, whether the output length was under the client's control, and
// the request set (seed, count, dataset). Values nothing says stay unknown or "".
type Client struct {
	InputLen  Num    `json:"input_len"`  // declared input length (random / synthetic datasets)
	OutputLen Num    `json:"output_len"` // declared output length
	IgnoreEOS bool   `json:"ignore_eos,omitempty"`
	MaxTokens Num    `json:"max_tokens"` // one max-tokens for every request
	DurationS Num    `json:"duration_s"` // a time-bound run: it stopped after this long
	Requests  Num    `json:"requests"`   // the requests it was told to send
	Seed      string `json:"seed,omitempty"`
	Dataset   string `json:"dataset,omitempty"`
	// DatasetPath is the file the requests were read from (a saved command's --dataset-path
	// or --input-file, AIPerf's datasets[].path), DatasetType its format where the tool
	// names one (AIPerf's --custom-dataset-type).
	DatasetPath string `json:"dataset_path,omitempty"`
	DatasetType string `json:"dataset_type,omitempty"`
	// From names where each value came from, by field: "random_input_len", "bundle.yaml",
	// "cli_command --isl", "input_config.datasets[0].prompts.isl".
	From map[string]string `json:"from,omitempty"`
}

// ClientOf reads what the run's client was told: bundle.yaml's workload first, then the
// tool's own keys (SGLang's random_* keys, AIPerf / genai-perf input_config, vLLM sweep
// parameters), then a saved command line (AIPerf's run_info.cli_command, a --metadata
// command=…, bundle.yaml's command).
func ClientOf(r *Run) Client {
	c := Client{InputLen: Unknown, OutputLen: Unknown, MaxTokens: Unknown, DurationS: Unknown, Requests: Unknown,
		From: map[string]string{}}
	m := r.Manifest
	c.setNum(&c.InputLen, "input_len", numOf(m.String("workload", "input_len")), "bundle.yaml")
	c.setNum(&c.OutputLen, "output_len", numOf(m.String("workload", "output_len")), "bundle.yaml")
	c.setNum(&c.MaxTokens, "max_tokens", numOf(m.String("workload", "max_tokens")), "bundle.yaml")
	c.setNum(&c.Requests, "requests", numOf(m.String("workload", "num_prompts")), "bundle.yaml")
	c.setStr(&c.Seed, "seed", m.String("workload", "seed"), "bundle.yaml")
	c.setStr(&c.Dataset, "dataset", m.String("workload", "dataset"), "bundle.yaml")
	if truthy(m.String("workload", "ignore_eos")) {
		c.IgnoreEOS, c.From["ignore_eos"] = true, "bundle.yaml"
	}
	c.setStr(&c.Dataset, "dataset", r.Dataset, "the result's dataset")

	c.toolKeys(r)
	if cmd, from := savedCommand(r); cmd != "" {
		c.command(cmd, from)
	}
	if !randomData(c.Dataset) {
		// random lengths apply to the random dataset only (SGLang writes its defaults beside
		// a ShareGPT run; vLLM takes --random-input-len and ignores it for ShareGPT)
		for _, k := range []string{"input_len", "output_len"} {
			if strings.Contains(c.From[k], "random") {
				delete(c.From, k)
				if k == "input_len" {
					c.InputLen = Unknown
				} else {
					c.OutputLen = Unknown
				}
			}
		}
	}
	return c
}

// Synthetic reports whether the requests were generated to the declared lengths (a random
// or synthetic dataset, or one nothing names) rather than read from a dataset.
func (c Client) Synthetic() bool { return randomData(c.Dataset) }

// randomData reports whether a dataset name is one whose lengths the random flags set
// (unknown counts: the flags were given for a reason).
func randomData(name string) bool {
	n := strings.ToLower(name)
	return n == "" || strings.Contains(n, "random") || strings.Contains(n, "synthetic")
}

func (c *Client) setNum(dst *Num, field string, v Num, from string) {
	if !dst.Known() && v.Known() {
		*dst, c.From[field] = v, from
	}
}

func (c *Client) setStr(dst *string, field, v, from string) {
	if *dst == "" && v != "" {
		*dst, c.From[field] = v, from
	}
}

// toolKeys reads the lengths and request set the tool's own file records.
func (c *Client) toolKeys(r *Run) {
	x := r.Extra
	// SGLang bench_serving, vLLM sweep parameters; SGLang writes its random defaults beside a
	// ShareGPT run, whose fixed output length is sharegpt_output_len
	if strings.EqualFold(c.Dataset, "sharegpt") {
		c.setNum(&c.OutputLen, "output_len", anyNum(x["sharegpt_output_len"]), "sharegpt_output_len")
	}
	c.setNum(&c.InputLen, "input_len", anyNum(x["random_input_len"]), "random_input_len")
	c.setNum(&c.OutputLen, "output_len", anyNum(x["random_output_len"]), "random_output_len")
	c.setStr(&c.Seed, "seed", anyText(x["seed"]), "seed")
	ic, _ := x["input_config"].(map[string]any)
	if ic == nil {
		return
	}
	// genai-perf, flat
	c.setNum(&c.InputLen, "input_len", anyNum(ic["synthetic_input_tokens_mean"]), "input_config.synthetic_input_tokens_mean")
	c.setNum(&c.OutputLen, "output_len", anyNum(ic["output_tokens_mean"]), "input_config.output_tokens_mean")
	c.setNum(&c.Requests, "requests", anyNum(ic["request_count"]), "input_config.request_count")
	c.setStr(&c.Seed, "seed", anyText(ic["random_seed"]), "input_config.random_seed")
	c.extraInputs(ic["extra_inputs"], "input_config.extra_inputs")
	// AIPerf 0.1-0.5: input.prompt.{input,output}_tokens.mean, loadgen
	c.setNum(&c.InputLen, "input_len", anyNum(Dig(ic, "input", "prompt", "input_tokens", "mean")), "input_config.input.prompt.input_tokens.mean")
	c.setNum(&c.OutputLen, "output_len", anyNum(Dig(ic, "input", "prompt", "output_tokens", "mean")), "input_config.input.prompt.output_tokens.mean")
	c.setStr(&c.Seed, "seed", anyText(Dig(ic, "input", "random_seed")), "input_config.input.random_seed")
	c.setStr(&c.Dataset, "dataset", anyText(Dig(ic, "input", "public_dataset")), "input_config.input.public_dataset")
	c.extraInputs(Dig(ic, "input", "extra"), "input_config.input.extra")
	c.setNum(&c.DurationS, "duration_s", anyNum(Dig(ic, "loadgen", "benchmark_duration")), "input_config.loadgen.benchmark_duration")
	c.setNum(&c.Requests, "requests", anyNum(Dig(ic, "loadgen", "request_count")), "input_config.loadgen.request_count")
	// AIPerf ≥0.10: datasets[] and phases[]
	if ds, ok := ic["datasets"].([]any); ok {
		for i, d := range ds {
			at := fmt.Sprintf("input_config.datasets[%d].", i)
			c.setNum(&c.InputLen, "input_len", lengthValue(Dig(d, "prompts", "isl")), at+"prompts.isl")
			c.setNum(&c.OutputLen, "output_len", lengthValue(Dig(d, "prompts", "osl")), at+"prompts.osl")
			c.setStr(&c.Seed, "seed", anyText(Dig(d, "random_seed")), at+"random_seed")
			name := anyText(Dig(d, "dataset"))
			if anyText(Dig(d, "type")) == "file" {
				file := anyText(Dig(d, "path"))
				if name == "" {
					name = path.Base(file)
				}
				c.setStr(&c.DatasetPath, "dataset_path", file, at+"path")
				c.setStr(&c.DatasetType, "dataset_type", anyText(Dig(d, "format")), at+"format")
			}
			if name == "" && anyText(Dig(d, "type")) == "synthetic" {
				name = "synthetic"
			}
			c.setStr(&c.Dataset, "dataset", name, at+"dataset")
		}
	}
	if ps, ok := ic["phases"].([]any); ok {
		for i, p := range ps {
			if anyText(Dig(p, "name")) == "warmup" || Dig(p, "exclude_from_results") == true {
				continue
			}
			at := fmt.Sprintf("input_config.phases[%d].", i)
			c.setNum(&c.DurationS, "duration_s", anyNum(Dig(p, "duration")), at+"duration")
			c.setNum(&c.Requests, "requests", anyNum(Dig(p, "requests")), at+"requests")
		}
	}
	c.extraInputs(Dig(ic, "endpoint", "extra"), "input_config.endpoint.extra")
	c.setStr(&c.Seed, "seed", anyText(Dig(x["run_info"], "random_seed")), "run_info.random_seed")
}

// extraInputs reads the request parameters a client adds to every request (genai-perf /
// AIPerf --extra-inputs): ignore_eos, max_tokens. v is an object, a list of [key, value]
// pairs, or "key:value" strings.
func (c *Client) extraInputs(v any, from string) {
	set := func(k string, val any) {
		switch k {
		case "ignore_eos":
			if truthy(anyText(val)) {
				c.IgnoreEOS, c.From["ignore_eos"] = true, from
			}
		case "max_tokens", "max_completion_tokens", "max_new_tokens":
			c.setNum(&c.MaxTokens, "max_tokens", anyNum(val), from+"."+k)
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			set(k, val)
		}
	case []any:
		for _, e := range x {
			switch p := e.(type) {
			case []any:
				if len(p) == 2 {
					set(anyText(p[0]), p[1])
				}
			case string:
				k, val, _ := strings.Cut(p, ":")
				set(k, val)
			}
		}
	}
}

// savedCommand is the run's saved benchmark command line, and where it was found.
func savedCommand(r *Run) (string, string) {
	if s := anyText(Dig(r.Extra["run_info"], "cli_command")); s != "" {
		return s, "run_info.cli_command"
	}
	if s := anyText(r.Extra["cli_command"]); s != "" {
		return s, "cli_command"
	}
	for _, k := range []string{"command", "cmd", "cli_command", "command_line"} {
		if s := r.Metadata[k]; s != "" {
			return s, "metadata " + k
		}
	}
	for _, p := range [][]string{{"command"}, {"workload", "command"}} {
		if s := r.Manifest.String(p...); s != "" {
			return s, "bundle.yaml " + strings.Join(p, ".")
		}
	}
	return "", ""
}

// Flags of the benchmark clients' command lines (vLLM, SGLang, genai-perf / AIPerf, llmperf),
// by what they set.
var (
	inputFlags    = []string{"--random-input-len", "--random-input", "--input-len", "--isl", "--synthetic-input-tokens-mean", "--sonnet-input-len", "--mean-input-tokens"}
	outputFlags   = []string{"--random-output-len", "--random-output", "--output-len", "--osl", "--output-tokens-mean", "--sharegpt-output-len", "--custom-output-len", "--hf-output-len", "--sonnet-output-len", "--mean-output-tokens"}
	seedFlags     = []string{"--seed", "--random-seed"}
	requestFlags  = []string{"--num-prompts", "--request-count", "--num-requests", "--max-num-completed-requests"}
	durationFlags = []string{"--benchmark-duration", "--max-seconds"}
	datasetFlags  = []string{"--dataset-name", "--public-dataset", "--dataset"}
	pathFlags     = []string{"--dataset-path", "--input-file"}
)

// command reads a saved command line.
func (c *Client) command(cmd, from string) {
	words := shellWords(cmd)
	flag := func(i int) (name, val string, ok bool) {
		w := words[i]
		if !strings.HasPrefix(w, "--") {
			return "", "", false
		}
		if n, v, eq := strings.Cut(w, "="); eq {
			return strings.ReplaceAll(n, "_", "-"), v, true
		}
		name = strings.ReplaceAll(w, "_", "-")
		if i+1 < len(words) && !strings.HasPrefix(words[i+1], "--") {
			val = words[i+1]
		}
		return name, val, true
	}
	in := func(name string, set []string) bool {
		for _, s := range set {
			if s == name {
				return true
			}
		}
		return false
	}
	for i := range words {
		name, val, ok := flag(i)
		if !ok {
			continue
		}
		at := from + " " + name
		switch {
		case in(name, inputFlags):
			c.setNum(&c.InputLen, "input_len", numOf(val), at)
		case in(name, outputFlags):
			c.setNum(&c.OutputLen, "output_len", numOf(val), at)
		case in(name, seedFlags):
			c.setStr(&c.Seed, "seed", val, at)
		case in(name, requestFlags):
			c.setNum(&c.Requests, "requests", numOf(val), at)
		case in(name, durationFlags):
			c.setNum(&c.DurationS, "duration_s", numOf(val), at)
		case in(name, datasetFlags):
			c.setStr(&c.Dataset, "dataset", val, at)
		case in(name, pathFlags):
			c.setStr(&c.DatasetPath, "dataset_path", val, at)
		case name == "--custom-dataset-type":
			c.setStr(&c.DatasetType, "dataset_type", val, at)
		case name == "--ignore-eos":
			if val == "" || truthy(val) {
				c.IgnoreEOS, c.From["ignore_eos"] = true, at
			}
		case name == "--max-tokens":
			c.setNum(&c.MaxTokens, "max_tokens", numOf(val), at)
		case name == "--extra-inputs":
			var obj map[string]any
			if json.Unmarshal([]byte(val), &obj) == nil {
				c.extraInputs(obj, at)
			} else {
				c.extraInputs([]any{val}, at)
			}
		}
	}
}

// shellWords splits a command line as a POSIX shell would, quotes and backslashes included.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, rune(0)
	runes := []rune(s)
	for i := 0; i < len(runes); i++ {
		ch := runes[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			} else {
				cur.WriteRune(ch)
			}
		case quote == '"':
			switch {
			case ch == '"':
				quote = 0
			case ch == '\\' && i+1 < len(runes) && strings.ContainsRune(`"\$`+"`", runes[i+1]):
				i++
				cur.WriteRune(runes[i])
			default:
				cur.WriteRune(ch)
			}
		case ch == '\'' || ch == '"':
			quote, in = ch, true
		case ch == '\\' && i+1 < len(runes):
			i++
			if runes[i] != '\n' {
				cur.WriteRune(runes[i])
				in = true
			}
		case ch == ' ' || ch == '\t' || ch == '\n':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(ch)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// Dig follows the keys of decoded JSON / YAML objects; nil when a step is missing or not an
// object.
func Dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// lengthValue reads a length setting: a number, or {value} / {mean} (AIPerf's isl / osl).
func lengthValue(v any) Num {
	if n := anyNum(v); n.Known() {
		return n
	}
	for _, k := range []string{"value", "mean"} {
		if n := anyNum(Dig(v, k)); n.Known() {
			return n
		}
	}
	return Unknown
}

// anyNum reads a decoded JSON / YAML number, or a string holding one.
func anyNum(v any) Num {
	switch x := v.(type) {
	case float64:
		return Num(x)
	case int64:
		return Num(x)
	case int:
		return Num(x)
	case json.Number:
		f, err := x.Float64()
		if err == nil {
			return Num(f)
		}
	case string:
		return numOf(x)
	}
	return Unknown
}

// anyText writes a decoded value as text: strings as they are, numbers plainly.
func anyText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64, int64, int, json.Number:
		return FormatNum(anyNum(x))
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func numOf(s string) Num {
	if f, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
		return Num(f)
	}
	return Unknown
}

func truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "1", "yes", "on":
		return true
	}
	return false
}
