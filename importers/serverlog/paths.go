package serverlog

import (
	"regexp"
	"strings"

	"benchlens/model"
)

// Path evidence beyond attention (METHOD.md rule 10): what the log says about the linear /
// quantisation kernel, the MoE backend, the sampler, the all-reduce and the graph mode, kept in
// AuxBackends under the keys the compare reads (linear, moe, sampler, all_reduce, graph), each
// with its line in AuxLines. The messages are vLLM's:
//
//   - linear: "Using %s for %s" (choose_mp_linear_kernel, 0.6-0.9: "Using MarlinLinearKernel for
//     GPTQMarlinLinearMethod") and "Selected %s for %s" (init_fp8_linear_kernel / scaled-mm and
//     mixed-precision kernel choice, 0.10+: "Selected CutlassFP8ScaledMMLinearKernel for
//     Fp8LinearMethod"), and the weight-only FP8 fallback "…leveraging the Marlin kernel";
//   - MoE and sampler: the "Using … MoE …" and "Using FlashInfer for top-p & top-k sampling" lines
//     read by using();
//   - all-reduce: custom_all_reduce.py's "Custom allreduce is disabled because …" / "… due to an
//     unsupported world size …", else disable_custom_all_reduce in the engine config or args;
//   - graph: the CUDA / ACL graph decision of graphs(), the compilation config's cudagraph_mode
//     and its level (V1 0.6-0.10) or mode (0.11+).
var (
	reLinearKernel = regexp.MustCompile(`^(?:Using|Selected) (\w*(?:Kernel|ScaledMM\w*|Linear\w*)) for (\w+)`)
	reCGMode       = regexp.MustCompile(`cudagraph_mode['"]?\s*[:=]\s*(?:<CUDAGraphMode\.(\w+)|(\[[\d, ]+\]|\d+))`)
)

// auxLine sets a path's aux backend with the line behind it.
func (p *parser) auxLine(key, value string, r *record) {
	if value == "" {
		return
	}
	p.ev.AuxBackends[key] = value
	if p.ev.AuxLines == nil {
		p.ev.AuxLines = map[string]model.Line{}
	}
	p.ev.AuxLines[key] = quote(r)
}

// pathLine reads the linear-kernel and all-reduce lines; it reports whether m was one.
func (p *parser) pathLine(r *record, m string) bool {
	switch m[0] {
	case 'U', 'S':
		if sm := reLinearKernel.FindStringSubmatch(m); sm != nil && !strings.HasSuffix(sm[1], "Backend") {
			p.auxLine("linear", sm[1], r)
			return true
		}
	case 'C':
		if strings.HasPrefix(m, "Custom allreduce is disabled") || strings.HasPrefix(m, "Custom all-reduce is disabled") {
			p.auxLine("all_reduce", "nccl (custom all-reduce disabled)", r)
			return true
		}
	case 'Y':
		if strings.HasPrefix(m, "Your GPU does not have native support for FP8") && strings.Contains(m, "Marlin") {
			p.auxLine("linear", "Marlin (weight-only FP8)", r)
			return true
		}
	}
	return false
}

// finishPaths fills the all-reduce and graph entries the config tells when no line did.
func (p *parser) finishPaths() {
	ev := p.ev
	cfg := ev.EngineConfig
	if _, ok := ev.AuxBackends["all_reduce"]; !ok {
		tp := firstOf(cfg["tensor_parallel_size"], ev.Args["tensor_parallel_size"], ev.Args["tp_size"])
		lib := map[string]string{"npu": "hccl", "rocm": "rccl"}[ev.Platform]
		if lib == "" {
			lib = "nccl"
		}
		switch dis := firstOf(cfg["disable_custom_all_reduce"], ev.Args["disable_custom_all_reduce"]); {
		case strings.EqualFold(dis, "True"):
			ev.AuxBackends["all_reduce"] = lib + " (disable_custom_all_reduce=True)"
		case tp != "" && tp != "1" && strings.EqualFold(dis, "False"):
			ev.AuxBackends["all_reduce"] = "custom"
		}
	}
	var parts []string
	if ev.Eager != "" {
		parts = append(parts, ev.Eager)
	}
	cc := cfg["compilation_config"]
	if sm := reCGMode.FindStringSubmatch(cc); sm != nil && ev.Eager != "eager" {
		parts = append(parts, "cudagraph_mode "+firstOf(sm[1], sm[2]))
	}
	if sm := reCompMode.FindStringSubmatch(cc); sm != nil {
		parts = append(parts, "compile "+sm[1])
	} else if sm := reCompLevel.FindStringSubmatch(cc); sm != nil {
		parts = append(parts, "compile level "+sm[1])
	} else if ev.TorchCompile != "" {
		parts = append(parts, "torch.compile "+ev.TorchCompile)
	}
	if len(parts) > 0 {
		ev.AuxBackends["graph"] = strings.Join(parts, ", ")
		if len(ev.GraphLines) > 0 {
			if ev.AuxLines == nil {
				ev.AuxLines = map[string]model.Line{}
			}
			ev.AuxLines["graph"] = ev.GraphLines[0]
		}
	}
}

func firstOf(xs ...string) string {
	for _, x := range xs {
		if x != "" && x != "None" {
			return x
		}
	}
	return ""
}
