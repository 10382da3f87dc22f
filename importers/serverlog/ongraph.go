package serverlog

// Handlers of the lines that say whether the server runs CUDA / ACL graphs, torch.compile or
// eager, and what forced it (handlers.go files them by first word).

import "strings"

// onCapturing reads CUDA / ACL / NPU graph capture lines.
func (p *parser) onCapturing(r *record, m string) bool {
	switch {
	case strings.HasPrefix(m, "Capturing the model for CUDA graphs"):
		p.graph = true
		p.graphLine(m[:12], r)
		return true
	case strings.HasPrefix(m, "Capturing CUDA graph"), strings.HasPrefix(m, "Capturing ACL graph"), strings.HasPrefix(m, "Capturing NPU graph"),
		strings.HasPrefix(m, "Capturing cudagraphs"), strings.HasPrefix(m, "Capturing batches"):
		p.graph = true
		kind := m
		if i := strings.IndexByte(kind, ':'); i > 0 {
			kind = kind[:i]
		}
		p.graphLine(kind, r)
		return true
	}
	return false
}

func (p *parser) onCUDA(r *record, m string) bool {
	if !strings.HasPrefix(m, "CUDA graphs can take additional") {
		return false
	}
	p.graph = true
	p.graphLine(m[:12], r)
	return true
}

// onCapture reads SGLang's graph capture.
func (p *parser) onCapture(r *record, m string) bool {
	if !strings.HasPrefix(m, "Capture cuda graph") && !strings.HasPrefix(m, "Capture npu graph") {
		return false
	}
	p.sawSGL = true
	p.graph = true
	p.graphLine(m[:min(len(m), 24)], r)
	return true
}

func (p *parser) onCudagraph(r *record, m string) bool {
	if !strings.HasPrefix(m, "Cudagraph is disabled under eager mode") {
		return false
	}
	p.eagerLine = true
	p.graphLine("cudagraph-disabled", r)
	return true
}

func (p *parser) onCompiling(r *record, m string) bool {
	if !strings.HasPrefix(m, "Compiling a graph for dynamic shape") {
		return false
	}
	p.compileOn = true
	p.graphLine("compile-dynamic", r)
	return true
}

// onCompilation reads vllm-ascend's "Compilation disabled, using eager mode by default".
func (p *parser) onCompilation(r *record, m string) bool {
	if !strings.HasPrefix(m, "Compilation disabled, using eager mode") {
		return false
	}
	p.eagerLine, p.compileOff = true, true
	p.graphLine("ascend-compile-disabled", r)
	return true
}

func (p *parser) onDynamo(r *record, m string) bool {
	if !strings.HasPrefix(m, "Dynamo bytecode transform time") {
		return false
	}
	p.compileOn = true
	p.graphLine("dynamo", r)
	return true
}

func (p *parser) onDirectly(r *record, m string) bool {
	if !strings.HasPrefix(m, "Directly load the compiled graph") {
		return false
	}
	p.compileOn = true
	p.graphLine("compile-cache-load", r)
	return true
}

func (p *parser) onData(r *record, m string) bool {
	if !strings.HasPrefix(m, "Data Parallel: Forcing enforce eager") {
		return false
	}
	p.eagerLine = true
	p.override(r)
	return true
}

func (p *parser) onEnforce(r *record, m string) bool {
	if !strings.HasPrefix(m, "Enforce eager set, disabling torch.compile") {
		return false
	}
	p.eagerLine, p.compileOff = true, true
	p.graphLine("enforce-eager", r)
	return true
}

func (p *parser) onGraph(r *record, m string) bool {
	if !strings.HasPrefix(m, "Graph capturing finished in") {
		return false
	}
	p.graph = true
	if len(p.ev.GraphLines) < 64 {
		p.ev.GraphLines = append(p.ev.GraphLines, quote(r))
	}
	return true
}

func (p *parser) onPiecewise(r *record, m string) bool {
	if !strings.HasPrefix(m, "PIECEWISE compilation enabled on NPU") {
		return false
	}
	p.aclGraph = true
	p.graphLine("ascend-piecewise", r)
	return true
}

func (p *parser) onNPU(r *record, m string) bool {
	if !strings.HasPrefix(m, "NPU does not support") || !strings.Contains(m, "NO_COMPILATION") {
		return false
	}
	p.compileOff = true
	p.override(r)
	return true
}

func (p *parser) onTorchair(r *record, m string) bool {
	if !strings.HasPrefix(m, "Torchair compilation enabled on NPU") {
		return false
	}
	p.torchair = true
	p.graphLine("torchair", r)
	return true
}

func (p *parser) onTo(r *record, m string) bool {
	if !strings.HasPrefix(m, "To see benefits of async output processing, enable CUDA graph") {
		return false
	}
	p.eagerLine = true
	p.graphLine("async-output-eager", r)
	return true
}

func (p *parser) onRay(r *record, m string) bool {
	if !strings.HasPrefix(m, "Ray distributed executor backend is not compatible with ACL Graph") {
		return false
	}
	p.eagerLine, p.compileOff = true, true
	p.override(r)
	return true
}

func (p *parser) onWideEP(r *record, m string) bool {
	if !strings.HasPrefix(m, "WideEP: Disabling CUDA Graphs") {
		return false
	}
	p.eagerLine = true
	p.override(r)
	return true
}

func (p *parser) onBacktick(r *record, m string) bool {
	if !strings.HasPrefix(m, "`torch.compile` is turned on, but the model") {
		return false
	}
	p.compileOff = true
	p.override(r)
	return true
}
