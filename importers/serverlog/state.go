package serverlog

// Parser state: what the line dispatch has seen so far, read by the resolution at the end,
// and the small helpers that record a finding with its line.

import (
	"strings"
	"unicode/utf8"

	"benchlens/model"
)

// proc is the decoder-attention backend one process (tag) resolved to, with its line.
type proc struct {
	backend string
	line    model.Line
	only    bool // chosen "out of potential backends" that listed just this one
}

// parser holds what the lines said so far. handle and its helpers fill it line by line; finish
// turns it into the evidence once the file is read, because most decisions (engine, target,
// status) need lines from anywhere in the log.
type parser struct {
	ev *model.LogEvidence // the evidence filled directly (config, args, KV cache, fallbacks, …)

	// Which engine wrote the log.
	vllmLines    int  // records with vLLM's "LEVEL date [file:line]" prefix
	sglLines     int  // records with SGLang's "[date TPn]" prefix
	sawSGL       bool // a message only SGLang prints
	sawAscendMsg bool // a "[vllm-ascend] " message
	ascendActive bool // the ascend platform plugin was activated
	ascendHas    bool // vllm-ascend is installed (listed, failed to load, or activated)

	// A benchmark client's console: its argument line (isClientArgs).
	client *model.Line

	// Platform.
	platformDetected string      // "Automatically detected platform X" or the plugin's platform
	platformHint     string      // cpu or rocm, from lines that name the platform without the detection line
	noPlatform       *model.Line // "No platform detected": vLLM runs on UnspecifiedPlatform
	pluginGroup      bool        // inside the "Available plugins for group vllm.platform_plugins" list

	// Engine, versions and configuration.
	engineMode  string            // V0 or V1 from "Initializing a V1 LLM engine"
	engVersion  string            // the engine line's "(vX)"
	srvVersion  string            // "vLLM API server version X" (the one reported)
	sglVersion  string            // SGLang's version line
	engineInit  bool              // the engine config line was seen
	cfgSeen     bool              // the first engine config line was parsed (later ones are other engines)
	argsLine    *model.Line       // vLLM's args / non-default args line: the flags' proof
	sglArgsLine *model.Line       // SGLang's server_args=ServerArgs(…) line
	vllmArgs    map[string]string // vLLM's CLI args
	sglArgs     map[string]string // SGLang's server args
	dtypeCast   string            // the dtype a cast / fallback line chose

	// Graph and compilation evidence.
	graphSeen  map[string]bool // graph line kinds already quoted (one line per kind)
	graph      bool            // CUDA / ACL graph capture lines
	eagerLine  bool            // lines that say the model runs eager
	compileOn  bool            // torch.compile / Dynamo ran
	compileOff bool            // compilation disabled
	torchair   bool            // vllm-ascend torchair graph mode
	aclGraph   bool            // vllm-ascend piecewise ACL graph

	// The decoder-attention backend per process, in the order the processes first resolved.
	procs map[string]*proc
	order []string

	// What the server was asked for, each with the line that proves it.
	envTarget      string      // VLLM_ATTENTION_BACKEND's value
	envLine        *model.Line // the variable set (or deprecated) line
	forcedTarget   string      // "Using AttentionBackendEnum.X backend": an explicit selection
	forcedLine     *model.Line
	selTarget      string // "Selected backend X is not valid": the choice a guard refused
	selLine        *model.Line
	sglDefault     string // SGLang's "Attention backend not set. Use X backend by default"
	sglDefaultLine *model.Line

	// Model and guard facts the platform default depends on.
	fp8Guard    bool   // SGLang's FP8 guard rewrote fa3 to triton
	blackwell   bool   // a Blackwell (SM100) guard line
	mla         bool   // the model uses MLA (architecture, use_mla=True, an MLA backend)
	faGuard     bool   // a "Cannot use FlashAttention" guard (vLLM 0.5's silent FLASH_ATTN path is then ruled out)
	arch        string // "Resolved architecture: X" or the config's architecture
	modelName   string
	maxModelLen string

	started bool // the API server said it is up: later exceptions are the requests'
}

func newParser() *parser {
	return &parser{
		ev: &model.LogEvidence{
			EngineConfig: map[string]string{},
			Args:         map[string]string{},
			KVCache:      map[string]string{},
			AuxBackends:  map[string]string{},
		},
		vllmArgs:  map[string]string{},
		sglArgs:   map[string]string{},
		graphSeen: map[string]bool{},
		procs:     map[string]*proc{},
	}
}

const maxQuote = 4096

func quote(r *record) model.Line {
	t := r.text
	if r.json {
		t = r.msg
	}
	if len(t) > maxQuote {
		cut := maxQuote
		for cut > 0 && !utf8.RuneStart(t[cut]) {
			cut--
		}
		t = t[:cut] + "…"
	}
	return model.Line{N: r.n, Text: strings.ToValidUTF8(t, "\uFFFD")}
}

func lp(l model.Line) *model.Line { return &l }

func (p *parser) kv(k, v string) {
	if _, ok := p.ev.KVCache[k]; !ok {
		p.ev.KVCache[k] = strings.ReplaceAll(v, ",", "")
	}
}

func (p *parser) graphLine(kind string, r *record) {
	if p.graphSeen[kind] || len(p.ev.GraphLines) >= 64 {
		return
	}
	p.graphSeen[kind] = true
	p.ev.GraphLines = append(p.ev.GraphLines, quote(r))
}

func (p *parser) override(r *record) { p.ev.Overrides = append(p.ev.Overrides, quote(r)) }
func (p *parser) fallback(r *record) { p.ev.Fallbacks = append(p.ev.Fallbacks, quote(r)) }

func (p *parser) fail(r *record) {
	if p.ev.Failure == nil {
		p.ev.Failure = lp(quote(r))
	}
}

func (p *parser) setProc(r *record, backend string) {
	if backend == "" {
		return
	}
	pr, ok := p.procs[r.tag]
	if !ok {
		pr = &proc{}
		p.procs[r.tag] = pr
		p.order = append(p.order, r.tag)
	}
	pr.backend = backend
	pr.line = quote(r)
}

func (p *parser) aux(k, v string) {
	if v != "" {
		p.ev.AuxBackends[k] = Normalise(v)
	}
}
