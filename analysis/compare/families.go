package compare

import (
	"fmt"
	"math"
	"strings"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// Operator families (METHOD.md rule 11) compared between the arms, and the targeted ops of
// rule 6: the family of the declared change's path (rule 10).

// pathFamilies is the operator family each declared path targets; graph and other target none
// (a graph change shows in launches and total device time, not in one family).
var pathFamilies = map[model.ChangePath]string{
	model.PathAttention: "attention", model.PathLinear: "gemm", model.PathMoE: "moe", model.PathSampler: "sampling",
	model.PathCommunication: "communication",
}

// familyOrder is the display order of the families (importers/trace.Families).
var familyOrder = []string{"attention", "gemm", "moe", "norm", "elementwise", "rotary", "sampling",
	"communication", "memcpy", "other"}

// Families is the family table of the record: per family and arm, the count and device time
// per step (or per trace when a trace marks no steps) and the share of device time, medians
// over the arm's traces.
type Families struct {
	Per      string      `json:"per" yaml:"per"` // step or trace
	Rows     []FamilyRow `json:"rows" yaml:"rows"`
	Targeted *Targeted   `json:"targeted,omitempty" yaml:"targeted,omitempty"`
}

// FamilyRow is one family in both arms.
type FamilyRow struct {
	Family    string     `json:"family" yaml:"family"`
	Baseline  FamilyFigs `json:"baseline" yaml:"baseline"`
	Candidate FamilyFigs `json:"candidate" yaml:"candidate"`
	DeltaUs   model.Num  `json:"delta_us" yaml:"delta_us"`   // candidate − baseline device time
	DeltaPct  model.Num  `json:"delta_pct" yaml:"delta_pct"` // relative change, %
}

// FamilyFigs are one family's figures in one arm.
type FamilyFigs struct {
	Count  float64 `json:"count" yaml:"count"`
	TimeUs float64 `json:"time_us" yaml:"time_us"`
	Share  float64 `json:"share" yaml:"share"`
}

// Targeted is the family of the declared path and whether its device time fell.
type Targeted struct {
	Path   model.ChangePath `json:"path" yaml:"path"`
	Family string           `json:"family" yaml:"family"`
	Fell   bool             `json:"fell" yaml:"fell"` // by more than the noise floor
}

// famFigs are one trace's figures per family, per step when it marks steps.
func famFigs(t *model.TraceEvidence) (map[string]FamilyFigs, bool) {
	n := 1.0
	if t.Steps > 0 {
		n = float64(t.Steps)
	}
	out := map[string]FamilyFigs{}
	for _, f := range t.Families {
		out[f.Family] = FamilyFigs{Count: float64(f.Count) / n, TimeUs: f.TimeUs / n, Share: f.Share}
	}
	return out, t.Steps > 0
}

// armFamilies is the median over the arm's traces (with families) of each family's figures; a
// family a trace lacks counts as zero there.
func armFamilies(a Arm) (map[string]FamilyFigs, bool, int) {
	var per []map[string]FamilyFigs
	perStep := true
	for _, rd := range a.Runs {
		for _, t := range rd.Traces {
			if len(t.Families) == 0 {
				continue
			}
			f, ps := famFigs(t)
			per = append(per, f)
			perStep = perStep && ps
		}
	}
	out := map[string]FamilyFigs{}
	if len(per) == 0 {
		return out, false, 0
	}
	for _, fam := range familyOrder {
		var c, tm, sh []float64
		seen := false
		for _, p := range per {
			x, ok := p[fam]
			seen = seen || ok
			c, tm, sh = append(c, x.Count), append(tm, x.TimeUs), append(sh, x.Share)
		}
		if seen {
			out[fam] = FamilyFigs{Count: stats.Median(c), TimeUs: stats.Median(tm), Share: stats.Median(sh)}
		}
	}
	return out, perStep, len(per)
}

// families fills rec.Families when both arms have traces with families, and marks the targeted
// family of the declared path.
func families(rec *Record, base, cand Arm, declared model.ChangePath, set Settings) {
	b, bps, nb := armFamilies(base)
	c, cps, nc := armFamilies(cand)
	if nb == 0 || nc == 0 {
		return
	}
	f := &Families{Per: "trace"}
	if bps && cps {
		f.Per = "step"
	}
	for _, fam := range familyOrder {
		x, okB := b[fam]
		y, okC := c[fam]
		if !okB && !okC {
			continue
		}
		row := FamilyRow{Family: fam, Baseline: x, Candidate: y, DeltaUs: model.Num(y.TimeUs - x.TimeUs), DeltaPct: model.Unknown}
		if x.TimeUs > 0 {
			row.DeltaPct = model.Num(100 * (y.TimeUs/x.TimeUs - 1))
		}
		f.Rows = append(f.Rows, row)
	}
	if fam, ok := pathFamilies[declared]; ok {
		x, y := b[fam], c[fam]
		f.Targeted = &Targeted{Path: declared, Family: fam,
			Fell: x.TimeUs > 0 && y.TimeUs < x.TimeUs*(1-set.NoiseFloor)}
	}
	rec.Families = f
}

// targetedReason spells out the fall of the targeted family for the offset cause.
func targetedReason(f *Families) string {
	if f == nil || f.Targeted == nil || !f.Targeted.Fell {
		return ""
	}
	for _, r := range f.Rows {
		if r.Family == f.Targeted.Family {
			return fmt.Sprintf("%s device time %s -> %s us per %s (%s)", r.Family,
				model.Num(r.Baseline.TimeUs).Readable(), model.Num(r.Candidate.TimeUs).Readable(), f.Per, Pct(r.DeltaPct.F()))
		}
	}
	return ""
}

// familyShareMoved reports whether the largest family differs between the arms or a top
// family's share moved by more than ten points: rule 11's "hotspot moved".
func familyShareMoved(f *Families) bool {
	if f == nil || len(f.Rows) == 0 {
		return false
	}
	topB, topC := f.Rows[0], f.Rows[0]
	for _, r := range f.Rows {
		if r.Baseline.Share > topB.Baseline.Share {
			topB = r
		}
		if r.Candidate.Share > topC.Candidate.Share {
			topC = r
		}
		if math.Abs(r.Candidate.Share-r.Baseline.Share) > 0.10 {
			return true
		}
	}
	return topB.Family != topC.Family
}

// declaredPath is the operator path the change declares (bundle.yaml change.path), the
// candidate's first, attention when none is declared.
func declaredPath(base, cand Arm) model.ChangePath {
	if cand.Declared != nil {
		return cand.Declared.TargetPath()
	}
	for _, a := range []Arm{cand, base} {
		for _, rd := range a.Runs {
			if p := strings.ToLower(strings.TrimSpace(rd.Run.Manifest.String("change", "path"))); p != "" {
				return model.ChangePath(p)
			}
		}
	}
	return model.PathAttention
}
