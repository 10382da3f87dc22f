package compare_test

import (
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
	"benchlens/model"
)

// withKernels gives every trace of the arm an attention family of attnUs per step (and a gemm
// family of 800 µs) and the attention implementation its kernels name.
func withKernels(a compare.Arm, impl string, attnUs float64) compare.Arm {
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

func withoutLogs(a compare.Arm) compare.Arm {
	for i := range a.Runs {
		a.Runs[i].Logs = nil
	}
	return a
}

func TestKernelsNameThePath(t *testing.T) {
	base := withKernels(armtest.Baseline("base", 1).Build(1), "FLASH_ATTN", 900)
	t.Run("agree", func(t *testing.T) {
		cand := withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100), "FLASHINFER", 600)
		rec := compare.Compare(base, cand, compare.DefaultSettings)
		if rec.Status != model.Established || rec.Path.KernelBackend != (compare.ArmValues{"FLASH_ATTN", "FLASHINFER"}) {
			t.Fatalf("%s %v kernels %+v", rec.Status, rec.Causes, rec.Path.KernelBackend)
		}
		if c, _ := findCheck(rec, "kernels"); c.State != model.CheckOK {
			t.Errorf("kernels check %+v", c)
		}
	})
	t.Run("contradicted", func(t *testing.T) {
		cand := withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100), "FLASH_ATTN", 900)
		rec := compare.Compare(base, cand, compare.DefaultSettings)
		if rec.Status != model.NotEstablished || !slices.Contains(rec.CauseCodes(), model.PathContradicted) {
			t.Fatalf("%s %v", rec.Status, rec.Causes)
		}
		if c, _ := findCheck(rec, "kernels"); c.State != model.CheckFail || !strings.Contains(c.Reason, "FLASHINFER") {
			t.Errorf("kernels check %+v", c)
		}
	})
	t.Run("the log is silent: the kernels resolve", func(t *testing.T) {
		cand := withoutLogs(withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.TPOT = 10.8 }).Build(100), "FLASHINFER", 600))
		rec := compare.Compare(base, cand, compare.DefaultSettings)
		if rec.Status != model.Established || rec.Path.ResolvedBackend.Candidate != "FLASHINFER" {
			t.Fatalf("%s %v resolved %+v", rec.Status, rec.Causes, rec.Path.ResolvedBackend)
		}
	})
}

// Rule 6's targeted ops: no stage faster, total device time not lower, but the attention family
// fell while copies grew: offset.
func TestTargetedOpsMakeOffset(t *testing.T) {
	base := withKernels(armtest.Baseline("base", 1).Build(1), "FLASH_ATTN", 900)
	cand := withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.Copies = 4 }).Build(100), "FLASHINFER", 500)
	rec := compare.Compare(base, cand, compare.DefaultSettings)
	if rec.Status != model.Offset || rec.Families == nil || rec.Families.Targeted == nil || !rec.Families.Targeted.Fell {
		t.Fatalf("%s %v families %+v", rec.Status, rec.Causes, rec.Families)
	}
	if rec.Families.Rows[0].Family != "attention" || rec.Families.Rows[0].DeltaUs.F() != -400 || rec.Families.Per != "step" {
		t.Errorf("rows %+v", rec.Families.Rows)
	}
	// The same change declared on the linear path: attention falling is no gain of that path.
	lin := func(m model.Manifest) model.Manifest {
		return armtest.WithField(m, "change", map[string]any{"path": "linear"})
	}
	base2 := withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.Manifest = lin(armtest.FullManifest) }).Build(1), "FLASH_ATTN", 900)
	cand2 := withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.Copies, a.Manifest = 4, lin(armtest.FullManifest) }).Build(100), "FLASHINFER", 500)
	rec = compare.Compare(base2, cand2, compare.DefaultSettings)
	if rec.Status == model.Offset || rec.Families.Targeted.Family != "gemm" {
		t.Errorf("linear: %s targeted %+v", rec.Status, rec.Families.Targeted)
	}
}

// Rule 10: a change declared on the linear path is judged by the linear kernel the logs name.
func TestDeclaredLinearPath(t *testing.T) {
	decl := func(m model.Manifest, target string) model.Manifest {
		m = armtest.WithField(m, "change", map[string]any{"what": "FP8 weights", "path": "linear"})
		return armtest.WithField(m, "path", map[string]any{"target_backend": target})
	}
	setLinear := func(a compare.Arm, kernel string) compare.Arm {
		for _, rd := range a.Runs {
			for _, l := range rd.Logs {
				l.AuxBackends = map[string]string{"linear": kernel}
				l.AuxLines = map[string]model.Line{"linear": {N: 12, Text: "Selected " + kernel + " for Fp8LinearMethod"}}
			}
		}
		return a
	}
	base := setLinear(armtest.Candidate("cand", 2, func(a *armtest.Spec) {
		a.Resolved, a.Target, a.Manifest = "FLASH_ATTN", "FLASH_ATTN", decl(armtest.FullManifest, "")
	}).Build(1), "UnquantizedLinearMethod")
	cand := setLinear(armtest.Candidate("cand", 2, func(a *armtest.Spec) {
		a.Resolved, a.Target, a.TPOT, a.Manifest = "FLASH_ATTN", "FLASH_ATTN", 10.8, decl(armtest.FullManifest, "CutlassFP8ScaledMMLinearKernel")
	}).Build(100), "CutlassFP8ScaledMMLinearKernel")
	rec := compare.Compare(base, cand, compare.DefaultSettings)
	if rec.Status != model.Established || rec.Path.Declared != "linear" ||
		rec.Path.ResolvedBackend != (compare.ArmValues{"UnquantizedLinearMethod", "CutlassFP8ScaledMMLinearKernel"}) {
		t.Fatalf("%s %v path %+v", rec.Status, rec.Causes, rec.Path)
	}
	if len(rec.Path.Evidence) == 0 || !strings.Contains(rec.Path.Evidence[0].Text, "Selected") {
		t.Errorf("evidence %+v", rec.Path.Evidence)
	}
	// Silent logs: the family's largest kernel names the path.
	base, cand = withKernels(withoutLogs(base), "", 900), withKernels(withoutLogs(cand), "", 900)
	cand.Runs[0].Traces[0].Families[1].Top = []string{"cutlass_scaled_mm_sm90"}
	rec = compare.Compare(base, cand, compare.DefaultSettings)
	if rec.Path.ResolvedBackend.Baseline != "sm90_xmma_gemm_bf16bf16" {
		t.Errorf("resolved from kernels: %+v (%v)", rec.Path.ResolvedBackend, rec.Causes)
	}
}

// Rule 10: a graph change is judged by the graph mode and compile level the logs name; it has
// no family, so the attention kernels neither gain nor contradict it.
func TestDeclaredGraphPath(t *testing.T) {
	graph := func(a compare.Arm, mode string) compare.Arm {
		for _, rd := range a.Runs {
			for _, l := range rd.Logs {
				l.AuxBackends = map[string]string{"graph": mode}
			}
		}
		return a
	}
	m := armtest.WithField(armtest.FullManifest, "change", map[string]any{"what": "CUDA graphs on", "path": "graph"})
	base := graph(withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.Manifest = m }).Build(1), "FLASHINFER", 900), "eager")
	cand := graph(withKernels(armtest.Candidate("cand", 2, func(a *armtest.Spec) { a.Manifest, a.TPOT = m, 10.8 }).Build(100), "FLASH_ATTN", 900), "cuda_graph, compile level 3")
	rec := compare.Compare(base, cand, compare.DefaultSettings)
	if rec.Status != model.Established || rec.Path.ResolvedBackend.Candidate != "cuda_graph, compile level 3" || rec.Families.Targeted != nil {
		t.Fatalf("%s %v path %+v targeted %+v", rec.Status, rec.Causes, rec.Path.ResolvedBackend, rec.Families.Targeted)
	}
	if _, ok := findCheck(rec, "kernels"); ok {
		t.Error("a kernels check for a graph change")
	}
}

func findCheck(rec compare.Record, name string) (compare.Check, bool) {
	for _, c := range rec.Checklist() {
		if c.Name == name {
			return c, true
		}
	}
	return compare.Check{}, false
}
