package library

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/model"
)

// Real startup logs that used to lose evidence, each imported through the bundle path beside a
// result (issue 11): what the run's log evidence then says.
func TestRealLogsBesideAResult(t *testing.T) {
	cases := []struct {
		log      string
		check    func(l *model.LogEvidence) bool
		expected string
	}{
		{"r1-distill-qwen.log", func(l *model.LogEvidence) bool {
			return l.TargetBackend == "FLASH_ATTN" && l.Resolved == "FLASH_ATTN" && l.Status == model.BackendMatch
		}, "a dense R1 distill: target FLASH_ATTN (not an MLA backend), match"},
		{"enginecore-failed.log", func(l *model.LogEvidence) bool {
			return l.Status == model.BackendFailed && len(l.ServerFailure) > 0 &&
				strings.Contains(l.ServerFailure[0].Text, "EngineCore failed to start") && l.ServerFailure[0].N == 6
		}, "status failed, quoting line 6 (EngineCore failed to start)"},
		{"only-candidate.log", func(l *model.LogEvidence) bool {
			return l.Status == model.BackendMatch && l.TargetSource == model.TargetOnlyCandidate && l.TargetBackend == "FLASHINFER"
		}, "the only candidate: match, target source only_candidate"},
		{"rocm-no-detection.log", func(l *model.LogEvidence) bool { return l.Platform == "rocm" }, "platform rocm"},
		{"cpu-no-detection.log", func(l *model.LogEvidence) bool {
			return l.Platform == "cpu" && l.Resolved == "TORCH_SDPA" && l.Status == model.BackendMatch
		}, "platform cpu, TORCH_SDPA as the CPU default"},
		{"markdown-pasted.log", func(l *model.LogEvidence) bool {
			return l.Platform == "cuda" && l.Version == "0.7.3" && l.Resolved == "FLASH_ATTN"
		}, "the tagged lines read: cuda, 0.7.3, FLASH_ATTN"},
	}
	for _, c := range cases {
		t.Run(c.log, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "reallogs", c.log))
			if err != nil {
				t.Fatal(err)
			}
			root := writeTree(t, map[string]string{
				"run-1/result.json": vllmResult(t, "20250101-000001"),
				"run-1/server.log":  string(data),
			})
			st := openStore(t)
			rep := Import(st, []string{root}, Options{})
			if len(rep.Errors) > 0 || len(rep.Added) != 1 {
				t.Fatalf("added %d, errors %v", len(rep.Added), rep.Errors)
			}
			rd, err := LoadRun(st, rep.Added[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(rd.Logs) != 1 {
				t.Fatalf("%d logs attached, want the server log", len(rd.Logs))
			}
			if l := rd.Logs[0]; !c.check(l) {
				t.Errorf("want %s; got platform %q target %q (%s) resolved %q status %s failure %v",
					c.expected, l.Platform, l.TargetBackend, l.TargetSource, l.Resolved, l.Status, l.ServerFailure)
			}
		})
	}
}
