package serverlog

// Handlers of the lines that name an attention backend: the one resolved, a guard or fallback,
// a fatal selection error, SGLang's defaults and the auxiliary backends (handlers.go files
// them by first word).

import "strings"

func (p *parser) onUsing(r *record, m string) bool {
	if !strings.HasPrefix(m, "Using ") {
		return false
	}
	p.using(r, m)
	return true
}

// onUse reads SGLang's DeepSeek DSA / NSA choice; every other "Use …" line is left unread.
func (p *parser) onUse(r *record, m string) bool {
	if !strings.HasPrefix(m, "Use ") {
		return false
	}
	if sm := reSGLDSA.FindStringSubmatch(m); sm != nil {
		p.sawSGL = true
		p.setProc(r, Normalise(sm[1]))
		p.override(r)
	}
	return true
}

// onCannot reads a guard line ("Cannot use FlashAttention-2 backend for Volta and Turing GPUs.").
func (p *parser) onCannot(r *record, m string) bool {
	if !strings.HasPrefix(m, "Cannot use ") {
		return false
	}
	if mentioned(m)["FLASH_ATTN"] {
		p.faGuard = true
	}
	p.fallback(r)
	return true
}

// onInvalid reads "Invalid attention backend 'X'": the environment's target, refused.
func (p *parser) onInvalid(r *record, m string) bool {
	sm := reInvalidEnv.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	if p.envTarget == "" {
		p.envTarget, p.envLine = Normalise(sm[1]), lp(quote(r))
	}
	p.fail(r)
	return true
}

// onAttention reads SGLang's default backend ("Attention backend not set. Use fa3 backend by
// default.").
func (p *parser) onAttention(r *record, m string) bool {
	if !strings.HasPrefix(m, "Attention backend not") {
		return false
	}
	if sm := reSGLNotSet.FindStringSubmatch(m); sm != nil {
		p.sawSGL = true
		b := sm[1]
		if b == "" {
			b = sm[2]
		}
		nb := Normalise(b)
		if p.sglDefault == "" {
			p.sglDefault, p.sglDefaultLine = nb, lp(quote(r))
		}
		p.setProc(r, nb)
	}
	return true
}

func (p *parser) onPlease(r *record, m string) bool {
	if !strings.HasPrefix(m, "Please use FlashInfer backend with FP8 KV Cache") {
		return false
	}
	p.fallback(r)
	return true
}

func (p *parser) onNo(r *record, m string) bool {
	switch {
	case strings.HasPrefix(m, "No platform detected"):
		if p.noPlatform == nil {
			p.noPlatform = lp(quote(r))
		}
		return true
	case strings.HasPrefix(m, "No valid attention backend found"):
		p.fail(r)
		return true
	}
	return false
}

func (p *parser) onSome(r *record, m string) bool {
	if !strings.HasPrefix(m, "Some attention backends are not valid") {
		return false
	}
	p.fallback(r)
	if reUseMLA.MatchString(m) {
		p.mla = true
	}
	return true
}

func (p *parser) onSelected(r *record, m string) bool {
	if !strings.HasPrefix(m, "Selected backend") {
		return false
	}
	if sm := reSelInvalid.FindStringSubmatch(m); sm != nil && p.selTarget == "" {
		p.selTarget, p.selLine = Normalise(sm[1]), lp(quote(r))
	}
	p.fail(r)
	return true
}

// onSet reads SGLang's NSA backends; other "Set …" lines (block size) go to generic.
func (p *parser) onSet(r *record, m string) bool {
	if !strings.HasPrefix(m, "Set NSA backends") {
		return false
	}
	if sm := reSGLNSA.FindStringSubmatch(m); sm != nil {
		p.sawSGL = true
		p.ev.AuxBackends["nsa_prefill"] = sm[1]
		p.ev.AuxBackends["nsa_decode"] = sm[2]
	}
	return true
}

// onFlashAttention3 reads SGLang's FP8 guard, which sets the backend to triton.
func (p *parser) onFlashAttention3(r *record, m string) bool {
	if !strings.HasPrefix(m, "FlashAttention3 only supports fp8_e4m3") {
		return false
	}
	p.sawSGL = true
	p.fp8Guard = true
	p.fallback(r)
	p.setProc(r, "TRITON_ATTN")
	return true
}

func (p *parser) onFlashMLA(r *record, m string) bool {
	if !strings.HasPrefix(m, "FlashMLA backend is not supported") {
		return false
	}
	p.fallback(r)
	p.mla = true
	return true
}

func (p *parser) onFlashInfer(r *record, m string) bool {
	switch {
	case strings.HasPrefix(m, "FlashInfer failed to import for V1 engine on Blackwell"):
		p.blackwell = true
		p.fallback(r)
		return true
	case strings.HasPrefix(m, "FlashInfer is not available. Falling back to the PyTorch-native"):
		p.auxLine("sampler", "pytorch-native", r)
		return true
	}
	return false
}

func (p *parser) onFlash(r *record, m string) bool {
	if !strings.HasPrefix(m, "Flash Attention on XPU does not support") {
		return false
	}
	p.fallback(r)
	return true
}

func (p *parser) onMultimodal(r *record, m string) bool {
	sm := reSGLMM.FindStringSubmatch(m)
	if sm == nil {
		return false
	}
	p.aux("vit", sm[1]+sm[2])
	return true
}

// onThe reads vLLM's note on the _VLLM_V1 suffix: VLLM_ATTENTION_BACKEND was set.
func (p *parser) onThe(r *record, m string) bool {
	if !strings.HasPrefix(m, "The suffix '_VLLM_V1' in the environment variable VLLM_ATTENTION_BACKEND") {
		return false
	}
	if p.envLine == nil {
		p.envLine = lp(quote(r))
	}
	return true
}
