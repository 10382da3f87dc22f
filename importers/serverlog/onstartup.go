package serverlog

// Handlers of the start-up lines: versions, CLI and server arguments, platform and plugins,
// dtype casts, model and KV-cache figures (handlers.go files them by first word).

import "strings"

func (p *parser) onCast(r *record, m string) bool {
	if !strings.HasPrefix(m, "Casting torch.") && !strings.HasPrefix(m, "Upcasting ") && !strings.HasPrefix(m, "Downcasting ") {
		return false
	}
	p.cast(r, m)
	return true
}

func (p *parser) onChunked(r *record, m string) bool {
	if !strings.HasPrefix(m, "Chunked prefill is enabled") {
		return false
	}
	if sm := reChunk.FindStringSubmatch(m); sm != nil {
		p.kv("max_num_batched_tokens", sm[1])
	}
	return true
}

// onGPU reads "GPU KV cache size: N tokens".
func (p *parser) onGPU(r *record, m string) bool {
	sm := reKVTok.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.kv("kv_cache_tokens", sm[1])
	return true
}

func (p *parser) onInitializing(r *record, m string) bool {
	if !strings.HasPrefix(m, "Initializing a") {
		return false
	}
	p.engine(r, m)
	return true
}

func (p *parser) onIf(r *record, m string) bool {
	if !strings.HasPrefix(m, "If prefix caching is enabled, block size must be set to 128") {
		return false
	}
	p.override(r)
	return true
}

func (p *parser) onAutomatically(r *record, m string) bool {
	if !strings.HasPrefix(m, "Automatically detected platform") {
		return false
	}
	if sm := rePlatform.FindStringSubmatch(m); sm != nil {
		p.platformDetected = strings.ToLower(sm[1])
	}
	return true
}

// onAvailable reads the KV-cache memory and the start of the platform plugin list.
func (p *parser) onAvailable(r *record, m string) bool {
	switch {
	case strings.HasPrefix(m, "Available KV cache memory"):
		if sm := reKVMem.FindStringSubmatch(m); sm != nil {
			p.kv("kv_cache_gib", sm[1])
		}
		return true
	case strings.HasPrefix(m, "Available plugins for group vllm.platform_plugins"):
		p.pluginGroup = true
		return true
	}
	return false
}

func (p *parser) onPlatform(r *record, m string) bool {
	sm := rePlugin.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	name := sm[1]
	p.addPlugin(name)
	if name == "ascend" {
		p.ascendActive, p.ascendHas = true, true
	}
	p.platformDetected = pluginPlatform(name)
	return true
}

func (p *parser) onResolved(r *record, m string) bool {
	sm := reArch.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	if p.arch == "" {
		p.arch = sm[1]
	}
	return true
}

// onForcing reads the block-size override; other "Forcing …" lines go to generic.
func (p *parser) onForcing(r *record, m string) bool {
	if !strings.HasPrefix(m, "Forcing kv cache block size") {
		return false
	}
	p.override(r)
	return true
}

func (p *parser) onFailed(r *record, m string) bool {
	if !strings.HasPrefix(m, "Failed to load plugin ") {
		return false
	}
	if strings.Contains(m, "ascend") {
		p.ascendHas = true
	}
	return true
}

// onBlocks reads "# GPU blocks: N, # CPU blocks: M".
func (p *parser) onBlocks(r *record, m string) bool {
	sm := reGPUBlocks.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.kv("gpu_blocks", sm[1])
	p.kv("cpu_blocks", sm[2])
	return true
}

func (p *parser) onMaximum(r *record, m string) bool {
	sm := reMaxConc.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.kv("max_concurrency_tokens", sm[1])
	p.kv("max_concurrency", sm[2])
	return true
}

func (p *parser) onModel(r *record, m string) bool {
	sm := reLoadNew.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.kv("model_weights_gib", sm[1])
	p.kv("model_load_s", sm[2])
	return true
}

func (p *parser) onLoading(r *record, m string) bool {
	sm := reLoadOld.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.kv("model_weights_gib", sm[1])
	return true
}

func (p *parser) onKV(r *record, m string) bool {
	sm := reSGLKV.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.sawSGL = true
	p.kv("kv_cache_tokens", sm[1])
	return true
}

// onArgs reads the CLI arguments of vLLM ≤0.8.4 ("args: Namespace(…)").
func (p *parser) onArgs(r *record, m string) bool {
	if !strings.HasPrefix(m, "args: Namespace(") {
		return false
	}
	ns := strings.TrimPrefix(m, "args: Namespace(")
	ns = strings.TrimSuffix(ns, ")")
	parseKV(ns, p.vllmArgs)
	p.argsLine = lp(quote(r))
	return true
}

// onNonDefault reads the CLI arguments of vLLM ≥0.8.5 ("non-default args: {…}").
func (p *parser) onNonDefault(r *record, m string) bool {
	if !strings.HasPrefix(m, "non-default args: ") {
		return false
	}
	parseDict(strings.TrimPrefix(m, "non-default args: "), p.vllmArgs)
	p.argsLine = lp(quote(r))
	return true
}

func (p *parser) onName(r *record, m string) bool {
	if !strings.HasPrefix(m, "name=ascend, value=") {
		return false
	}
	p.ascendHas = true
	return true
}

// onVLLM reads the server version lines and the disabled compile cache.
func (p *parser) onVLLM(r *record, m string) bool {
	if sm := reSrvVer.FindStringSubmatch(m); sm != nil {
		p.srvVersion = sm[1]
		return true
	}
	if sm := reSrvVerNew.FindStringSubmatch(m); sm != nil {
		p.srvVersion = sm[1]
		if p.modelName == "" {
			p.modelName = sm[2]
		}
		return true
	}
	if strings.HasPrefix(m, "vLLM's torch.compile cache is disabled") {
		p.compileOn = true
		p.graphLine("compile-cache-disabled", r)
		return true
	}
	return false
}

func (p *parser) onPlugin(r *record, m string) bool {
	sm := rePluginLoad.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.addPlugin(sm[1])
	return true
}

// onServerArgs reads SGLang's "server_args=ServerArgs(…)".
func (p *parser) onServerArgs(r *record, m string) bool {
	if !strings.HasPrefix(m, "server_args=ServerArgs(") {
		return false
	}
	p.sawSGL = true
	sa := strings.TrimPrefix(m, "server_args=ServerArgs(")
	sa = strings.TrimSuffix(sa, ")")
	parseKV(sa, p.sglArgs)
	p.sglArgsLine = lp(quote(r))
	return true
}

func (p *parser) onSGLang(r *record, m string) bool {
	sm := reSGLVer.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.sglVersion = sm[1]
	return true
}

// onPluginEntry reads a "- ascend -> vllm_ascend:register" line of the plugin list.
func (p *parser) onPluginEntry(r *record, m string) bool {
	if !p.pluginGroup {
		return false
	}
	if sm := rePluginAvail.FindStringSubmatch(m); sm != nil && sm[1] == "ascend" {
		p.ascendHas = true
	}
	return true
}
