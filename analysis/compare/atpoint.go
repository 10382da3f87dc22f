package compare

import "slices"

// AtPoint is matched load point i of a sweep (rule 9) as a comparison of its own: the record
// with the point's stages, tails, input-length buckets, status and causes, and its runs as the
// arms. The views show a sweep point by point through it; nothing in it pools unlike loads.
// It is the record itself when i is out of range.
func (r Record) AtPoint(i int) Record {
	if i < 0 || i >= len(r.LoadPoints) {
		return r
	}
	p := r.LoadPoints[i]
	out := r
	out.Perf, out.Tails = p.Deltas, p.Tails
	out.Buckets = Buckets{Edges: []float64{}, Rows: []BucketResult{}, HoldsIn: []string{}}
	if p.Buckets != nil {
		out.Buckets = *p.Buckets
	}
	out.Status, out.Causes = p.Status, p.Causes
	out.Arms = Arms{ArmInfo{r.Arms.Baseline.Label, p.Runs.Baseline}, ArmInfo{r.Arms.Candidate.Label, p.Runs.Candidate}}
	out.Measurement.Repeats = [2]int{p.Repeats.Baseline, p.Repeats.Candidate}
	out.LoadPoints, out.HoldsUnder, out.Unmatched = nil, "", nil
	return out
}

// Only is the arm restricted to the runs with the given ids, in the arm's order (a load
// point's runs, for its distributions).
func (a Arm) Only(ids []int64) Arm {
	var idx []int
	for i, rd := range a.Runs {
		if rd.Run != nil && slices.Contains(ids, rd.Run.ID) {
			idx = append(idx, i)
		}
	}
	return a.subset(idx)
}
