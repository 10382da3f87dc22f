package slo

import "benchlens/model"

// Pareto is each arm's load points on the plane of output tok/s per GPU (what a GPU earns)
// against output tok/s per user (what a user sees), the medians over the repeats; a point is
// on its arm's frontier when no other point of the arm is at least as good on both and better
// on one.
type Pareto struct {
	Baseline  []ParetoPoint `json:"baseline" yaml:"baseline"`
	Candidate []ParetoPoint `json:"candidate" yaml:"candidate"`
	// PerGPUKnown is false when a run's GPU count is unknown: its per-GPU figure is per server.
	PerGPUKnown bool `json:"per_gpu_known" yaml:"per_gpu_known"`
}

// ParetoPoint is one arm's load point on the Pareto plane.
type ParetoPoint struct {
	Label    string    `json:"label" yaml:"label"`
	PerUser  model.Num `json:"output_tok_s_per_user" yaml:"output_tok_s_per_user"`
	PerGPU   model.Num `json:"output_tok_s_per_gpu" yaml:"output_tok_s_per_gpu"`
	Frontier bool      `json:"frontier" yaml:"frontier"`
}

// pareto places the points; nil when no point has both figures.
func pareto(points []Point) *Pareto {
	pr := &Pareto{PerGPUKnown: true}
	side := func(a func(Point) ArmPoint) []ParetoPoint {
		var out []ParetoPoint
		for _, p := range points {
			ap := a(p)
			for _, r := range ap.Runs {
				pr.PerGPUKnown = pr.PerGPUKnown && r.GPUsKnown
			}
			if ap.PerUser.Median.Known() && ap.PerGPU.Median.Known() {
				out = append(out, ParetoPoint{Label: p.Label, PerUser: ap.PerUser.Median, PerGPU: ap.PerGPU.Median})
			}
		}
		frontier(out)
		return out
	}
	pr.Baseline = side(func(p Point) ArmPoint { return p.Baseline })
	pr.Candidate = side(func(p Point) ArmPoint { return p.Candidate })
	if len(pr.Baseline)+len(pr.Candidate) == 0 {
		return nil
	}
	return pr
}

// frontier marks the points no other point dominates (both figures are higher-is-better).
func frontier(ps []ParetoPoint) {
	for i := range ps {
		ps[i].Frontier = true
		for j := range ps {
			a, b := ps[j], ps[i]
			if i != j && a.PerUser >= b.PerUser && a.PerGPU >= b.PerGPU && (a.PerUser > b.PerUser || a.PerGPU > b.PerGPU) {
				ps[i].Frontier = false
				break
			}
		}
	}
}
