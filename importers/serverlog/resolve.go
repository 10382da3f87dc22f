package serverlog

// Resolution: once every line is read, finish decides the engine, version, platform, model
// facts, target and resolved backend, graph mode and status from the parser state.

import (
	"strconv"
	"strings"

	"benchlens/model"
)

// version is a parsed "major.minor.patch" prefix.
type version struct{ major, minor, patch int }

func parseVersion(s string) (version, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "v")
	var v version
	parts := strings.SplitN(s, ".", 4)
	if len(parts) < 2 {
		return v, false
	}
	nums := make([]int, 3)
	for i := 0; i < len(parts) && i < 3; i++ {
		j := 0
		for j < len(parts[i]) && isDigit(parts[i][j]) {
			j++
		}
		if j == 0 {
			if i < 2 {
				return v, false
			}
			break
		}
		nums[i], _ = strconv.Atoi(parts[i][:j])
		if j < len(parts[i]) {
			break
		}
	}
	return version{nums[0], nums[1], nums[2]}, true
}

func (v version) less(major, minor, patch int) bool {
	if v.major != major {
		return v.major < major
	}
	if v.minor != minor {
		return v.minor < minor
	}
	return v.patch < patch
}

// mlaArchs are architectures whose attention is MLA (vLLM's is_deepseek_mla model types, and
// the models built on them).
var mlaArchs = []string{"DeepseekV2", "DeepseekV3", "DeepSeekMTP", "MiniCPM3", "KimiVL", "DeepseekVLV2", "KimiK2",
	"KimiLinear", "LongcatFlash", "PanguUltraMoE"}

// finish turns what was seen into the evidence record.
func (p *parser) finish() *model.LogEvidence {
	if p.client != nil && !p.serverSpoke() {
		return p.clientConsole()
	}
	ev := p.ev
	for k, v := range p.vllmArgs {
		ev.Args[k] = v
	}
	for k, v := range p.sglArgs {
		ev.Args[k] = v
	}
	cfg := ev.EngineConfig

	// engine
	switch {
	case p.sawSGL || p.sglArgsLine != nil || (p.sglLines > 0 && p.vllmLines == 0 && p.sglDefault != ""):
		ev.Engine = "sglang"
	case p.ascendActive || p.ascendHas || p.sawAscendMsg || strings.HasPrefix(cfg["device_config"], "npu"):
		ev.Engine = "vllm-ascend"
	case p.vllmLines > 0 || p.engineInit || p.srvVersion != "" || p.argsLine != nil:
		ev.Engine = "vllm"
	}

	// version
	ev.Version = p.srvVersion
	if ev.Version == "" {
		ev.Version = p.engVersion
	}
	if ev.Engine == "sglang" && p.sglVersion != "" {
		ev.Version = p.sglVersion
	}

	// model facts
	if p.modelName == "" {
		for _, k := range []string{"model", "model_path", "model_tag"} {
			if v := cfg[k]; v != "" {
				p.modelName = v
				break
			}
			if v := ev.Args[k]; v != "" {
				p.modelName = v
				break
			}
		}
	}
	if p.arch != "" {
		if _, ok := cfg["architecture"]; !ok {
			cfg["architecture"] = p.arch
		}
	}
	if p.maxModelLen != "" {
		if _, ok := cfg["max_model_len"]; !ok {
			cfg["max_model_len"] = p.maxModelLen
		}
	}
	for _, a := range mlaArchs {
		if strings.Contains(p.arch, a) {
			p.mla = true
		}
	}
	// The name only decides when no architecture line does, and a distilled model is dense:
	// DeepSeek-R1-Distill-Qwen / -Llama are Qwen2 / Llama.
	lmn := strings.ToLower(p.modelName)
	for _, s := range []string{"deepseek-v2", "deepseek-v3", "deepseek-r1", "kimi-k2"} {
		if strings.Contains(lmn, s) && p.arch == "" && !strings.Contains(lmn, "distill") {
			p.mla = true
		}
	}

	// platform
	switch {
	case p.platformDetected != "":
		ev.Platform = p.platformDetected
	case cfg["device_config"] != "" && cfg["device_config"] != "auto":
		ev.Platform = strings.SplitN(cfg["device_config"], ":", 2)[0]
	case ev.Args["device"] != "" && ev.Args["device"] != "None" && ev.Args["device"] != "auto":
		ev.Platform = ev.Args["device"]
	}
	if p.noPlatform != nil && !p.ascendActive && (ev.Platform == "" || p.platformDetected == "") {
		ev.Platform = "unspecified"
		ev.Overrides = append(ev.Overrides, *p.noPlatform)
	}
	if ev.Engine == "vllm-ascend" && ev.Platform == "" && p.ascendActive {
		ev.Platform = "npu"
	}
	if ev.Platform == "" && p.platformHint != "" {
		ev.Platform = p.platformHint
	}

	// dtype
	if d := cfg["dtype"]; d != "" {
		ev.Dtype = strings.TrimPrefix(d, "torch.")
	} else if p.dtypeCast != "" {
		ev.Dtype = p.dtypeCast
	} else if d := ev.Args["dtype"]; d != "" && d != "auto" && d != "None" {
		ev.Dtype = strings.TrimPrefix(d, "torch.")
	}

	// torchair from additional_config
	if ac := ev.Args["additional_config"]; ac != "" && reTorchair.MatchString(ac) {
		p.torchair = true
	}

	p.resolve()
	p.graphs()
	p.status()
	p.finishPaths()
	p.finishFailure()

	if len(ev.EngineConfig) == 0 {
		ev.EngineConfig = nil
	}
	if len(ev.Args) == 0 {
		ev.Args = nil
	}
	if len(ev.KVCache) == 0 {
		ev.KVCache = nil
	}
	if len(ev.AuxBackends) == 0 {
		ev.AuxBackends = nil
	}
	if ev.Engine == "vllm-ascend" && ev.Resolved == "" && ev.Platform == "npu" {
		ev.Resolved = ascendClass(p.ev.Version, p.engineMode, p.ascendAttention(), p.torchair)
		ev.ResolvedHow = model.ResolvedInferred
		if ev.TargetBackend == "" {
			ev.TargetBackend, ev.TargetSource = ev.Resolved, model.TargetDefault
		}
	}
	if ev.Status == "" {
		ev.Status = model.BackendUnknown
	}
	return ev
}

// resolve sets the processes, the resolved backend and the target.
func (p *parser) resolve() {
	ev := p.ev
	seen := map[string]int{}
	for _, tag := range p.order {
		pr := p.procs[tag]
		ev.Processes = append(ev.Processes, model.ProcessBackend{Tag: tag, Backend: pr.backend, Line: pr.line})
		seen[pr.backend]++
		if strings.Contains(pr.backend, "MLA") {
			p.mla = true
		}
		if strings.HasPrefix(pr.backend, "ROCM") && ev.Platform == "" {
			ev.Platform = "rocm"
		}
	}
	switch len(seen) {
	case 0:
	case 1:
		ev.Resolved = ev.Processes[0].Backend
		ev.ResolvedHow = model.ResolvedLogged
	default:
		ev.Resolved = "MIXED"
		ev.ResolvedHow = model.ResolvedLogged
	}
	v, vok := parseVersion(ev.Version)
	// 0.5.x: the FLASH_ATTN path prints nothing
	if ev.Resolved == "" && ev.Engine == "vllm" && vok && v.major == 0 && v.minor == 5 && p.engineInit && !p.faGuard && ev.Failure == nil &&
		(ev.Platform == "" || ev.Platform == "cuda") {
		ev.Resolved = "FLASH_ATTN"
		ev.ResolvedHow = model.ResolvedInferred
	}

	// target
	flag, flagLine := "", (*model.Line)(nil)
	if ev.Engine == "sglang" {
		if b := Normalise(p.sglArgs["attention_backend"]); b != "" {
			flag, flagLine = b, p.sglArgsLine
		}
	} else {
		if b := Normalise(p.vllmArgs["attention_backend"]); b != "" {
			flag, flagLine = b, p.argsLine
		} else if ac := p.vllmArgs["attention_config"]; ac != "" {
			if sm := reCfgBackend.FindStringSubmatch(ac); sm != nil {
				if b := Normalise(sm[1]); b != "" {
					flag, flagLine = b, p.argsLine
				}
			}
		}
	}
	switch {
	case p.sglDefault != "" && flag == "":
		ev.TargetBackend, ev.TargetSource, ev.TargetLine = p.sglDefault, model.TargetDefault, p.sglDefaultLine
	case flag != "":
		ev.TargetBackend, ev.TargetSource, ev.TargetLine = flag, model.TargetFlag, flagLine
	case p.envTarget != "":
		ev.TargetBackend, ev.TargetSource, ev.TargetLine = p.envTarget, model.TargetEnv, p.envLine
	case p.envLine != nil:
		// the variable is set but its value is not echoed: the explicit selection it forced
		b := p.forcedTarget
		if b == "" {
			b = p.selTarget
		}
		if b == "" && len(ev.Processes) > 0 {
			b = ev.Processes[0].Backend
		}
		ev.TargetBackend, ev.TargetSource, ev.TargetLine = b, model.TargetEnv, p.envLine
	case p.forcedTarget != "":
		ev.TargetBackend, ev.TargetSource, ev.TargetLine = p.forcedTarget, model.TargetEnv, p.forcedLine
	case p.selTarget != "":
		ev.TargetBackend, ev.TargetSource, ev.TargetLine = p.selTarget, model.TargetEnv, p.selLine
	case ev.Engine == "vllm" || (ev.Engine == "" && ev.Resolved != ""):
		ev.TargetBackend = p.defaultTarget(v, vok)
		if ev.TargetBackend != "" {
			ev.TargetSource = model.TargetDefault
		}
	}
	// "Using X backend out of potential backends: ['X']": with one candidate on offer the
	// server had no other choice, so the era's default is not what it was asked for.
	if ev.TargetSource == model.TargetDefault && ev.Resolved != "" && ev.Resolved != "MIXED" && ev.TargetBackend != ev.Resolved {
		only := len(p.order) > 0
		for _, tag := range p.order {
			only = only && p.procs[tag].only
		}
		if only {
			pr := p.procs[p.order[0]]
			ev.TargetBackend, ev.TargetSource, ev.TargetLine = ev.Resolved, model.TargetOnlyCandidate, lp(pr.line)
		}
	}
	// SGLang's FP8 guard rewrites fa3 to triton before the dump: the intent was fa3.
	if p.fp8Guard && ev.TargetBackend == "TRITON_ATTN" {
		ev.TargetBackend = "FLASH_ATTN"
	}
	if p.fp8Guard && ev.TargetBackend == "" {
		ev.TargetBackend, ev.TargetSource = "FLASH_ATTN", model.TargetDefault
	}
}

// defaultTarget is the platform default of the era (spec 3.1 item 4).
func (p *parser) defaultTarget(v version, vok bool) string {
	ev := p.ev
	v0 := p.engineMode == "V0" || (p.engineMode == "" && vok && v.less(0, 8, 0))
	switch ev.Platform {
	case "rocm":
		if p.mla {
			return "TRITON_MLA"
		}
		if v0 {
			return "ROCM_FLASH"
		}
		return "TRITON_ATTN"
	case "cpu":
		return "TORCH_SDPA"
	case "tpu":
		return "PALLAS"
	case "xpu":
		if vok && v.less(0, 10, 0) {
			return "IPEX"
		}
		return "FLASH_ATTN"
	case "openvino":
		return "OPENVINO"
	case "unspecified", "npu":
		return ""
	}
	newEra := vok && !v.less(0, 12, 0)
	if p.mla {
		switch {
		case p.blackwell:
			return "CUTLASS_MLA"
		case vok && v.less(0, 8, 0):
			return "TRITON_MLA"
		case newEra || !vok:
			return "FLASH_ATTN_MLA"
		}
		return "FLASHMLA"
	}
	if p.blackwell {
		return "FLASHINFER"
	}
	return "FLASH_ATTN"
}

// graphs decides eager / graph / compile.
func (p *parser) graphs() {
	ev := p.ev
	cfg := ev.EngineConfig
	enforce := strings.EqualFold(cfg["enforce_eager"], "True") || strings.EqualFold(ev.Args["enforce_eager"], "True") ||
		strings.EqualFold(p.sglArgs["disable_cuda_graph"], "True")
	cc := cfg["compilation_config"]
	cgNone := cc != "" && reCGNone.MatchString(cc)
	graphName := "cuda_graph"
	if ev.Platform == "npu" {
		graphName = "acl_graph"
	}
	switch {
	case p.graph:
		ev.Eager = graphName
	case p.eagerLine || enforce:
		ev.Eager = "eager"
	case p.aclGraph || p.torchair:
		ev.Eager = "acl_graph"
	case cgNone:
		ev.Eager = "eager"
	}
	switch {
	case p.compileOn:
		ev.TorchCompile = "on"
	case p.compileOff:
		ev.TorchCompile = "off"
	case cc != "":
		if sm := reCompMode.FindStringSubmatch(cc); sm != nil {
			if sm[1] == "NONE" {
				ev.TorchCompile = "off"
			} else {
				ev.TorchCompile = "on"
			}
		} else if sm := reCompLevel.FindStringSubmatch(cc); sm != nil {
			if sm[1] == "0" {
				ev.TorchCompile = "off"
			} else if p.engineMode != "V0" {
				ev.TorchCompile = "on"
			}
		}
	case p.sglArgs["enable_torch_compile"] != "":
		if strings.EqualFold(p.sglArgs["enable_torch_compile"], "True") {
			ev.TorchCompile = "on"
		} else {
			ev.TorchCompile = "off"
		}
	}
}

// status compares target and resolved (spec 3.4).
func (p *parser) status() {
	ev := p.ev
	switch {
	case ev.Failure != nil:
		ev.Status = model.BackendFailed
		return
	case ev.Resolved == "" || ev.ResolvedHow == model.ResolvedInferred || ev.TargetBackend == "":
		ev.Status = model.BackendUnknown
		return
	}
	mismatch := false
	for _, pr := range ev.Processes {
		if pr.Backend != ev.TargetBackend {
			mismatch = true
		}
	}
	if !mismatch {
		ev.Status = model.BackendMatch
		return
	}
	fam := family(ev.TargetBackend)
	for _, l := range ev.Fallbacks {
		ms := mentioned(l.Text)
		if len(ms) == 0 || ms[fam] {
			ev.Status = model.BackendFallback
			return
		}
	}
	ev.Status = model.BackendSilentOverride
}
