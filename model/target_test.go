package model

import "testing"

// The target is decided in one order for every view: bundle.yaml, a server log's flag or
// variable, a dump's VLLM_ATTENTION_BACKEND, a log's platform default.
func TestTargetOf(t *testing.T) {
	flag := TargetClaim{Backend: "FLASH_ATTN", Source: TargetFlag}
	def := TargetClaim{Backend: "FLASH_ATTN", Source: TargetDefault}
	dump := TargetClaim{Backend: "FLASHINFER", Source: TargetDump, File: "env/collect_env.txt", Line: 41}
	manifest := Manifest{"path": map[string]any{"target_backend": "triton_attn"}}
	for _, c := range []struct {
		name   string
		m      Manifest
		claims []TargetClaim
		want   Target
	}{
		{"bundle.yaml first", manifest, []TargetClaim{flag, dump}, Target{"TRITON_ATTN", "bundle.yaml"}},
		{"a log's flag before a dump", nil, []TargetClaim{dump, flag}, Target{"FLASH_ATTN", "server log: flag"}},
		{"a dump before a log's default", nil, []TargetClaim{def, dump}, Target{"FLASHINFER", "VLLM_ATTENTION_BACKEND=FLASHINFER from env/collect_env.txt line 41"}},
		{"a log's default last", nil, []TargetClaim{def}, Target{"FLASH_ATTN", "server log: default"}},
		{"nothing", nil, nil, Target{}},
	} {
		if got := TargetOf(c.m, c.claims); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	// A dump's summary carries its claim, so lists decide as the comparison does.
	ev := Evidence{Kind: "environment", File: "env/collect_env.txt", Environment: &EnvEvidence{Env: []EnvVar{{Name: TargetVar, Value: "flashinfer", Line: 41}}}}
	if c, ok := ev.Summary().TargetClaim(); !ok || c != dump {
		t.Errorf("summary claim %+v %v", c, ok)
	}
}
