package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// compare --slo is a contract (DESIGN.md): the text is a golden file; JSON and YAML carry
// "slo" with each point's per-arm attainment (0-1) and goodput (req/s), their deltas with p
// and interval, and the capacity per arm; the SLO is stored with the settings of the verdict.
func TestCompareSLO(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if _, stderr, code := bl(t, "--db", db, "import", "../../testdata/slo-sweep"); code != 0 {
		t.Fatalf("import: exit %d %s", code, stderr)
	}
	args := []string{"--db", db, "compare", "--baseline", "slo-baseline", "--candidate", "slo-candidate", "--slo", "ttft<=200,tpot<=30", "--slo-target", "0.9"}
	out, stderr, code := bl(t, args...)
	if code != 0 {
		t.Fatalf("exit %d %s", code, stderr)
	}
	golden(t, "compare_slo.golden.txt", out)

	var rec struct {
		SLO struct {
			Objective string  `json:"objective"`
			Target    float64 `json:"target"`
			Points    []struct {
				Baseline struct {
					Attainment struct{ Median *float64 } `json:"attainment"`
					Goodput    struct{ Median *float64 } `json:"goodput"`
				} `json:"baseline"`
				Attainment struct {
					Delta  *float64 `json:"delta"`
					P      *float64 `json:"p"`
					CILow  *float64 `json:"ci_low"`
					CIHigh *float64 `json:"ci_high"`
				} `json:"attainment_delta"`
				Goodput struct {
					Delta *float64 `json:"delta"`
				} `json:"goodput_delta"`
			} `json:"points"`
			Capacity struct {
				Baseline  struct{ Value *float64 } `json:"baseline"`
				Candidate struct{ Value *float64 } `json:"candidate"`
			} `json:"capacity"`
		} `json:"slo"`
		Settings struct {
			SLO       string  `json:"slo"`
			SLOTarget float64 `json:"slo_target"`
		} `json:"settings"`
	}
	out, _, code = bl(t, append(args, "--format", "json")...)
	if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil {
		t.Fatalf("json: exit %d %v", code, err)
	}
	s := rec.SLO
	if s.Objective != "ttft<=200,tpot<=30" || s.Target != 0.9 || len(s.Points) != 4 || rec.Settings.SLO != "ttft<=200,tpot<=30" {
		t.Fatalf("slo %+v settings %+v", s, rec.Settings)
	}
	for i, p := range s.Points {
		a := p.Baseline.Attainment.Median
		if a == nil || *a < 0 || *a > 1 || p.Baseline.Goodput.Median == nil || p.Attainment.P == nil || p.Attainment.CILow == nil || p.Goodput.Delta == nil {
			t.Errorf("point %d: %+v", i, p)
		}
	}
	if s.Capacity.Baseline.Value == nil || s.Capacity.Candidate.Value == nil {
		t.Errorf("capacity %+v", s.Capacity)
	}
	out, _, _ = bl(t, append(args, "--format", "yaml")...)
	var y map[string]any
	if err := yaml.Unmarshal([]byte(out), &y); err != nil || y["slo"] == nil {
		t.Fatalf("yaml: %v", err)
	}

	// A bad SLO is a usage error, said before the library opens.
	for _, bad := range []string{"ttft<200", "latency<=3", "ttft<=-5"} {
		_, stderr, code := bl(t, "--db", db, "compare", "--baseline", "a", "--candidate", "b", "--slo", bad)
		if code != exitUsage || !strings.Contains(stderr, "slo") {
			t.Errorf("--slo %q: exit %d %q", bad, code, stderr)
		}
	}
	// The library's setting applies to every compare until reset.
	if _, stderr, code := bl(t, "--db", db, "settings", "slo=tpot<=30"); code != 0 {
		t.Fatalf("settings: %s", stderr)
	}
	out, _, _ = bl(t, "--db", db, "compare", "--baseline", "slo-baseline", "--candidate", "slo-candidate")
	if !strings.Contains(out, "SLO tpot<=30 (capacity at attainment >= 90 %") {
		t.Errorf("the library's SLO is not used:\n%s", out)
	}
}
