package compare

import (
	"slices"
	"testing"
)

// A condition's values are listed as numbers when they are numbers: a sweep's concurrencies
// read 1 | 4 | 16 | 64.
func TestConditionValuesByValue(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"64", "1", "16", "4"}, []string{"1", "4", "16", "64"}},
		{[]string{"2.5", "10", "0.5"}, []string{"0.5", "2.5", "10"}},
		{[]string{"b", "10", "a", "9"}, []string{"9", "10", "a", "b"}},
	} {
		got := slices.Clone(c.in)
		slices.SortFunc(got, byValue)
		if !slices.Equal(got, c.want) {
			t.Errorf("%v sorted %v, want %v", c.in, got, c.want)
		}
	}
}
