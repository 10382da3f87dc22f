package library

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"

	"benchlens/model"
	"benchlens/store"
)

// fingerprintScheme starts every fingerprint of the current scheme; a library holding others
// (written by an older benchlens) has them recomputed before its next import (store.Rekey).
// Change it, and identity below, only together.
const fingerprintScheme = "2:"

// identity is what a run's fingerprint is made of: an explicit set of what the tool measured,
// so a field added to model.Run later changes no run's identity. Per-request records, when
// there are any, stand for the run; the tool's own statistics only when there are none.
type identity struct {
	Tool, Model, Date                   string
	NumPrompts, Completed, Failed       model.Num
	DurationS                           model.Num
	TotalInputTokens, TotalOutputTokens model.Num
	Requests                            int
	TTFTSum, LatencySum                 float64
	Summary                             map[string]model.Stats `json:",omitempty"`
	ResultSHA256                        string                 `json:",omitempty"`
	Index                               int
}

// Fingerprint identifies a run by what it measured, not by where it was found: the same run
// found twice (a sweep's run=N.json and its summary.json, a grown JSONL, a re-import) is
// stored once. Labels, roles and manifests are not part of it. A run that measured nothing is
// identified by its result file (SHA-256) and its index there.
func Fingerprint(run *model.Run, resultSHA string, index int) string {
	id := identity{Tool: run.Tool, Model: run.Model, Date: run.Date,
		NumPrompts: run.NumPrompts, Completed: run.Completed, Failed: run.Failed, DurationS: run.DurationS,
		TotalInputTokens: run.TotalInputTokens, TotalOutputTokens: run.TotalOutputTokens,
		Requests: len(run.Requests)}
	for i := range run.Requests {
		id.TTFTSum += finite(run.Requests[i].TTFT)
		id.LatencySum += finite(run.Requests[i].Latency)
	}
	switch {
	case len(run.Requests) > 0:
	case len(run.Summary) > 0:
		id.Summary = run.Summary
	default:
		id.ResultSHA256, id.Index = resultSHA, index
	}
	b, _ := json.Marshal(id)
	sum := sha256.Sum256(b)
	return fingerprintScheme + hex.EncodeToString(sum[:])
}

// finite is f, or 0 for a value not recorded (NaN; the library stores infinities as unknown).
func finite(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return f
}

// rekey gives every stored run the fingerprint this version computes before a run is looked
// up by it: the runs of an older scheme (store.Rekey reads each), and the runs that measured
// nothing keyed by an empty hash before this version (store.RekeyUnhashed reads those alone).
func rekey(st *store.Store) error {
	if _, err := st.Rekey(fingerprintScheme, Fingerprint); err != nil {
		return fmt.Errorf("recomputing the identities of runs stored by an older benchlens: %w", err)
	}
	if _, err := st.RekeyUnhashed(Fingerprint); err != nil {
		return fmt.Errorf("recomputing the identities of runs that measured nothing, stored by an older benchlens: %w", err)
	}
	return nil
}
