package report

import (
	"benchlens/analysis/compare"
)

// ShortDelta and Interval write a stage's change as compare.Pct does: one way for the app,
// the command line and the record.

// ShortDelta is a stage's change without its test: "−9.7 %", "~ +0.4 %" when it is not
// significant (benchstat's "~"), "-" when it is unknown.
func ShortDelta(d compare.StageDelta) string {
	switch {
	case !d.Delta.Known():
		return "-"
	case !d.Significant:
		return "~ " + compare.Pct(d.Delta.F())
	}
	return compare.Pct(d.Delta.F())
}

// Interval is a change's interval: "[−12.1, −7.3] %", "-" when there is none.
func Interval(d compare.StageDelta) string {
	if !d.CILow.Known() || !d.CIHigh.Known() {
		return "-"
	}
	return "[" + compare.Signed(d.CILow.F()) + ", " + compare.Signed(d.CIHigh.F()) + "] %"
}
