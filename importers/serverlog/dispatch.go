package serverlog

// Line dispatch: handle reads what every record may carry (the vllm-ascend prefix, start-up
// failures, path lines, fatal errors), then files the message by its first word in the
// handlers table (handlers.go); a message no handler takes goes to generic, which reads the
// lines of no fixed first word. The "Using …" lines (using) and the engine config line
// (engine) have their own methods.

import (
	"regexp"
	"strings"
)

var (
	reSrvVer      = regexp.MustCompile(`^vLLM API server version (\S+)`)
	reSrvVerNew   = regexp.MustCompile(`^vLLM server version (\S+?),? serving model (\S+)`)
	reLogoVer     = regexp.MustCompile(`(?:^|\s)version\s+v?(\d[\w.+-]*)\s*$`)
	reEngine      = regexp.MustCompile(`^Initializing (?:an|a (V0|V1)) LLM engine (?:\(v([^)]+)\) )?with config: (.*)$`)
	rePlatform    = regexp.MustCompile(`^Automatically detected platform (\w+)`)
	rePlugin      = regexp.MustCompile(`^Platform plugin (\S+) is activated`)
	rePluginLoad  = regexp.MustCompile(`^plugin (\S+) loaded`)
	rePluginAvail = regexp.MustCompile(`^- (\S+) -> (\S+)$`)
	reCast        = regexp.MustCompile(`^(?:Casting|Downcasting|Upcasting) torch\.(\w+) to torch\.(\w+)`)
	reNoBF16      = regexp.MustCompile(`doesn't support torch\.bfloat16\. Falling back to torch\.(\w+)`)
	reAuto        = regexp.MustCompile(`^Using ([A-Za-z0-9_]+) attention backend out of potential backends: (\[.*?\])`)
	reForced      = regexp.MustCompile(`^Using (?:AttentionBackendEnum|_Backend)\.([A-Za-z0-9_]+) backend\.?\s*$`)
	reUsing       = regexp.MustCompile(`^Using (.{1,48}?) backend\b(.*)$`)
	reLayout      = regexp.MustCompile(`^Using (NHD|HND) KV cache layout for (\S+) backend`)
	reFAVer       = regexp.MustCompile(`^Using FlashAttention version (\d)`)
	reSelInvalid  = regexp.MustCompile(`Selected backend (?:AttentionBackendEnum\.|_Backend\.)?([A-Za-z0-9_]+) (?:is not valid|does not support)`)
	reInvalidEnv  = regexp.MustCompile(`Invalid attention backend '([^']+)'`)
	reEnvAssign   = regexp.MustCompile(`(?:^|[\s"'{,])VLLM_ATTENTION_BACKEND['"]?\s*[=:]\s*['"]?([A-Za-z0-9_]+)`)
	reErr         = regexp.MustCompile(`^(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): `)
	reGPUBlocks   = regexp.MustCompile(`# (?:GPU|CUDA|cuda|npu|xpu|hpu|NPU) blocks: (\d+), # CPU blocks: (\d+)`)
	reNumBlocks   = regexp.MustCompile(`num_gpu_blocks is: (\d+)`)
	reKVMem       = regexp.MustCompile(`Available KV cache memory: ([\d.]+) GiB`)
	reKVTok       = regexp.MustCompile(`GPU KV cache size: ([\d,]+) tokens`)
	reMaxConc     = regexp.MustCompile(`Maximum concurrency for ([\d,]+) tokens per request: ([\d.]+)x`)
	reLoadNew     = regexp.MustCompile(`Model loading took ([\d.]+) ?GiB(?: memory)? and ([\d.]+) seconds`)
	reLoadOld     = regexp.MustCompile(`Loading model weights took ([\d.]+) GB`)
	reInit        = regexp.MustCompile(`init engine \(profile, create kv cache, warmup model\) took ([\d.]+) seconds`)
	reChunk       = regexp.MustCompile(`^Chunked prefill is enabled with max_num_batched_tokens=(\d+)`)
	reArch        = regexp.MustCompile(`^Resolved architecture: (\w+)`)
	reMaxLen      = regexp.MustCompile(`^Using max model len (\d+)`)
	reSGLNotSet   = regexp.MustCompile(`^Attention backend not (?:set|specified)\. (?:Use (\S+) backend by default|Falling back to '(\w+)')`)
	reSGLDSA      = regexp.MustCompile(`^Use (nsa|dsa) attention backend for`)
	reSGLNSA      = regexp.MustCompile(`^Set NSA backends for \S+ KV Cache: prefill=([^,\s]+), decode=([^,\s.]+)`)
	reSGLMM       = regexp.MustCompile(`^(?:Multimodal attention backend not set\. Use (\w+)|Using (\w+) as multimodal attention backend)`)
	reSGLKV       = regexp.MustCompile(`KV Cache is allocated\. #tokens: (\d+)`)
	reSGLLoad     = regexp.MustCompile(`^Load weight end\. type=(\w+), dtype=torch\.(\w+)`)
	reSGLMaxTok   = regexp.MustCompile(`max_total_num_tokens=(\d+)`)
	reSGLVer      = regexp.MustCompile(`^(?:sglang|SGLang)(?: version)?[:=]\s*v?(\d[\w.+-]*)\s*$`)
	reCfgBackend  = regexp.MustCompile(`backend['"]?\s*[=:]\s*(<[^>]*>|'[^']*'|"[^"]*"|[A-Za-z0-9_.]+)`)
	reCompMode    = regexp.MustCompile(`['"]?mode['"]?\s*[:=]\s*<CompilationMode\.(\w+)`)
	reCompLevel   = regexp.MustCompile(`['"]level['"]\s*:\s*(\d+)`)
	reCGNone      = regexp.MustCompile(`cudagraph_mode['"]?\s*[:=]\s*<CUDAGraphMode\.NONE|"use_cudagraph"\s*:\s*false`)
	reTorchair    = regexp.MustCompile(`torchair_graph_config['"]?\s*:\s*\{[^}]*['"]enabled['"]\s*:\s*(?:True|true)`)
	reUseMLA      = regexp.MustCompile(`use_mla=True`)
)

// handle reads one record.
func (p *parser) handle(r *record) {
	if r.sgl {
		p.sglLines++
	} else if r.level != "" && r.file != "" {
		p.vllmLines++
	}
	m := strings.TrimSpace(r.msg)
	if m == "" {
		return
	}
	if p.client == nil && isClientArgs(m) {
		p.client = lp(quote(r))
		return
	}
	if strings.HasPrefix(m, "[vllm-ascend] ") {
		p.sawAscendMsg = true
		m = strings.TrimPrefix(m, "[vllm-ascend] ")
		// "[module] - msg"
		if m != "" && m[0] == '[' {
			if i := strings.Index(m, "] - "); i > 0 && i < 60 {
				m = m[i+4:]
			}
		}
	}
	// uvicorn access lines and metrics are the bulk of a long log: leave them fast.
	if strings.HasPrefix(m, "INFO:  ") {
		p.started = p.started || reStarted.MatchString(m)
		return
	}
	if p.platformDetected == "" && p.platformHint == "" {
		p.platformHint = platformHint(r, m)
	}
	if p.startFailure(r, m) || p.pathLine(r, m) {
		return
	}
	if !p.started && reStarted.MatchString(m) {
		p.started = true
	}

	// fatal errors first
	if (strings.Contains(m, "Error: ") || strings.Contains(m, "Exception: ")) && reErr.MatchString(m) {
		lm := strings.ToLower(m)
		if strings.Contains(lm, "attention") || strings.Contains(lm, "backend") || strings.Contains(lm, "attn") ||
			strings.Contains(lm, "block size") {
			if sm := reSelInvalid.FindStringSubmatch(m); sm != nil && p.selTarget == "" {
				p.selTarget, p.selLine = Normalise(sm[1]), lp(quote(r))
			}
			if sm := reInvalidEnv.FindStringSubmatch(m); sm != nil && p.envTarget == "" {
				p.envTarget, p.envLine = Normalise(sm[1]), lp(quote(r))
			}
			p.fail(r)
		} else if !p.started && r.level != "INFO" && r.level != "WARNING" && r.level != "DEBUG" {
			p.serverFail(r) // an exception before the server is up: it did not start
		}
		return
	}

	if h := handlers[firstWord(m)]; h != nil && h(p, r, m) {
		return
	}
	if p.pluginGroup && m[0] != '-' {
		p.pluginGroup = false
	}
	p.generic(r, m)
}

// figureLines are messages that carry one KV-cache or start-up figure: a cheap substring finds
// them, the expression reads the figure.
var figureLines = []struct {
	marker string
	re     *regexp.Regexp
	key    string
}{
	{"num_gpu_blocks is:", reNumBlocks, "gpu_blocks"},
	{"init engine (profile", reInit, "init_engine_s"},
	{"max_total_num_tokens=", reSGLMaxTok, "max_total_num_tokens"},
}

// generic handles messages that do not start with a known word: versions in the logo, torch.compile
// totals, overrides, env-var evidence and the generic guard rule of spec 3.4.
func (p *parser) generic(r *record, m string) {
	if strings.Contains(m, "torch.compile takes") || strings.Contains(m, "for vLLM's torch.compile") {
		p.compileOn = true
		p.graphLine("compile-"+m[:min(len(m), 12)], r)
		return
	}
	if strings.Contains(m, "VLLM_ATTENTION_BACKEND") {
		p.envEvidence(r, m)
		return
	}
	for _, f := range figureLines {
		if strings.Contains(m, f.marker) {
			if sm := f.re.FindStringSubmatch(m); sm != nil {
				p.kv(f.key, sm[1])
			}
			return
		}
	}
	if strings.Contains(m, "doesn't support torch.bfloat16") {
		if sm := reNoBF16.FindStringSubmatch(m); sm != nil {
			p.dtypeCast = sm[1]
		}
		p.override(r)
		return
	}
	if strings.Contains(m, "is not supported by the V1 Engine") && strings.Contains(m, "Falling back to V0") {
		p.override(r)
		return
	}
	if strings.Contains(m, "cudagraph_mode") && (strings.Contains(m, "verrid") || strings.Contains(m, "Forcing") || strings.Contains(m, "Setting")) {
		p.override(r)
		return
	}
	if (strings.Contains(m, "block_size") || strings.Contains(m, "block size")) &&
		(strings.HasPrefix(m, "Set") || strings.HasPrefix(m, "Forcing") || strings.HasPrefix(m, "Overriding")) {
		p.override(r)
		return
	}
	if strings.HasPrefix(m, "Load weight end.") {
		if sm := reSGLLoad.FindStringSubmatch(m); sm != nil {
			p.sawSGL = true
			if p.arch == "" {
				p.arch = sm[1]
			}
			p.dtypeCast = sm[2]
		}
		return
	}
	if strings.Contains(m, "Max model len") || strings.Contains(m, "max model len") {
		if sm := reMaxLen.FindStringSubmatch(m); sm != nil {
			p.maxModelLen = sm[1]
		}
		return
	}
	if strings.Contains(m, "is not supported in AMD GPUs") || strings.HasPrefix(m, "flash_atten is not supported") {
		p.fallback(r)
		return
	}
	if strings.HasSuffix(r.file, "api_utils.py") || strings.ContainsRune(m, '█') {
		if sm := reLogoVer.FindStringSubmatch(m); sm != nil && p.srvVersion == "" {
			p.srvVersion = sm[1]
		}
		return
	}
	// vllm-ascend resets a setting it has no use for ("GPU-specific parameter is not supported
	// on Ascend. parameter=disable_cascade_attn, value=True, action: resetting to False."): a
	// changed setting, not an attention fallback, whatever words it uses.
	if strings.Contains(m, "parameter=") && strings.Contains(m, "action: resetting") ||
		strings.HasPrefix(m, "User specified attention backend") && strings.Contains(m, "Resetting to None") {
		p.override(r)
		return
	}
	// the generic guard rule: an attention line that says something is not supported / falls back
	lm := strings.ToLower(m)
	if (strings.Contains(lm, "attention") || strings.Contains(lm, "attn")) &&
		(strings.Contains(lm, "not supported") || strings.Contains(lm, "falling back") || strings.Contains(lm, "fall back") ||
			strings.Contains(lm, "not valid") || strings.Contains(lm, "not compatible") || strings.Contains(lm, "unsupported")) &&
		!strings.Contains(lm, "sampling") && !strings.Contains(lm, "moe") && !strings.Contains(lm, "executor") &&
		!strings.Contains(lm, "multimodal") && !strings.Contains(lm, "vit") && !strings.Contains(lm, "mm encoder") &&
		!strings.Contains(lm, "v1 engine. falling back to v0") && !strings.Contains(lm, "deterministic") {
		p.fallback(r)
	}
}

func (p *parser) envEvidence(r *record, m string) {
	switch {
	case strings.HasPrefix(m, "Please use"), strings.Contains(m, "by setting environment variable"):
		p.fallback(r) // the FP8 advisory: a guard, not an intent
		return
	case strings.Contains(m, "is deprecated"):
		if p.envLine == nil {
			p.envLine = lp(quote(r))
		}
		return
	}
	if sm := reEnvAssign.FindStringSubmatch(m); sm != nil {
		if b := Normalise(sm[1]); b != "" {
			p.envTarget, p.envLine = b, lp(quote(r))
		}
	}
}

// using reads a "Using …" line: decoder resolution or an auxiliary backend.
func (p *parser) using(r *record, m string) {
	if strings.HasPrefix(m, "Using VLLM_ATTENTION_BACKEND") {
		if p.envLine == nil {
			p.envLine = lp(quote(r))
		}
		return
	}
	if sm := reMaxLen.FindStringSubmatch(m); sm != nil {
		p.maxModelLen = sm[1]
		return
	}
	if sm := reFAVer.FindStringSubmatch(m); sm != nil {
		p.ev.AuxBackends["flash_attn_version"] = sm[1]
		return
	}
	if sm := reLayout.FindStringSubmatch(m); sm != nil {
		p.ev.AuxBackends["kv_cache_layout"] = sm[1]
		return
	}
	if strings.Contains(m, " as multimodal attention backend") {
		if sm := reSGLMM.FindStringSubmatch(m); sm != nil {
			p.aux("vit", sm[2])
		}
		return
	}
	lm := strings.ToLower(m)
	// auxiliary components first: they never count as the decoder backend
	switch {
	case strings.Contains(m, "MMEncoder") || strings.Contains(lm, "vit attention") || strings.Contains(m, "ViT") ||
		strings.Contains(lm, "vision") || strings.Contains(lm, "multimodal"):
		p.aux("vit", auxName(m))
		return
	case strings.Contains(m, "MoE") || strings.Contains(lm, " moe "):
		p.auxLine("moe", moeName(m), r)
		return
	case strings.Contains(lm, "sampling"):
		p.auxLine("sampler", Normalise(strings.TrimSpace(strings.TrimPrefix(strings.SplitN(m, " for ", 2)[0], "Using "))), r)
		return
	case strings.Contains(m, "MLA prefill"):
		p.aux("mla_prefill", strings.TrimSpace(strings.TrimPrefix(m[:strings.Index(m, "MLA prefill")], "Using ")))
		return
	case strings.Contains(m, "Marlin"):
		p.ev.AuxBackends["marlin"] = strings.TrimSuffix(strings.Fields(m)[1], ".")
		return
	case strings.Contains(m, "TRTLLM attention") || strings.Contains(m, "TRTLLM Attention"):
		p.ev.AuxBackends["trtllm_attention"] = "on"
		return
	case strings.HasSuffix(m, "in ROCmBackend"):
		p.ev.AuxBackends["rocm_fa"] = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(m, "Using "), "in ROCmBackend"))
		return
	}
	if sm := reAuto.FindStringSubmatch(m); sm != nil {
		p.setProc(r, Normalise(sm[1]))
		if pr := p.procs[r.tag]; pr != nil {
			pr.only = strings.Count(sm[2], ",") == 0 && strings.Trim(sm[2], "[] ") != ""
		}
		return
	}
	if sm := reForced.FindStringSubmatch(m); sm != nil {
		b := Normalise(sm[1])
		if p.forcedTarget == "" {
			p.forcedTarget, p.forcedLine = b, lp(quote(r))
		}
		p.setProc(r, b)
		return
	}
	sm := reUsing.FindStringSubmatch(m)
	if sm == nil {
		return
	}
	name, rest := sm[1], sm[2]
	b := Normalise(name)
	if !decoder[b] {
		return
	}
	ok := rest == "" || rest == "." || strings.HasPrefix(rest, " on V1") || strings.HasPrefix(rest, " for head_size") ||
		strings.HasPrefix(rest, " with ") || strings.HasPrefix(rest, " by default")
	if !ok {
		return
	}
	if strings.Contains(rest, "Blackwell") {
		p.blackwell = true
	}
	p.setProc(r, b)
}

func auxName(m string) string {
	if i := strings.Index(m, "AttentionBackendEnum."); i >= 0 {
		f := strings.Fields(m[i:])
		return f[0]
	}
	s := strings.TrimPrefix(m, "Using ")
	s = strings.TrimPrefix(s, "backend ")
	for _, cut := range []string{" backend", " for ", " attention"} {
		if i := strings.Index(s, cut); i > 0 {
			s = s[:i]
		}
	}
	return s
}

func moeName(m string) string {
	if i := strings.IndexByte(m, '\''); i >= 0 {
		if j := strings.IndexByte(m[i+1:], '\''); j > 0 {
			return m[i+1 : i+1+j]
		}
	}
	f := strings.Fields(m)
	if len(f) > 1 {
		return strings.TrimSuffix(f[1], ".")
	}
	return m
}

func (p *parser) cast(r *record, m string) {
	if sm := reCast.FindStringSubmatch(m); sm != nil {
		p.dtypeCast = sm[2]
	}
	p.override(r)
}

func (p *parser) engine(r *record, m string) {
	sm := reEngine.FindStringSubmatch(m)
	if sm == nil {
		return
	}
	p.engineInit = true
	if p.engineMode == "" {
		p.engineMode = sm[1]
	}
	if p.engVersion == "" {
		p.engVersion = sm[2]
	}
	if !p.cfgSeen {
		p.cfgSeen = true
		parseKV(sm[3], p.ev.EngineConfig)
	}
}

func (p *parser) addPlugin(name string) {
	for _, x := range p.ev.Plugins {
		if x == name {
			return
		}
	}
	p.ev.Plugins = append(p.ev.Plugins, name)
}

func pluginPlatform(name string) string {
	switch strings.ToLower(name) {
	case "ascend", "npu":
		return "npu"
	}
	return strings.ToLower(name)
}
