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
