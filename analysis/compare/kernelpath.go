package compare

import (
	"fmt"
	"strings"

	"benchlens/model"
)

// The kernels name the path (METHOD.md rule 11): the attention implementation the profiler
// traces show, set against the backend the server log resolved.

// kernelAccepts lists, per implementation the kernels show, the log backends it serves: vLLM's
// backends share kernels (TORCH_SDPA runs flash or mem-efficient kernels, the V0 XFORMERS and
// ROCm backends decode with the legacy paged kernel, MLA backends prefill with FlashAttention).
var kernelAccepts = map[string][]string{
	"FLASH_ATTN": {"FLASH_ATTN", "FLASH_ATTN_MLA", "TORCH_SDPA", "DUAL_CHUNK_FLASH_ATTN", "BLOCK_SPARSE_FLASH_ATTN",
		"DIFFERENTIAL_FLASH_ATTN", "ROCM_FLASH", "FLASHMLA", "CUTLASS_MLA", "TRITON_MLA", "FLASHINFER_MLA", "FLASHMLA_SPARSE"},
	"FLASHINFER":     {"FLASHINFER", "FLASHINFER_MLA"},
	"FLASHINFER_MLA": {"FLASHINFER_MLA", "FLASHINFER"},
	"TRITON_ATTN":    {"TRITON_ATTN", "TRITON_MLA", "ROCM_ATTN", "ROCM_AITER_UNIFIED_ATTN", "FLEX_ATTENTION"},
	"XFORMERS":       {"XFORMERS", "TORCH_SDPA"},
	"PAGED_ATTN":     {"XFORMERS", "TORCH_SDPA", "ROCM_FLASH", "ROCM_ATTN"},
	"ROCM_ATTN":      {"ROCM_ATTN", "ROCM_FLASH"},
	"ROCM_AITER_FA":  {"ROCM_AITER_FA", "ROCM_AITER_MLA", "ROCM_AITER_UNIFIED_ATTN", "ROCM_FLASH"},
	"ROCM_AITER_MLA": {"ROCM_AITER_MLA"},
	"FLASHMLA":       {"FLASHMLA", "FLASHMLA_SPARSE"},
	"CUTLASS_MLA":    {"CUTLASS_MLA"},
}

// known reports whether a log backend is one the table can judge (others, e.g. CUSTOM or a
// plugin's class name, are neither confirmed nor contradicted).
func known(logged string) bool {
	if strings.HasPrefix(strings.ToUpper(logged), "ASCEND") {
		return true
	}
	for _, bs := range kernelAccepts {
		for _, b := range bs {
			if b == logged {
				return true
			}
		}
	}
	return false
}

// kernelServes reports whether an implementation the kernels show can be the logged backend.
func kernelServes(impl, logged string) bool {
	if impl == "ASCEND" {
		return strings.HasPrefix(strings.ToUpper(logged), "ASCEND")
	}
	for _, b := range kernelAccepts[impl] {
		if b == logged {
			return true
		}
	}
	return impl == logged
}

// armKernels is what an arm's traces say about the attention implementation.
type armKernels struct {
	backend string             // the implementation with the most attention time
	seen    []model.KernelImpl // every implementation, over the arm's traces
}

func kernelsOf(a Arm) armKernels {
	var k armKernels
	time := map[string]float64{}
	for _, rd := range a.Runs {
		for _, t := range rd.Traces {
			for _, ki := range t.KernelBackends {
				if _, ok := time[ki.Backend]; !ok {
					k.seen = append(k.seen, ki)
				}
				time[ki.Backend] += ki.TimeUs
			}
		}
	}
	best := 0.0
	for _, ki := range k.seen {
		if time[ki.Backend] > best {
			k.backend, best = ki.Backend, time[ki.Backend]
		}
	}
	return k
}

// agrees says whether any implementation the kernels show serves the logged backend; ok is
// false when the pair cannot be judged.
func (k armKernels) agrees(logged string) (agree, ok bool) {
	if k.backend == "" || logged == "" || !known(logged) {
		return false, false
	}
	for _, ki := range k.seen {
		if kernelServes(ki.Backend, logged) {
			return true, true
		}
	}
	return false, true
}

// proof names the kernel behind the arm's implementation.
func (k armKernels) proof() string {
	for _, ki := range k.seen {
		if ki.Backend == k.backend {
			return fmt.Sprintf("%s (%s, %d launches, %s us)", ki.Backend, ki.Kernel, ki.Count, model.Num(ki.TimeUs).Readable())
		}
	}
	return ""
}

// kernelPath applies rule 11 to the attention path: it records the kernels' backend per arm,
// resolves a path the logs leave silent, and returns path_contradicted where the log and the
// kernels name different implementations.
func kernelPath(rec *Record, bp, cp *armPath, base, cand Arm) []Cause {
	var causes []Cause
	for _, x := range []struct {
		side string
		p    *armPath
		a    Arm
		out  *string
	}{{"baseline", bp, base, &rec.Path.KernelBackend.Baseline}, {"candidate", cp, cand, &rec.Path.KernelBackend.Candidate}} {
		k := kernelsOf(x.a)
		*x.out = k.backend
		if k.backend == "" {
			continue
		}
		if x.p.resolved == "" {
			x.p.resolved = k.backend
			rec.Path.Evidence = append(rec.Path.Evidence, EvidenceLine{Arm: x.side, Run: x.a.ids()[0], Text: "the log is silent; the kernels name " + k.proof(), Runs: 1})
			continue
		}
		if len(x.p.mixed) > 0 {
			continue
		}
		if agree, ok := k.agrees(x.p.resolved); ok && !agree {
			causes = append(causes, Cause{model.PathContradicted, fmt.Sprintf("the %s's log resolved %s but its kernels are %s", x.side, x.p.resolved, k.proof())})
		}
	}
	return causes
}

// kernelCheck is the checklist line of rule 11: do the kernels agree with the logged backend?
func (r Record) kernelCheck(has map[model.CauseCode]Cause) (Check, bool) {
	kb := r.Path.KernelBackend
	if r.Path.Declared != "" || (kb.Baseline == "" && kb.Candidate == "") {
		return Check{}, false
	}
	k := Check{Name: "kernels", State: model.CheckOK,
		Reason: fmt.Sprintf("attention kernels %s -> %s agree with the resolved backends", orUnknown(kb.Baseline), orUnknown(kb.Candidate))}
	switch c, contradicted := has[model.PathContradicted]; {
	case contradicted:
		k.State, k.Reason = model.CheckFail, c.Reason
		k.setHints(hint(HintKernelsDiffer))
	case kb.Baseline == "" || kb.Candidate == "":
		k.State, k.Reason = model.CheckWarn, fmt.Sprintf("attention kernels %s -> %s: one arm's traces show none", orUnknown(kb.Baseline), orUnknown(kb.Candidate))
		k.setHints(hint(HintDecodeTrace))
	}
	return k, true
}
