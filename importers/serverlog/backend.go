package serverlog

import (
	"strings"
)

// canon maps a folded spelling (lower case, letters and digits only) to the enum of
// formats/logs-and-utilisation.md 3.3.
var canon = map[string]string{
	"flashattn": "FLASH_ATTN", "flashattention": "FLASH_ATTN", "flashattention2": "FLASH_ATTN",
	"flashattention3": "FLASH_ATTN", "flashattn2": "FLASH_ATTN", "flashattn3": "FLASH_ATTN",
	"fa": "FLASH_ATTN", "fa2": "FLASH_ATTN", "fa3": "FLASH_ATTN", "fa4": "FLASH_ATTN",
	"flashinfer": "FLASHINFER", "xformers": "XFORMERS",
	"torchsdpa": "TORCH_SDPA", "sdpa": "TORCH_SDPA", "torchnative": "TORCH_SDPA",
	"flexattention": "FLEX_ATTENTION", "flex": "FLEX_ATTENTION",
	"triton": "TRITON_ATTN", "tritonattention": "TRITON_ATTN", "tritonattn": "TRITON_ATTN",
	"rocmflashattention": "ROCM_FLASH", "rocmflash": "ROCM_FLASH",
	"rocmattention": "ROCM_ATTN", "rocmattn": "ROCM_ATTN",
	"aiterflashattention": "ROCM_AITER_FA", "rocmaiterfa": "ROCM_AITER_FA",
	"aiterunifiedattention": "ROCM_AITER_UNIFIED_ATTN", "rocmaiterunifiedattn": "ROCM_AITER_UNIFIED_ATTN",
	"tritonmla": "TRITON_MLA", "flashmla": "FLASHMLA", "cutlassmla": "CUTLASS_MLA",
	"flashinfermla": "FLASHINFER_MLA", "flashattentionmla": "FLASH_ATTN_MLA", "flashattnmla": "FLASH_ATTN_MLA",
	"sparsemla": "FLASHMLA_SPARSE", "flashmlasparse": "FLASHMLA_SPARSE",
	"aitermla": "ROCM_AITER_MLA", "rocmaitermla": "ROCM_AITER_MLA",
	"pallas": "PALLAS", "ipex": "IPEX", "ipexattention": "IPEX", "openvino": "OPENVINO", "openvinoattention": "OPENVINO",
	"blocksparseflashattention": "BLOCK_SPARSE_FLASH_ATTN", "blocksparseflashattn": "BLOCK_SPARSE_FLASH_ATTN",
	"dualchunkflashattention": "DUAL_CHUNK_FLASH_ATTN", "dualchunkflashattn": "DUAL_CHUNK_FLASH_ATTN",
	"differentialflashattention": "DIFFERENTIAL_FLASH_ATTN", "differentialflashattn": "DIFFERENTIAL_FLASH_ATTN",
	"treeattention": "TREE_ATTN", "treeattn": "TREE_ATTN",
	"noattention": "NO_ATTENTION", "custom": "CUSTOM",
}

// decoder is the set of names that are decoder-attention backends (as opposed to MoE, sampler,
// ViT or linear kernels).
var decoder = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range canon {
		m[v] = true
	}
	delete(m, "NO_ATTENTION")
	return m
}()

// Normalise maps any spelling of an attention backend to one enum (spec 3.3): "Flash
// Attention", "FlashAttention-2", "AttentionBackendEnum.FLASH_ATTN", "_Backend.XFORMERS",
// "<AttentionBackendEnum.FLASHINFER: 'FLASHINFER'>", "TRITON_ATTN_VLLM_V1", class paths such as
// "vllm.v1.attention.backends.flash_attn.FlashAttentionBackend", and SGLang's names (fa3 →
// FLASH_ATTN, flashinfer → FLASHINFER, triton → TRITON_ATTN, torch_native → TORCH_SDPA).
// vllm-ascend classes keep their class name ("AscendAttentionBackend"). Unknown names come back
// upper-cased with spaces and dashes as underscores; "", "None" and "auto" give "".
func Normalise(name string) string {
	s := strings.TrimSpace(name)
	s = strings.Trim(s, `'"`+"`")
	// enum repr "<AttentionBackendEnum.FLASHINFER: 'FLASHINFER'>"
	if strings.HasPrefix(s, "<") {
		s = strings.TrimPrefix(s, "<")
		if i := strings.IndexByte(s, ':'); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimSuffix(s, ">")
	}
	s = strings.TrimSpace(s)
	s = strings.TrimSuffix(s, ".")
	if strings.HasSuffix(s, " backend") || strings.HasSuffix(s, " Backend") {
		s = s[:len(s)-len(" backend")]
	}
	// dotted paths and enum prefixes: keep the last segment
	if i := strings.LastIndexByte(s, '.'); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	switch strings.ToLower(s) {
	case "", "none", "auto", "null":
		return ""
	}
	if strings.HasPrefix(s, "Ascend") {
		return s
	}
	key := fold(s)
	if strings.HasSuffix(key, "vllmv1") && len(key) > 6 {
		key = key[:len(key)-6]
	}
	if v, ok := canon[key]; ok {
		return v
	}
	if strings.HasSuffix(key, "backend") {
		if v, ok := canon[strings.TrimSuffix(key, "backend")]; ok {
			return v
		}
		if v, ok := canon[strings.TrimSuffix(strings.TrimSuffix(key, "backend"), "impl")]; ok {
			return v
		}
	}
	up := strings.ToUpper(s)
	up = strings.NewReplacer(" ", "_", "-", "_").Replace(up)
	return up
}

// fold lower-cases and keeps letters and digits.
func fold(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		case (c >= 'a' && c <= 'z') || isDigit(c):
			b = append(b, c)
		}
	}
	return string(b)
}

// mentions lists the backends a guard line names, in any spelling.
var mentionSpellings = []struct{ s, b string }{
	{"flashattention", "FLASH_ATTN"}, {"flash attention", "FLASH_ATTN"}, {"flash_attn", "FLASH_ATTN"},
	{"flash_atten", "FLASH_ATTN"}, {"fa3", "FLASH_ATTN"},
	{"flashinfer", "FLASHINFER"}, {"xformers", "XFORMERS"}, {"torch sdpa", "TORCH_SDPA"}, {"torch_sdpa", "TORCH_SDPA"},
	{"flexattention", "FLEX_ATTENTION"}, {"flex_attention", "FLEX_ATTENTION"},
	{"triton", "TRITON_ATTN"}, {"flashmla", "FLASHMLA"}, {"cutlass", "CUTLASS_MLA"}, {"rocm", "ROCM_FLASH"},
	{"aiter", "ROCM_AITER_FA"}, {"pallas", "PALLAS"}, {"ipex", "IPEX"},
}

// mentioned reports which backend families a line names (lower-cased comparison). MLA and
// plain variants are folded together on purpose: a guard about "FlashMLA" explains a target
// of FLASHMLA, one about FlashAttention explains FLASH_ATTN and FLASH_ATTN_MLA.
func mentioned(text string) map[string]bool {
	l := strings.ToLower(text)
	out := map[string]bool{}
	for _, m := range mentionSpellings {
		if strings.Contains(l, m.s) {
			out[m.b] = true
		}
	}
	return out
}

// family folds a backend to the family used by mentioned.
func family(b string) string {
	switch {
	case strings.HasPrefix(b, "FLASHMLA"):
		return "FLASHMLA"
	case strings.HasPrefix(b, "FLASH_ATTN"), b == "BLOCK_SPARSE_FLASH_ATTN", b == "DUAL_CHUNK_FLASH_ATTN", b == "DIFFERENTIAL_FLASH_ATTN":
		return "FLASH_ATTN"
	case strings.HasPrefix(b, "FLASHINFER"):
		return "FLASHINFER"
	case strings.HasPrefix(b, "TRITON"):
		return "TRITON_ATTN"
	case strings.HasPrefix(b, "ROCM_AITER"):
		return "ROCM_AITER_FA"
	case strings.HasPrefix(b, "ROCM"):
		return "ROCM_FLASH"
	}
	return b
}
