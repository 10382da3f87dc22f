package result

import "benchlens/model"

// Settle finishes a run once everything that belongs to it is merged (its per-request
// companion, its manifest): a sample of records is marked so nothing recomputes from it, the
// zeros a tool writes for a run with no success are left out, and implausible values become
// warnings stored with the run.
func Settle(run *model.Run) {
	markSample(run)
	dropNoSuccessLatencies(run)
	flagImplausible(run)
}
