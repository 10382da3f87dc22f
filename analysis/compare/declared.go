package compare

import (
	"fmt"

	"benchlens/model"
)

// Paths beyond attention (METHOD.md rule 10): when the change declares another operator path,
// its path evidence is what the server log says about that path (the linear kernel selected,
// the MoE backend, the sampler, custom all-reduce, graph mode and compile level), else the
// largest op of its family in the profiler traces.

// pathLogKeys is the LogEvidence.AuxBackends key of each declared path.
var pathLogKeys = map[model.ChangePath]string{
	model.PathLinear: "linear", model.PathMoE: "moe", model.PathSampler: "sampler", model.PathCommunication: "all_reduce", model.PathGraph: "graph",
}

// declaredPathOf reads an arm's evidence for a declared path other than attention.
func declaredPathOf(a Arm, side string, declared model.ChangePath) armPath {
	var p armPath
	resolved := map[string]bool{}
	targets := map[string]bool{}
	key := pathLogKeys[declared]
	for _, rd := range a.Runs {
		if t := rd.Run.Manifest.String("path", "target_backend"); t != "" {
			targets[t] = true
		}
		found := ""
		for _, l := range rd.Logs {
			p.logged = true
			if v := l.AuxBackends[key]; key != "" && v != "" {
				found = v
				if ln, ok := l.AuxLines[key]; ok {
					p.evidence = appendLine(p.evidence, side, rd.Run.ID, ln)
				}
			}
		}
		if found == "" {
			if fam, ok := pathFamilies[declared]; ok {
				if op := topFamilyOp(rd.Traces, fam); op != "" {
					found = op
					p.evidence = append(p.evidence, EvidenceLine{Arm: side, Run: rd.Run.ID,
						Text: fmt.Sprintf("the log is silent on the %s path; its largest %s kernel is %s", declared, fam, op), Runs: 1})
				}
			}
		}
		if found != "" {
			resolved[found] = true
		}
	}
	p.settle(targets, resolved)
	return p
}

// topFamilyOp is the largest op of a family over a run's traces.
func topFamilyOp(traces []*model.TraceEvidence, fam string) string {
	best, bestUs := "", 0.0
	for _, t := range traces {
		for _, f := range t.Families {
			if f.Family == fam && len(f.Top) > 0 && f.TimeUs > bestUs {
				best, bestUs = f.Top[0], f.TimeUs
			}
		}
	}
	return best
}
