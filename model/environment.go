package model

// Fact keys: the conditions an environment dump (or any other file) states, each read into
// the run's Fingerprint with the line that states it.
const (
	FactDriver       = "driver_version"       // NVIDIA / ROCm / Ascend driver
	FactCUDA         = "cuda_version"         // CUDA PyTorch was built with, else the toolkit's (nvcc)
	FactROCm         = "rocm_version"         // ROCm / HIP PyTorch was built with
	FactCANN         = "cann_version"         // Ascend CANN toolkit
	FactTorch        = "torch_version"        // PyTorch
	FactTorchNPU     = "torch_npu_version"    // torch_npu (torch-npu)
	FactVLLM         = "vllm_version"         // vLLM
	FactVLLMAscend   = "vllm_ascend_version"  // vllm-ascend
	FactSGLang       = "sglang_version"       // SGLang
	FactTransformers = "transformers_version" // Hugging Face transformers
	FactDeviceModel  = "device_model"         // "NVIDIA H100 80GB HBM3", "910B2"
	FactDeviceCount  = "device_count"
	FactDeviceMemory = "device_memory" // per device, as the tool prints it: "65536 MB", "81559 MiB"
	FactInterconnect = "interconnect"  // between devices: "NV18", "NODE", "HCCS", "XGMI"
	FactCPU          = "cpu_model"
	FactNUMANodes    = "numa_nodes"      // how many NUMA nodes the machine has
	FactVisible      = "visible_devices" // the visible-device variable as printed: "CUDA_VISIBLE_DEVICES=0,1"
)

// EnvEvidence is what an environment dump states of the machine and the stack a run ran on,
// every fact with its line, so a comparison can say where a condition came from.
type EnvEvidence struct {
	Tool string `json:"tool"` // vllm collect_env, vllm-ascend collect_env, sglang check_env, nvidia-smi topo -m, nvidia-smi -q, pip list, pip freeze
	// Era is the layout of the tool's output: "flat (vLLM <= 0.8)", "sectioned (vLLM >= 0.9)", …
	Era   string          `json:"era,omitempty"`
	Facts map[string]Line `json:"facts"` // by Fact* key: the value (Text) and the line that states it (N)
	// Devices are the accelerators the dump lists, in its order, with what it says of each.
	Devices []EnvDevice `json:"devices,omitempty"`
	// NUMA lists the machine's NUMA nodes and their CPUs (lscpu).
	NUMA []NUMANode `json:"numa,omitempty"`
	// Env holds the variables printed that choose devices or the engine's paths: the
	// visible-device variables, VLLM_*, VLLM_ASCEND_*, SGLANG_*.
	Env []EnvVar `json:"env,omitempty"`
}

// EnvDevice is one accelerator as a dump describes it. NUMA and CPUs come from a topology
// table (nvidia-smi topo -m, rocm-smi, npu-smi info -t topo), BusID and memory from a device
// table (npu-smi info, nvidia-smi -q).
type EnvDevice struct {
	ID       string `json:"id"` // as the tool numbers it: "0"
	Name     string `json:"name,omitempty"`
	BusID    string `json:"bus_id,omitempty"`
	MemoryMB Num    `json:"memory_mb"`
	NUMA     string `json:"numa,omitempty"` // the NUMA node(s) it is affine to
	CPUs     string `json:"cpus,omitempty"` // its CPU affinity list
	Line     int    `json:"line,omitempty"` // where the dump names it
	NUMALine int    `json:"numa_line,omitempty"`

	file, numaFile string // where a Fingerprint read it and its affinity
}

// NUMANode is one NUMA node and its CPU list as lscpu prints it ("0-47", "0,2,4,…").
type NUMANode struct {
	ID   string `json:"id"`
	CPUs string `json:"cpus"`
	Line int    `json:"line"`
}

// EnvVar is an environment variable printed in a dump.
type EnvVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Line  int    `json:"line"`
}

// Var returns the variable named name, if printed.
func (e *EnvEvidence) Var(name string) (EnvVar, bool) {
	for _, v := range e.Env {
		if v.Name == name {
			return v, true
		}
	}
	return EnvVar{}, false
}
