package compare

import (
	"slices"

	"benchlens/analysis/reproduce"
)

// recipe is the record's `reproduce` section: the commands that re-create each arm's
// conditions, from the runs' files and their server logs.
func recipe(base, cand Arm) reproduce.Recipe {
	return reproduce.Build(base.Label, recipeRuns(base), cand.Label, recipeRuns(cand))
}

// recipeRuns are the arm's runs for its recipe: its warm-up runs first, as they ran.
func recipeRuns(a Arm) []reproduce.Run {
	out := make([]reproduce.Run, 0, len(a.Warmups)+len(a.Runs))
	for _, rd := range append(slices.Clone(a.Warmups), a.Runs...) {
		out = append(out, reproduce.Run{Run: rd.Run, Logs: rd.Logs, Fingerprint: rd.Fingerprint})
	}
	return out
}
