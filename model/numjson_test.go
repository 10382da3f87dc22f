package model

import (
	"encoding/json"
	"math"
	"testing"
)

// TestNumJSONAsFloat: a Num reads a JSON number as a float64 does, and null and "inf" as
// unknown and infinity.
func TestNumJSONAsFloat(t *testing.T) {
	for _, in := range []string{"0", "-0", "1", "12.5", "-3.25e-7", "1E3", "1e+300", "123456789012345678901234567890",
		"0.1", "2.2250738585072014e-308", "5e-324", "1e400", "-1e400", "1e", `"1"`, "true", "01", "1.5x"} {
		var n Num
		var f float64
		errN := json.Unmarshal([]byte(`[`+in+`]`), &[]*Num{&n})
		errF := json.Unmarshal([]byte(`[`+in+`]`), &[]*float64{&f})
		if (errN == nil) != (errF == nil) || errN == nil && math.Float64bits(float64(n)) != math.Float64bits(f) {
			t.Errorf("%s: Num %v (%v), float64 %v (%v)", in, float64(n), errN, f, errF)
		}
	}
	for in, want := range map[string]float64{"null": math.NaN(), `"inf"`: math.Inf(1), `"-inf"`: math.Inf(-1)} {
		var n Num
		if err := json.Unmarshal([]byte(in), &n); err != nil || !(float64(n) == want || math.IsNaN(want) && !n.Known()) {
			t.Errorf("%s: %v (%v)", in, float64(n), err)
		}
	}
}
