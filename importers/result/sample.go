package result

import (
	"fmt"

	"benchlens/model"
)

// markSample flags a run whose per-request records are fewer than the successful requests
// the tool summarised: a sample (GuideLLM --output-sampling, a trimmed export) must not
// replace the tool's statistics, so the recomputation and the analysis leave it alone. An
// importer that knows the tool's own sampling setting has flagged the run already.
func markSample(run *model.Run) {
	if len(run.Requests) == 0 {
		return
	}
	if run.Sampled == nil && run.Completed.Known() {
		ok := 0
		for i := range run.Requests {
			if run.Requests[i].OK() {
				ok++
			}
		}
		if population := int(run.Completed.F()); ok < population {
			run.Sampled = &model.Sample{Records: ok, Population: population,
				Why: fmt.Sprintf("the file keeps records of %d of the %d successful requests the tool counted", ok, population)}
		}
	}
	if run.Sampled != nil {
		run.Warnings = append(run.Warnings, model.Warn(model.WarnSampled, run.Sampled.Records, run.Sampled.Population))
	}
}
