package jsonx

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"
)

// Every answer eiselLemire64 gives is strconv's, across the table's whole range.
func TestEiselLemireMatchesStrconv(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	decided := 0
	for i := range 500000 {
		man := rng.Uint64() >> rng.IntN(64)
		if i%3 == 0 {
			man %= 1e17
		}
		exp := minExp10 + rng.IntN(maxExp10-minExp10+1)
		got, ok := eiselLemire64(man, exp, false)
		if !ok {
			continue
		}
		decided++
		want, err := strconv.ParseFloat(fmt.Sprintf("%de%d", man, exp), 64)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("%de%d: got %v, want %v", man, exp, got, want)
		}
	}
	if decided < 400000 {
		t.Errorf("only %d of 500000 decided: the fast path is not working", decided)
	}
}
