package compare

import (
	"fmt"
	"regexp"
	"strings"

	"benchlens/model"
)

// What a run's files state of its conditions (its model.Fingerprint: collect_env, check_env,
// nvidia-smi, npu-smi, profiler info), read into rule 1's fields with the file and line that
// state them. A field a manifest also declares is checked against it (consistent).

// stack is the base stack the files state: the accelerator toolkit PyTorch was built with
// and the PyTorch (and torch_npu) versions, "CUDA 12.4, torch 2.5.1+cu124"; else the one text
// a file gives for it (profiler info).
func stack(fp model.Fingerprint) model.Fact {
	var parts []string
	var at model.Fact
	for _, p := range []struct{ key, name string }{
		{model.FactCUDA, "CUDA"}, {model.FactROCm, "ROCm"}, {model.FactCANN, "CANN"},
		{model.FactTorch, "torch"}, {model.FactTorchNPU, "torch_npu"},
	} {
		if f, ok := fp.Fact(p.key); ok {
			parts = append(parts, p.name+" "+f.Value)
			if at.File == "" {
				at = f
			}
		}
	}
	if len(parts) == 0 {
		f, _ := fp.Fact(model.FactBaseStack)
		return f
	}
	at.Value = strings.Join(parts, ", ")
	return at
}

// engine is the serving engine the files state, spelled as a server log's EngineVersion:
// "vllm 0.6.3", "sglang 0.5.13", "vLLM 0.11.0 + vllm-ascend 0.11.0rc1".
func engine(fp model.Fingerprint) model.Fact {
	vllm, hasVLLM := fp.Fact(model.FactVLLM)
	if asc, ok := fp.Fact(model.FactVLLMAscend); ok {
		v := "vllm-ascend " + asc.Value
		if hasVLLM {
			v = "vLLM " + vllm.Value + " + " + v
		}
		asc.Value = v
		return asc
	}
	if hasVLLM {
		vllm.Value = "vllm " + vllm.Value
		return vllm
	}
	if sg, ok := fp.Fact(model.FactSGLang); ok {
		sg.Value = "sglang " + sg.Value
		return sg
	}
	return model.Fact{}
}

// hardware is the accelerators the files state, "8 × NVIDIA H100 80GB HBM3, NV18", in the
// spelling of an npu-smi table's facts ("8 × 910B3, 65536 MB HBM each"); else the one text a
// file gives for them.
func hardware(fp model.Fingerprint) model.Fact {
	name, ok := fp.Fact(model.FactDeviceModel)
	if !ok {
		f, _ := fp.Fact(model.FactHardwareSKU)
		return f
	}
	v := name.Value
	if n, ok := fp.Fact(model.FactDeviceCount); ok {
		v = n.Value + " × " + v
	}
	if m, ok := fp.Fact(model.FactDeviceMemory); ok {
		if strings.HasSuffix(m.Value, " MB") {
			v += ", " + m.Value + " HBM each" // npu-smi's HBM
		} else {
			v += ", " + m.Value + " each"
		}
	}
	if l, ok := fp.Fact(model.FactInterconnect); ok {
		v += ", " + l.Value
	}
	name.Value = v
	return name
}

// statedFact reads one fact of the fingerprint.
func statedFact(key string) func(model.Fingerprint) model.Fact {
	return func(fp model.Fingerprint) model.Fact {
		f, _ := fp.Fact(key)
		return f
	}
}

// consistent reports whether what a manifest declares agrees with what the files state: the
// same value, or, for the fields a manifest writes as free text (the stack, the hardware, the
// engine), no component named in both with another version, count or model.
func consistent(key, declared, stated string) bool {
	if sameValue(declared, stated) || strings.EqualFold(strings.TrimSpace(declared), strings.TrimSpace(stated)) {
		return true
	}
	switch key {
	case "base_stack_version", "engine_version":
		d, s := versions(declared), versions(stated)
		common := false
		for comp, dv := range d {
			if sv, ok := s[comp]; ok {
				common = true
				if !strings.HasPrefix(sv, dv) && !strings.HasPrefix(dv, sv) {
					return false
				}
			}
		}
		return common
	case "hardware_sku":
		return sameHardware(declared, stated)
	}
	return false
}

// component is a named part of a stack or engine and its version: "CANN 8.0.RC3",
// "torch-npu 2.5.1", "vLLM v0.6.3".
var component = regexp.MustCompile(`(?i)\b(cuda|cann|rocm|hip|torch[-_ ]?npu|pytorch|torch|vllm[-_ ]ascend|vllm|sglang)\b[\s:=]*v?(\d[\w.+-]*)`)

func versions(s string) map[string]string {
	out := map[string]string{}
	for _, m := range component.FindAllStringSubmatch(s, -1) {
		name := strings.NewReplacer("-", "", "_", "", " ", "").Replace(strings.ToLower(m[1]))
		switch name {
		case "pytorch":
			name = "torch"
		case "hip":
			name = "rocm"
		}
		if _, ok := out[name]; !ok {
			out[name] = strings.ToLower(strings.TrimRight(m[2], ".,"))
		}
	}
	return out
}

var (
	deviceCount = regexp.MustCompile(`(?i)(?:\b(\d+)\s*[x×*]|[x×*]\s*(\d+)\b)`)
	wordSplit   = regexp.MustCompile(`[^a-z0-9]+`)
)

// sameHardware compares a declared hardware text with the stated one: the counts agree where
// both give one, and some word of the declared text with a digit in it ("910B", "H100")
// begins the stated model, or the other way round.
func sameHardware(declared, stated string) bool {
	count := func(s string) string {
		if m := deviceCount.FindStringSubmatch(s); m != nil {
			return m[1] + m[2]
		}
		return ""
	}
	if dc, sc := count(declared), count(stated); dc != "" && sc != "" && dc != sc {
		return false
	}
	model := stated
	if _, after, ok := strings.Cut(stated, "×"); ok {
		model = after
	}
	model, _, _ = strings.Cut(model, ",")
	var words []string
	for _, w := range wordSplit.Split(strings.ToLower(model), -1) {
		if w != "" && w != "nvidia" && w != "amd" && w != "ascend" && w != "instinct" {
			words = append(words, w)
		}
	}
	if len(words) == 0 {
		return true
	}
	first := words[0]
	checked := false
	for _, w := range wordSplit.Split(strings.ToLower(declared), -1) {
		if len(w) < 3 || !strings.ContainsAny(w, "0123456789") || deviceCount.MatchString(w) {
			continue
		}
		if strings.HasPrefix(first, w) || strings.HasPrefix(w, first) {
			return true
		}
		checked = true
	}
	return !checked
}

// sourced writes a value with where it came from: "550.54.15 from a/collect_env.txt line 23".
func sourced(value, source string) string {
	if value == "" {
		return "unknown"
	}
	if source == "" {
		return value
	}
	return fmt.Sprintf("%s from %s", value, source)
}
