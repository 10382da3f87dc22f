package slo

import (
	"fmt"
	"math"
	"strings"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// Gain is what the SLO section says at the points where attainment changed significantly in
// one direction: the headline a verdict can rest on ("SLO attainment 51 → 75 % at c=1–8,
// p=0.008").
type Gain struct {
	Better    bool     // attainment rose (else fell)
	Baseline  float64  // median over the points of each arm's median attainment, 0-1
	Candidate float64  //
	Points    []string // the points' labels
	Where     string   // the points along the sweep's axis: "c=1–8", "rate 2–8 req/s", or labels
	P         float64  // the largest p of those points
	Saturated bool     // every one of those points is saturated on a side
}

// Gain is the significant attainment change the section shows, rises before falls; ok false
// when attainment changed significantly nowhere.
func (sec Section) Gain() (Gain, bool) {
	for _, better := range []bool{true, false} {
		var g Gain
		var bs, cs []float64
		sat := true
		for _, p := range sec.Points {
			d := p.Attainment
			if !(better && d.Better || !better && d.Worse) {
				continue
			}
			g.Points = append(g.Points, p.Label)
			bs, cs = append(bs, p.Baseline.Attainment.Median.F()), append(cs, p.Candidate.Attainment.Median.F())
			g.P = math.Max(g.P, d.P.F())
			sat = sat && p.Saturated()
		}
		if len(g.Points) == 0 {
			continue
		}
		g.Better, g.Saturated = better, sat
		g.Baseline, g.Candidate = stats.Median(bs), stats.Median(cs)
		g.Where = sec.Where(g.Points)
		return g, true
	}
	return Gain{}, false
}

// Where names a set of points along the sweep's load axis, neighbours as ranges: "c=1–8, 32",
// "rate 2–8 req/s"; labels otherwise.
func (sec Section) Where(labels []string) string {
	name, unit, load, ok := axisOf(sec.Points)
	if !ok {
		return strings.Join(labels, ", ")
	}
	in := map[string]bool{}
	for _, l := range labels {
		in[l] = true
	}
	var runs []string
	pts := sec.Points
	for i := 0; i < len(pts); i++ {
		if !in[pts[i].Label] {
			continue
		}
		j := i
		for j+1 < len(pts) && in[pts[j+1].Label] {
			j++
		}
		v := model.FormatNum(model.Num(load(pts[i])))
		if j > i {
			v += "–" + model.FormatNum(model.Num(load(pts[j])))
		}
		runs = append(runs, v)
		i = j
	}
	if name == "concurrency" {
		return "c=" + strings.Join(runs, ", ")
	}
	return "rate " + strings.Join(runs, ", ") + " " + unit
}

// Check is the SLO's line of the evidence checklist: the change it shows, and which limit
// binds (the share of requests failing each); state ok, warn (not computable somewhere, or a
// gain only at saturated points) or fail (attainment significantly worse somewhere).
func (sec Section) Check() (state model.CheckState, reason, hint string) {
	state = model.CheckOK
	reason = sec.Objective + ": "
	if g, ok := sec.Gain(); ok {
		reason += fmt.Sprintf("attainment %.0f → %.0f %% at %s (p=%.2g)", 100*g.Baseline, 100*g.Candidate, g.Where, g.P)
		switch {
		case !g.Better:
			state = model.CheckFail
			hint = "the candidate meets the SLO less often: find the limit that binds before calling it faster"
		case g.Saturated:
			state = model.CheckWarn
			hint = "the attainment gain is measured only at saturated points: rerun below saturation"
		}
	} else {
		reason += "attainment ~ at every point"
	}
	if sec.Binding != "" {
		reason += "; " + sec.Binding
	}
	for _, p := range sec.Points {
		if p.Baseline.Missing != "" || p.Candidate.Missing != "" {
			if state == model.CheckOK {
				state = model.CheckWarn
			}
			hint = strings.TrimPrefix(hint+"; save per-request data (vllm bench serve --save-detailed), or the tool's goodput with the SLO it used", "; ")
			break
		}
	}
	return state, reason, hint
}
