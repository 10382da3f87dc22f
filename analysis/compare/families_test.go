package compare

import (
	"slices"
	"strings"
	"testing"

	"benchlens/model"
)

// withKernels gives every trace of the arm an attention family of attnUs per step (and a gemm
// family of 800 µs) and the attention implementation its kernels name.
func withKernels(a Arm, impl string, attnUs float64) Arm {
	for _, rd := range a.Runs {
		for _, t := range rd.Traces {
			n := float64(t.Steps)
			t.Families = []model.FamilyStat{
				{Family: "attention", Count: 8, TimeUs: attnUs * n, Share: attnUs / (attnUs + 800), Top: []string{"attn_" + impl}},
				{Family: "gemm", Count: 12, TimeUs: 800 * n, Share: 800 / (attnUs + 800), Top: []string{"sm90_xmma_gemm_bf16bf16"}},
			}
			t.DeviceTimeUs = (attnUs + 800) * n
			if impl != "" {
				t.KernelBackends = []model.KernelImpl{{Backend: impl, Kernel: "attn_" + impl, Count: 8, TimeUs: attnUs * n}}
			}
		}
	}
	return a
}

func withoutLogs(a Arm) Arm {
	for i := range a.Runs {
		a.Runs[i].Logs = nil
	}
	return a
}

func TestKernelsNameThePath(t *testing.T) {
	base := withKernels(baseline.build(1), "FLASH_ATTN", 900)
	t.Run("agree", func(t *testing.T) {
		cand := withKernels(candidate(func(a *arm) { a.tpot = 10.8 }).build(100), "FLASHINFER", 600)
		rec := Compare(base, cand, DefaultSettings)
		if rec.Status != Established || rec.Path.KernelBackend != (ArmValues{"FLASH_ATTN", "FLASHINFER"}) {
			t.Fatalf("%s %v kernels %+v", rec.Status, rec.Causes, rec.Path.KernelBackend)
		}
		if c, _ := findCheck(rec, "kernels"); c.State != CheckOK {
			t.Errorf("kernels check %+v", c)
		}
	})
	t.Run("contradicted", func(t *testing.T) {
		cand := withKernels(candidate(func(a *arm) { a.tpot = 10.8 }).build(100), "FLASH_ATTN", 900)
		rec := Compare(base, cand, DefaultSettings)
		if rec.Status != NotEstablished || !slices.Contains(codes(rec), PathContradicted) {
			t.Fatalf("%s %v", rec.Status, rec.Causes)
		}
		if c, _ := findCheck(rec, "kernels"); c.State != CheckFail || !strings.Contains(c.Reason, "FLASHINFER") {
			t.Errorf("kernels check %+v", c)
		}
	})
	t.Run("the log is silent: the kernels resolve", func(t *testing.T) {
		cand := withoutLogs(withKernels(candidate(func(a *arm) { a.tpot = 10.8 }).build(100), "FLASHINFER", 600))
		rec := Compare(base, cand, DefaultSettings)
		if rec.Status != Established || rec.Path.ResolvedBackend.Candidate != "FLASHINFER" {
			t.Fatalf("%s %v resolved %+v", rec.Status, rec.Causes, rec.Path.ResolvedBackend)
		}
	})
}

// Rule 6's targeted ops: no stage faster, total device time not lower, but the attention family
// fell while copies grew: offset.
func TestTargetedOpsMakeOffset(t *testing.T) {
	base := withKernels(baseline.build(1), "FLASH_ATTN", 900)
	cand := withKernels(candidate(func(a *arm) { a.copies = 4 }).build(100), "FLASHINFER", 500)
	rec := Compare(base, cand, DefaultSettings)
	if rec.Status != Offset || rec.Families == nil || rec.Families.Targeted == nil || !rec.Families.Targeted.Fell {
		t.Fatalf("%s %v families %+v", rec.Status, rec.Causes, rec.Families)
	}
	if rec.Families.Rows[0].Family != "attention" || rec.Families.Rows[0].DeltaUs.F() != -400 || rec.Families.Per != "step" {
		t.Errorf("rows %+v", rec.Families.Rows)
	}
	// The same change declared on the linear path: attention falling is no gain of that path.
	lin := func(m model.Manifest) model.Manifest { return withField(m, "change", map[string]any{"path": "linear"}) }
	base2 := withKernels(candidate(func(a *arm) { a.manifest = lin(fullManifest) }).build(1), "FLASH_ATTN", 900)
	cand2 := withKernels(candidate(func(a *arm) { a.copies, a.manifest = 4, lin(fullManifest) }).build(100), "FLASHINFER", 500)
	rec = Compare(base2, cand2, DefaultSettings)
	if rec.Status == Offset || rec.Families.Targeted.Family != "gemm" {
		t.Errorf("linear: %s targeted %+v", rec.Status, rec.Families.Targeted)
	}
}

// Rule 10: a change declared on the linear path is judged by the linear kernel the logs name.
func TestDeclaredLinearPath(t *testing.T) {
	decl := func(m model.Manifest, target string) model.Manifest {
		m = withField(m, "change", map[string]any{"what": "FP8 weights", "path": "linear"})
		return withField(m, "path", map[string]any{"target_backend": target})
	}
	setLinear := func(a Arm, kernel string) Arm {
		for _, rd := range a.Runs {
			for _, l := range rd.Logs {
				l.AuxBackends = map[string]string{"linear": kernel}
				l.AuxLines = map[string]model.Line{"linear": {N: 12, Text: "Selected " + kernel + " for Fp8LinearMethod"}}
			}
		}
		return a
	}
	base := setLinear(candidate(func(a *arm) { a.resolved, a.target, a.manifest = "FLASH_ATTN", "FLASH_ATTN", decl(fullManifest, "") }).build(1), "UnquantizedLinearMethod")
	cand := setLinear(candidate(func(a *arm) {
		a.resolved, a.target, a.tpot, a.manifest = "FLASH_ATTN", "FLASH_ATTN", 10.8, decl(fullManifest, "CutlassFP8ScaledMMLinearKernel")
	}).build(100), "CutlassFP8ScaledMMLinearKernel")
	rec := Compare(base, cand, DefaultSettings)
	if rec.Status != Established || rec.Path.Declared != "linear" ||
		rec.Path.ResolvedBackend != (ArmValues{"UnquantizedLinearMethod", "CutlassFP8ScaledMMLinearKernel"}) {
		t.Fatalf("%s %v path %+v", rec.Status, rec.Causes, rec.Path)
	}
	if len(rec.Path.Evidence) == 0 || !strings.Contains(rec.Path.Evidence[0].Text, "Selected") {
		t.Errorf("evidence %+v", rec.Path.Evidence)
	}
	// Silent logs: the family's largest kernel names the path.
	base, cand = withKernels(withoutLogs(base), "", 900), withKernels(withoutLogs(cand), "", 900)
	cand.Runs[0].Traces[0].Families[1].Top = []string{"cutlass_scaled_mm_sm90"}
	rec = Compare(base, cand, DefaultSettings)
	if rec.Path.ResolvedBackend.Baseline != "sm90_xmma_gemm_bf16bf16" {
		t.Errorf("resolved from kernels: %+v (%v)", rec.Path.ResolvedBackend, rec.Causes)
	}
}

// Rule 10: a graph change is judged by the graph mode and compile level the logs name; it has
// no family, so the attention kernels neither gain nor contradict it.
func TestDeclaredGraphPath(t *testing.T) {
	graph := func(a Arm, mode string) Arm {
		for _, rd := range a.Runs {
			for _, l := range rd.Logs {
				l.AuxBackends = map[string]string{"graph": mode}
			}
		}
		return a
	}
	m := withField(fullManifest, "change", map[string]any{"what": "CUDA graphs on", "path": "graph"})
	base := graph(withKernels(candidate(func(a *arm) { a.manifest = m }).build(1), "FLASHINFER", 900), "eager")
	cand := graph(withKernels(candidate(func(a *arm) { a.manifest, a.tpot = m, 10.8 }).build(100), "FLASH_ATTN", 900), "cuda_graph, compile level 3")
	rec := Compare(base, cand, DefaultSettings)
	if rec.Status != Established || rec.Path.ResolvedBackend.Candidate != "cuda_graph, compile level 3" || rec.Families.Targeted != nil {
		t.Fatalf("%s %v path %+v targeted %+v", rec.Status, rec.Causes, rec.Path.ResolvedBackend, rec.Families.Targeted)
	}
	if _, ok := findCheck(rec, "kernels"); ok {
		t.Error("a kernels check for a graph change")
	}
}

func findCheck(rec Record, name string) (Check, bool) {
	for _, c := range rec.Checklist() {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}
