package result

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// AIPerf's roll-ups over several runs are no run: each comes back as a file of no result, with
// what it is, so it is kept beside the runs and named in the report, never counted as a repeat.
func TestAIPerfRollupsAreNoRuns(t *testing.T) {
	for _, tt := range []struct{ file, want string }{
		{"aggregate/profile_export_aiperf_aggregate.json", "confidence aggregate"},
		{"aggregate/profile_export_aiperf_aggregate.csv", "confidence aggregate table"},
		{"aggregate/profile_export_aiperf_collated.json", "collated export"},
		{"sweep_aggregate/profile_export_aiperf_sweep.json", "sweep aggregate"},
		{"sweep_aggregate/profile_export_aiperf_sweep.csv", "sweep aggregate table"},
	} {
		name := filepath.Join("testdata", "aiperf-rollups", tt.file)
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parseFile(name, data)
		if err != nil || len(p.Runs) != 0 || p.Part != nil || !strings.Contains(p.Why, tt.want) {
			t.Errorf("%s: %d runs, why %q, %v; want no run, why naming %q", tt.file, len(p.Runs), p.Why, err, tt.want)
		}
	}
	// The run beside them is a run.
	parseRuns(t, "profile_export_aiperf.json", loadTestdata(t, "aiperf-rollups/profile_runs/run_0001/profile_export_aiperf.json"), 1)
}
