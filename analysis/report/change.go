package report

import (
	"fmt"

	"benchlens/analysis/compare"
)

// Change is a stage's change as a headline or a readout says it: "TPOT −9.1 %, p=0.008",
// "TTFT ~ +0.4 %, p=0.42" when it is not significant, "TPOT ?" when it is unknown.
func Change(name string, d compare.StageDelta) string {
	return change(name, d, false)
}

// BarText is Change with the interval, for the bar under the mouse in a chart of changes:
// "TPOT +4.3 % [+2.7, +6.1], p=0.008".
func BarText(name string, d compare.StageDelta) string {
	return change(name, d, true)
}

func change(name string, d compare.StageDelta, interval bool) string {
	if !d.Delta.Known() {
		return name + " ?"
	}
	s := name + " " + ShortDelta(d)
	if interval && d.CILow.Known() && d.CIHigh.Known() {
		s += fmt.Sprintf(" [%s, %s]", compare.Signed(d.CILow.F()), compare.Signed(d.CIHigh.F()))
	}
	if d.P.Known() {
		s += ", p" + P(d.P.F())
	}
	return s
}
