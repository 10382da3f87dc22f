package compare

import "benchlens/analysis/reproduce"

// recipe is the record's `reproduce` section: the commands that re-create each arm's
// conditions, from the runs' files and their server logs.
func recipe(base, cand Arm) reproduce.Recipe {
	return reproduce.Build(base.Label, recipeRuns(base), cand.Label, recipeRuns(cand))
}

func recipeRuns(a Arm) []reproduce.Run {
	out := make([]reproduce.Run, len(a.Runs))
	for i, rd := range a.Runs {
		out[i] = reproduce.Run{Run: rd.Run, Logs: rd.Logs}
	}
	return out
}
