package compare

import (
	"fmt"
	"strings"
)

// One way to write a change, for the app, every text the command line prints and the
// reasons a record carries: its sign, one decimal, a true minus and a space before the unit
// ("−9.7 %", "~ +0.4 %", "[−12.1, −7.3] %"). The headline alone rounds larger changes to
// whole percents (report's pctShort).

// Signed is a change with its sign and one decimal, the minus a real one: "−9.7", "+1.2".
func Signed(v float64) string {
	return strings.Replace(fmt.Sprintf("%+.1f", v), "-", "−", 1)
}

// Pct is a signed change in %: "−9.7 %".
func Pct(v float64) string { return Signed(v) + " %" }
