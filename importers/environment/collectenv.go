package environment

import (
	"regexp"
	"strings"

	"benchlens/model"
)

// collect_env (vllm/collect_env.py, vllm-ascend's collect_env.py, PyTorch's
// torch/utils/collect_env.py that both adapt) prints one fact a line, "Key: value". The eras:
//
//   - flat (vLLM <= 0.8; vllm-ascend throughout): "PyTorch version: 2.5.1+cu124", the vLLM
//     part unheaded after the libraries ("ROCM Version:", "Neuron SDK Version:", "vLLM
//     Version:", "vLLM Build Flags:", "GPU Topology:" and the raw topology), then, from v0.6.4
//     (vllm#9293), the variables as NAME=value lines with no header. Up to v0.5 the vLLM part
//     was glued to the last library line: "[conda] triton 2.1.0 pypi_0 pypiROCM Version: N/A".
//     vllm-ascend adds "vLLM Ascend Version:", "ENV Variables:", "NPU:" (npu-smi info) and
//     "CANN:" (ascend_toolkit_install.info).
//   - sectioned (vLLM >= 0.9, vllm#18285): sections framed by "=====" lines ("System Info",
//     "PyTorch Info", "CUDA / GPU Info", …, "Environment Variables"), keys padded to a column
//     ("Nvidia driver version        : 580.119.02"); 2026 adds "XPU used to build PyTorch" and
//     an "Intel XPU / GPU Info" section, and drops the Neuron line.
//
// Before "Collecting environment information..." may come the log lines of vLLM's imports.

// collectEnv reads any era of collect_env.
func (d *doc) collectEnv() {
	d.ev.Tool, d.ev.Era = ToolTorchCollectEnv, "flat (vLLM <= 0.8)"
	ls := splitGlued(d.lines)
	inGPUs := false
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		t := strings.TrimSpace(l.text)
		if strings.HasPrefix(t, "=====") && i+2 < len(ls) && strings.HasPrefix(strings.TrimSpace(ls[i+2].text), "=====") {
			d.ev.Era = "sectioned (vLLM >= 0.9)"
			title := strings.TrimSpace(ls[i+1].text)
			i += 2
			switch title {
			case "Environment Variables":
				i = d.envBlock(ls, i+1) - 1
			case "Versions of relevant libraries":
				i = d.libraries(ls, i+1) - 1
			}
			continue
		}
		if inGPUs {
			if m := gpuLine.FindStringSubmatch(t); m != nil {
				dv := d.device(m[1])
				dv.Name, dv.Line = strings.TrimSpace(m[2]), l.n
				continue
			}
			inGPUs = false
		}
		k, v, ok := keyValue(t)
		if !ok {
			d.envVar(l)
			continue
		}
		switch k {
		case "PyTorch version":
			d.fact(model.FactTorch, v, l.n)
		case "CUDA used to build PyTorch":
			d.fact(model.FactCUDA, v, l.n)
		case "ROCM used to build PyTorch", "HIP runtime version", "ROCM Version":
			d.fact(model.FactROCm, v, l.n)
		case "CUDA runtime version":
			d.cudaRuntime = model.Line{N: l.n, Text: v}
		case "Nvidia driver version":
			d.fact(model.FactDriver, v, l.n)
		case "GPU models and configuration":
			inGPUs = true
			if m := gpuLine.FindStringSubmatch(v); m != nil {
				dv := d.device(m[1])
				dv.Name, dv.Line = strings.TrimSpace(m[2]), l.n
			} else if !absent(v) && d.gpuName.Text == "" {
				d.gpuName = model.Line{N: l.n, Text: v} // ROCm: one name (and its gfx arch) for all
			}
		case "Model name":
			d.fact(model.FactCPU, v, l.n)
		case "NUMA node(s)":
			d.fact(model.FactNUMANodes, v, l.n)
		case "vLLM Version":
			d.ev.Tool = ToolCollectEnv
			d.fact(model.FactVLLM, stripSHA(v), l.n)
		case "vLLM Ascend Version":
			d.ev.Tool = ToolAscendCollectEnv
			d.fact(model.FactVLLMAscend, stripSHA(v), l.n)
		case "Versions of relevant libraries":
			i = d.libraries(ls, i+1) - 1
		case "GPU Topology":
			end := topoEnd(ls, i+1)
			d.topology(ls[i+1:end], 0)
			i = end - 1
		case "ENV Variables":
			i = d.envBlock(ls, i+1) - 1
		case "NPU":
			end := blockEnd(ls, i+1, "CANN:")
			d.npuSMI(ls[i+1 : end])
			i = end - 1
		case "CANN":
			i = d.cann(ls, i+1) - 1
		default:
			if m := numaCPUs.FindStringSubmatch(k); m != nil {
				d.ev.NUMA = append(d.ev.NUMA, model.NUMANode{ID: m[1], CPUs: v, Line: l.n})
			}
		}
	}
	if d.ev.Tool == ToolAscendCollectEnv {
		d.ev.Era = "vllm-ascend"
	}
	if _, ok := d.ev.Facts[model.FactCUDA]; !ok && d.cudaRuntime.Text != "" {
		d.fact(model.FactCUDA, d.cudaRuntime.Text, d.cudaRuntime.N)
	}
	if d.gpuName.Text != "" {
		d.rocmName()
	}
}

var (
	gpuLine  = regexp.MustCompile(`^GPU (\d+): (.+?)(?: \(UUID: [^)]*\))?$`)
	numaCPUs = regexp.MustCompile(`^NUMA node(\d+) CPU\(s\)$`)
	gitSHA   = regexp.MustCompile(`\s*\(git sha: [^)]*\)$`)
)

// stripSHA drops the "(git sha: …)" collect_env adds to a dev build's version, which names
// the same commit as the version's own +g<sha>.
func stripSHA(v string) string { return gitSHA.ReplaceAllString(v, "") }

// splitGlued splits the line where vLLM <= 0.5 glued "ROCM Version:" to the last library.
func splitGlued(ls []line) []line {
	out := make([]line, 0, len(ls))
	for _, l := range ls {
		t := l.text
		if i := strings.Index(t, "ROCM Version:"); i > 0 && strings.HasPrefix(strings.TrimSpace(t), "[") {
			out = append(out, line{l.n, t[:i]}, line{l.n, t[i:]})
			continue
		}
		out = append(out, l)
	}
	return out
}

// libraries reads "[pip3] name==version" and "[conda] name version build channel" lines from
// i on, returning where they end.
func (d *doc) libraries(ls []line, i int) int {
	for ; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i].text)
		switch {
		case strings.HasPrefix(t, "[pip") && strings.Contains(t, "] "):
			name, ver, ok := strings.Cut(t[strings.Index(t, "] ")+2:], "==")
			if ok {
				d.pkg(name, ver, ls[i].n)
			}
		case strings.HasPrefix(t, "[conda] "):
			if f := strings.Fields(t[len("[conda] "):]); len(f) >= 2 && f[0] != "Could" {
				d.conda[pkgName(f[0])] = model.Line{N: ls[i].n, Text: f[1]}
			}
		default:
			return i
		}
	}
	return i
}

// envBlock reads NAME=value lines from i on (blank lines and lines of other variables
// included), returning where a line of another kind starts.
func (d *doc) envBlock(ls []line, i int) int {
	for ; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i].text)
		if t == "" {
			continue
		}
		if !d.envVar(ls[i]) {
			if k, _, ok := keyValue(t); ok && (k == "NPU" || k == "CANN") {
				return i
			}
			if strings.HasPrefix(t, "=====") {
				return i
			}
		}
	}
	return i
}

// topoEnd is where the topology printed after "GPU Topology:" ends: at the variables after
// its legend (flat era), the next section's frame, or the end.
func topoEnd(ls []line, i int) int {
	legend := false
	for ; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i].text)
		switch {
		case strings.HasPrefix(t, "=====") && strings.Trim(t, "=") == "":
			return i // collect_env's own frame (rocm-smi's frames hold titles)
		case strings.HasPrefix(t, "Legend:"):
			legend = true
		case legend && envLine.MatchString(t) && !strings.Contains(t, " "):
			return i
		}
	}
	return i
}

// blockEnd is the first line from i on whose trimmed text starts with stop, or the end.
func blockEnd(ls []line, i int, stop string) int {
	for ; i < len(ls); i++ {
		if strings.HasPrefix(strings.TrimSpace(ls[i].text), stop) {
			return i
		}
	}
	return i
}

// cann reads ascend_toolkit_install.info (package_name=…, version=8.0.RC3, …).
func (d *doc) cann(ls []line, i int) int {
	for ; i < len(ls); i++ {
		t := strings.TrimSpace(ls[i].text)
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			if t == "" {
				continue
			}
			return i
		}
		if k == "version" {
			d.fact(model.FactCANN, v, ls[i].n)
		}
	}
	return i
}

// rocmName gives a ROCm dump's devices their one name ("AMD Instinct MI300X (gfx942:…)"):
// the count comes from rocm-smi's topology, or is one device when it printed none.
func (d *doc) rocmName() {
	name := strings.TrimSpace(d.gpuName.Text)
	if len(d.ev.Devices) == 0 {
		dv := d.device("0")
		dv.Line = d.gpuName.N
		d.warn(model.Warn(model.WarnOneDevice))
	}
	for i := range d.ev.Devices {
		if d.ev.Devices[i].Name == "" {
			d.ev.Devices[i].Name = name
		}
		d.ev.Devices[i].Line = d.gpuName.N // where the dump names it
	}
}
