package model

import (
	"math"
	"testing"
)

func TestReadable(t *testing.T) {
	for _, tt := range []struct {
		n    Num
		want string
	}{
		{7.3612, "7.361"}, {87.96, "87.96"}, {999.94, "999.9"}, {2047, "2047"}, {40120.4, "40120"},
		{359612, "359612"}, {4.012e6, "4012000"}, {-257.7375, "-257.7"}, {0, "0"}, {Unknown, "-"},
		{Num(math.Inf(1)), "inf"}, {Num(math.Inf(-1)), "-inf"}, {0.0001234, "0.0001234"}, {12.345, "12.35"}, {0.5, "0.5"},
		{1e7, "10000000"}, {-9.1, "-9.1"}, {999.96, "1000"},
	} {
		if got := tt.n.Readable(); got != tt.want {
			t.Errorf("Readable(%v) = %q, want %q", float64(tt.n), got, tt.want)
		}
	}
}
