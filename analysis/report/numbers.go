package report

import (
	"fmt"
	"strings"

	"benchlens/analysis/compare"
)

// One way to write a change, for the app and every text the command line prints: its sign,
// one decimal, a true minus and a space before the unit ("−9.7 %", "~ +0.4 %", "[−12.1,
// −7.3] %"). The headline alone rounds larger changes to whole percents (pctShort).

// Signed is a change with its sign and one decimal, the minus a real one: "−9.7", "+1.2".
func Signed(v float64) string {
	return strings.Replace(fmt.Sprintf("%+.1f", v), "-", "−", 1)
}

// Pct is a signed change in %: "−9.7 %".
func Pct(v float64) string { return Signed(v) + " %" }

// ShortDelta is a stage's change without its test: "−9.7 %", "~ +0.4 %" when it is not
// significant (benchstat's "~"), "-" when it is unknown.
func ShortDelta(d compare.StageDelta) string {
	switch {
	case !d.Delta.Known():
		return "-"
	case !d.Significant:
		return "~ " + Pct(d.Delta.F())
	}
	return Pct(d.Delta.F())
}

// Interval is a change's interval: "[−12.1, −7.3] %", "-" when there is none.
func Interval(d compare.StageDelta) string {
	if !d.CILow.Known() || !d.CIHigh.Known() {
		return "-"
	}
	return "[" + Signed(d.CILow.F()) + ", " + Signed(d.CIHigh.F()) + "] %"
}
