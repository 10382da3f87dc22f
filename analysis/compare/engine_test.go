package compare_test

import (
	"slices"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/armtest"
	"benchlens/model"
)

// withEngine sets every run's server log engine config (vLLM's engine config line keys).
func withEngine(a compare.Arm, kv map[string]string) compare.Arm {
	for _, rd := range a.Runs {
		for _, l := range rd.Logs {
			l.EngineConfig = kv
		}
	}
	return a
}

// The engine configuration is a condition (METHOD.md rule 12): a difference is
// environment_differs naming the setting, unless the declared change covers it (rule 10).
func TestEngineConfigIsACondition(t *testing.T) {
	on := map[string]string{"enable_prefix_caching": "True", "chunked_prefill_enabled": "True", "quantization": "None", "kv_cache_dtype": "auto"}
	off := map[string]string{"enable_prefix_caching": "False", "chunked_prefill_enabled": "True", "quantization": "None", "kv_cache_dtype": "auto"}
	fp8 := map[string]string{"enable_prefix_caching": "True", "chunked_prefill_enabled": "True", "quantization": "fp8", "kv_cache_dtype": "auto"}
	withChange := func(what string, fields ...any) func(*armtest.Spec) {
		return func(s *armtest.Spec) {
			s.Manifest = armtest.WithField(s.Manifest, "change", map[string]any{"what": what, "fields": fields})
		}
	}
	fp8Model := func(s *armtest.Spec) {
		s.Model = "m-FP8"
		s.Manifest = armtest.WithField(s.Manifest, "workload.model_name", "m-FP8")
	}
	tests := []struct {
		name       string
		cand       func(*armtest.Spec)
		candEngine map[string]string
		env        string // the environment_differs reason must hold it; "" none
		declared   []string
		hint       string
	}{
		{"prefix caching off in the candidate", nil, off, "engine_config.prefix_caching (on vs off)", nil,
			`if engine_config.prefix_caching is the change under test, declare it in the candidate's bundle.yaml: change: {what: "…", fields: [engine_config.prefix_caching]}`},
		{"declared by name", withChange("no prefix caching", "engine_config.prefix_caching"), off, "", []string{"engine_config.prefix_caching"}, ""},
		{"declared in words", withChange("automatic prefix caching off"), off, "", []string{"engine_config.prefix_caching"}, ""},
		{"an FP8 checkpoint, what: FP8 weights", func(s *armtest.Spec) { fp8Model(s); withChange("FP8 weights")(s) }, fp8, "",
			[]string{"engine_config.quantization", "workload.model_name"}, ""},
		{"an FP8 checkpoint undeclared", fp8Model, fp8, "engine_config.quantization (none vs fp8)", nil,
			`if workload.model_name and engine_config.quantization is the change under test, declare it in the candidate's bundle.yaml: change: {what: "…", fields: [workload.model_name, engine_config.quantization], path: linear}`},
		{"the same settings", nil, on, "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := withEngine(armtest.Baseline("base", 1).Build(1), on)
			cand := withEngine(armtest.Candidate("cand", 2, tt.cand).Build(10), tt.candEngine)
			rec := compare.Compare(base, cand, compare.DefaultSettings)
			env := ""
			for _, c := range rec.Causes {
				if c.Code == model.EnvironmentDiffers {
					env = c.Reason
				}
			}
			if (tt.env == "") != (env == "") || !strings.Contains(env, tt.env) {
				t.Errorf("environment_differs %q, want %q", env, tt.env)
			}
			var declared []string
			for _, c := range rec.Conditions() {
				if c.Declared {
					declared = append(declared, c.Name)
				}
			}
			slices.Sort(declared)
			if !slices.Equal(declared, tt.declared) {
				t.Errorf("declared %v, want %v", declared, tt.declared)
			}
			if f := rec.EngineConfig["chunked_prefill"]; f.State != model.ConditionSame || f.Baseline != "on" {
				t.Errorf("chunked_prefill %+v", f)
			}
			for _, c := range rec.Checklist() {
				if c.Name == "conditions" && tt.hint != "" && c.Hint != tt.hint {
					t.Errorf("hint %q\nwant %q", c.Hint, tt.hint)
				}
			}
		})
	}
}

// SGLang's ServerArgs and server_info speak of the same settings in their own words.
func TestEngineConfigFromSGLang(t *testing.T) {
	base := armtest.Baseline("base", 1).Build(1)
	cand := armtest.Candidate("cand", 2, nil).Build(10)
	for _, rd := range base.Runs {
		rd.Logs[0].Args = map[string]string{"disable_radix_cache": "False", "enable_hierarchical_cache": "False", "chunked_prefill_size": "8192", "skip_server_warmup": "False"}
	}
	for _, rd := range cand.Runs {
		rd.Logs = nil
		rd.Run.Extra = map[string]any{"server_info": map[string]any{"disable_radix_cache": false, "enable_hierarchical_cache": true,
			"hicache_ratio": 2.0, "chunked_prefill_size": 8192.0, "skip_server_warmup": true}}
	}
	rec := compare.Compare(base, cand, compare.DefaultSettings)
	want := map[string][3]string{
		"prefix_caching":   {"on", "on", "same"},
		"chunked_prefill":  {"on (8192 tokens)", "on (8192 tokens)", "same"},
		"kv_cache_offload": {"off", "hierarchical (HiCache) hicache_ratio=2", "differs"},
		"server_warmup":    {"done", "skipped", "differs"},
	}
	for k, w := range want {
		f := rec.EngineConfig[k]
		if f.Baseline != w[0] || f.Candidate != w[1] || string(f.State) != w[2] {
			t.Errorf("%s: %+v, want %v", k, f, w)
		}
	}
}
