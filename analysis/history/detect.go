// Package history finds the change points of a lab's series of runs (METHOD.md rule 13): per
// stage metric and load point, E-Divisive means with a permutation test and a minimum
// relative magnitude, lone outliers told apart from steps, and the evidence of each step
// judged by the whole method (analysis/compare) on the windows around it. Pure: no database,
// no files, no Fyne.
package history

import (
	"fmt"
	"math"
	"slices"
)

// Settings are rule 13's settings, with METHOD.md's defaults in DefaultSettings.
type Settings struct {
	Alpha        float64 `json:"alpha" yaml:"alpha"`                 // the permutation test's significance level
	MinMagnitude float64 `json:"min_magnitude" yaml:"min_magnitude"` // relative change of the segment medians a step needs
	Permutations int     `json:"permutations" yaml:"permutations"`   // random orders per test
	Window       int     `json:"window" yaml:"window"`               // runs each side a step is judged on
	MinSegment   int     `json:"min_segment" yaml:"min_segment"`     // fewest runs a segment may have
	Seed         uint64  `json:"seed" yaml:"seed"`                   // the permutations' seed: one series, one answer
}

// DefaultSettings are METHOD.md's defaults: alpha 0.01, 2 %, windows of 5 runs. 199
// permutations let p reach 0.005, under alpha.
var DefaultSettings = Settings{Alpha: 0.01, MinMagnitude: 0.02, Permutations: 199, Window: 5, MinSegment: 2, Seed: 13}

// withDefaults fills zero settings with the defaults.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings
	if s.Alpha > 0 && s.Alpha < 1 {
		d.Alpha = s.Alpha
	}
	if s.MinMagnitude > 0 {
		d.MinMagnitude = s.MinMagnitude
	}
	if s.Permutations > 0 {
		d.Permutations = s.Permutations
	}
	if s.Window > 0 {
		d.Window = s.Window
	}
	if s.MinSegment > 0 {
		d.MinSegment = s.MinSegment
	}
	if s.Seed != 0 {
		d.Seed = s.Seed
	}
	return d
}

// Validate checks every setting is in its range.
func (s Settings) Validate() error {
	switch {
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Errorf("alpha must be between 0 and 1")
	case !(s.MinMagnitude >= 0 && s.MinMagnitude < 1):
		return fmt.Errorf("min_magnitude is a fraction between 0 and 1 (0.02 = 2 %%)")
	case s.Permutations < 1 || s.Permutations > 100_000:
		return fmt.Errorf("permutations is between 1 and 100000")
	case s.Window < 1:
		return fmt.Errorf("window must be at least 1 run")
	case s.MinSegment < 1:
		return fmt.Errorf("min_segment must be at least 1 run")
	}
	return nil
}

// Step is a change point of one series: the level moved from Index on.
type Step struct {
	Index  int     // the first value after the step, in the series' order
	Before float64 // median of the segment before
	After  float64 // median of the segment after
	P      float64 // the permutation test's p of the split
}

// DeltaPct is the step's relative change, in %.
func (s Step) DeltaPct() float64 { return (s.After/s.Before - 1) * 100 }

// Result is what Detect finds in one series.
type Result struct {
	Steps    []Step // in series order
	Outliers []int  // indices of lone outliers: out of the level, back the next run
	// Segments are the stretches between steps as [start, end) of the series, outliers inside.
	Segments [][2]int
}

// Detect finds the change points of a series (rule 13). NaN values are unknown: skipped, as
// if the run were not there. The same series and settings always give the same answer.
func Detect(values []float64, set Settings) Result {
	set = set.withDefaults()
	var idx []int // positions of the known values
	for i, v := range values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			idx = append(idx, i)
		}
	}
	known := make([]float64, len(idx))
	for k, i := range idx {
		known[k] = values[i]
	}
	out := Result{}
	outl := outliers(known, set)
	var keep []int // positions in known that take part in the search
	for k := range known {
		if !slices.Contains(outl, k) {
			keep = append(keep, k)
		}
	}
	for _, k := range outl {
		out.Outliers = append(out.Outliers, idx[k])
	}
	xs := make([]float64, len(keep))
	for j, k := range keep {
		xs[j] = known[k]
	}
	cuts, ps := divide(xs, set)
	cuts, ps = prune(xs, cuts, ps, set.MinMagnitude)
	bounds := append(append([]int{0}, cuts...), len(xs))
	at := func(j int) int { // a position in xs as a position in values
		if j >= len(keep) {
			return len(values)
		}
		return idx[keep[j]]
	}
	for c, cut := range cuts {
		out.Steps = append(out.Steps, Step{Index: at(cut), Before: median(xs[bounds[c]:cut]),
			After: median(xs[cut:bounds[c+2]]), P: ps[c]})
	}
	if len(values) > 0 {
		start := 0
		for _, s := range out.Steps {
			out.Segments = append(out.Segments, [2]int{start, s.Index})
			start = s.Index
		}
		out.Segments = append(out.Segments, [2]int{start, len(values)})
	}
	return out
}

// segment is a stretch of the series still being divided, with its best split.
type segment struct {
	start, end int
	tau        int // the best split, relative to start; 0 when none
	q          float64
	final      bool
}

// divide is the divisive search: the segment whose best split is strongest is tested first;
// a significant split with the minimum magnitude divides it, anything else leaves it whole.
// It returns the cuts (first index of each new segment) in order, with each one's p.
func divide(xs []float64, set Settings) ([]int, []float64) {
	analyse := func(start, end int) segment {
		s := segment{start: start, end: end}
		if end-start < 2*set.MinSegment {
			s.final = true
			return s
		}
		e := newEnergy(xs[start:end])
		s.tau, s.q = e.best(e.items, set.MinSegment, newScratch(end-start))
		if s.tau == 0 || s.q <= 0 {
			s.final = true
		}
		return s
	}
	segs := []segment{analyse(0, len(xs))}
	var cuts []int
	var ps []float64
	for {
		pick := -1
		for i, s := range segs {
			if !s.final && (pick < 0 || s.q > segs[pick].q) {
				pick = i
			}
		}
		if pick < 0 {
			break
		}
		s := segs[pick]
		cut := s.start + s.tau
		if !moved(median(xs[s.start:cut]), median(xs[cut:s.end]), set.MinMagnitude) {
			segs[pick].final = true
			continue
		}
		e := newEnergy(xs[s.start:s.end])
		p := e.permutationP(s.q, set.MinSegment, set.Permutations, set.Alpha, streamOf(set.Seed, s.start, s.end))
		if p >= set.Alpha {
			segs[pick].final = true
			continue
		}
		cuts, ps = append(cuts, cut), append(ps, p)
		segs = slices.Replace(segs, pick, pick+1, analyse(s.start, cut), analyse(cut, s.end))
	}
	order := make([]int, len(cuts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cuts[a] - cuts[b] })
	sc, sp := make([]int, len(cuts)), make([]float64, len(cuts))
	for i, o := range order {
		sc[i], sp[i] = cuts[o], ps[o]
	}
	return sc, sp
}

// prune drops the cuts whose final neighbouring segments' medians differ by less than the
// minimum magnitude (a later split can leave an earlier one between two near levels),
// weakest first, until every step left moved enough.
func prune(xs []float64, cuts []int, ps []float64, minMag float64) ([]int, []float64) {
	for {
		bounds := append(append([]int{0}, cuts...), len(xs))
		worst, worstRel := -1, math.Inf(1)
		for c := range cuts {
			b, a := median(xs[bounds[c]:cuts[c]]), median(xs[cuts[c]:bounds[c+2]])
			if rel := relChange(b, a); !moved(b, a, minMag) && rel < worstRel {
				worst, worstRel = c, rel
			}
		}
		if worst < 0 {
			return cuts, ps
		}
		cuts = slices.Delete(slices.Clone(cuts), worst, worst+1)
		ps = slices.Delete(slices.Clone(ps), worst, worst+1)
	}
}

// moved reports whether two levels differ by more than the minimum relative magnitude.
func moved(before, after, minMag float64) bool { return relChange(before, after) > minMag }

func relChange(before, after float64) float64 {
	if before == 0 {
		if after == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return math.Abs(after/before - 1)
}

// median of a slice (not changed).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// streamOf is the permutations' seed for one segment: the settings' seed and where the
// segment lies, so a segment's test is the same whatever was tested before it.
func streamOf(seed uint64, start, end int) uint64 {
	return seed*0x9e3779b97f4a7c15 ^ uint64(start)<<32 ^ uint64(end)
}
