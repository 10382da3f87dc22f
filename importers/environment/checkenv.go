package environment

import (
	"regexp"
	"strings"

	"benchlens/model"
)

// SGLang's check_env (python/sglang/check_env.py) prints "Key: value" lines, no sections:
// "Python:", "CUDA available: True" (ROCm: "ROCM available", Ascend: "NPU available"), the
// devices grouped by name ("GPU 0,1,2,3: NVIDIA H100 80GB HBM3", "NPU 0,1: Ascend910B3"),
// "GPU 0,1 Compute Capability: 9.0", "CUDA_HOME:", "NVCC: Cuda compilation tools, release
// 12.4, V12.4.131" (ROCm "HIPCC: HIP version: 6.3…"), "CUDA Driver Version: 550.54.15" (or
// "CUDA Driver Versions: a, b"; "ROCM Driver Version:"; "Ascend Driver Version:"), on Ascend
// "CANN: 8.3.RC1", "PyTorch: 2.5.1+cu124", one line per package ("sglang: 0.4.6",
// "vllm: Module Not Found"), then "NVIDIA Topology:" / "AMD Topology:" / "Ascend Topology:"
// and the tool's matrix on the lines below (up to 0.5; absent when the command failed),
// "Hypervisor vendor:" and "ulimit soft:". The class-based checker of 0.5 (GPUEnv, HIPEnv,
// NPUEnv) prints the same keys. Reporters often put their own lines above it.

var (
	deviceGroup = regexp.MustCompile(`^(GPU|NPU) ([\d,]+)$`)
	nvccRelease = regexp.MustCompile(`release (\d+\.\d+)`)
	torchCU     = regexp.MustCompile(`\+cu(\d+)(\d)$`)
	hipVersion  = regexp.MustCompile(`HIP version:\s*(\S+)`)
)

func (d *doc) checkEnv() {
	d.ev.Tool = ToolCheckEnv
	ls := d.lines
	nvcc := model.Line{}
	for i := 0; i < len(ls); i++ {
		l := ls[i]
		t := strings.TrimSpace(l.text)
		k, v, ok := keyValue(t)
		if !ok {
			d.envVar(l)
			continue
		}
		if m := deviceGroup.FindStringSubmatch(k); m != nil {
			for _, id := range strings.Split(m[2], ",") {
				if id = strings.TrimSpace(id); id != "" {
					dv := d.device(id)
					dv.Name, dv.Line = v, l.n
				}
			}
			continue
		}
		switch k {
		case "CUDA Driver Version", "CUDA Driver Versions", "ROCM Driver Version", "Ascend Driver Version":
			d.fact(model.FactDriver, v, l.n)
		case "NVCC":
			if m := nvccRelease.FindStringSubmatch(v); m != nil {
				nvcc = model.Line{N: l.n, Text: m[1]}
			}
		case "HIPCC":
			if m := hipVersion.FindStringSubmatch(v + " " + t); m != nil {
				d.fact(model.FactROCm, m[1], l.n)
			}
		case "CANN":
			d.fact(model.FactCANN, v, l.n)
		case "PyTorch":
			d.fact(model.FactTorch, v, l.n)
			if m := torchCU.FindStringSubmatch(v); m != nil {
				d.fact(model.FactCUDA, m[1]+"."+m[2], l.n)
			}
		case "NVIDIA Topology", "AMD Topology", "Ascend Topology":
			end := i + 1
			for end < len(ls) && !checkEnvTail(ls[end].text) {
				end++
			}
			d.topology(ls[i+1:end], 0)
			i = end - 1
		case "Python", "CUDA available", "ROCM available", "NPU available", "CUDA_HOME", "ROCM_HOME", "CANN_HOME",
			"BiSheng", "Hypervisor vendor", "ulimit soft":
		default:
			if !strings.Contains(k, " ") {
				d.pkg(k, v, l.n) // a package line: "sglang: 0.5.13.post1"
			}
		}
	}
	if nvcc.Text != "" {
		d.fact(model.FactCUDA, nvcc.Text, nvcc.N)
	}
}

// checkEnvTail reports the lines check_env prints after the topology.
func checkEnvTail(s string) bool {
	t := strings.TrimSpace(s)
	return strings.HasPrefix(t, "Hypervisor vendor") || strings.HasPrefix(t, "ulimit soft:")
}
