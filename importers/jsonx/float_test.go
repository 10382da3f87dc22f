package jsonx

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
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

// FuzzNumberMatchesStrconv requires every JSON number the decoder reads to be, bit for bit,
// the float64 strconv.ParseFloat gives for it (or the int64 strconv.ParseInt gives for an
// integer), whichever of the scanner's fast paths took it: leading zeros after the point,
// eight digits at a time, Clinger's division, Eisel-Lemire, or strconv itself.
func FuzzNumberMatchesStrconv(f *testing.F) {
	for _, s := range []string{"0.013398390990914777", "-0.0012", "0.000123456789012345678", "1.5", "12345678901234567890",
		"2.1e-05", "1e400", "-0", "0.1000000000000000055511151231257827", "9007199254740993", "4.9e-324", "0.00000000000000000000000001"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var num json.Number
		if strings.TrimSpace(s) != s || strings.HasPrefix(s, `"`) || json.Unmarshal([]byte(s), &num) != nil {
			return // not a JSON number: FuzzDecode covers what the decoder does with it
		}
		got, err := decodeAll("[" + s + "]")
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		switch v := got[0].(type) {
		case []int64:
			want, err := strconv.ParseInt(s, 10, 64)
			if err != nil || v[0] != want {
				t.Fatalf("%s: got int %d, strconv %d (%v)", s, v[0], want, err)
			}
		case []float64:
			want, err := strconv.ParseFloat(s, 64)
			if err != nil && !isRangeErr(err) {
				t.Fatalf("%s: strconv: %v", s, err)
			}
			if math.Float64bits(v[0]) != math.Float64bits(want) {
				t.Fatalf("%s: got %v (%#x), strconv %v (%#x)", s, v[0], math.Float64bits(v[0]), want, math.Float64bits(want))
			}
		default:
			t.Fatalf("%s: decoded as %T", s, v)
		}
	})
}

// digitsAhead reads as many leading digits as a byte loop does, whatever follows them (bytes
// just past '9' or below '0', and 0xFA-0xFF, whose +6 carries).
func TestDigitsAheadReadsTheLeadingDigits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	others := []byte{'.', ',', ']', 'e', ' ', '/', ':', 0x00, 0x2F, 0x3A, 0x3F, 0xFA, 0xFF, 0x80}
	for range 100000 {
		b := make([]byte, 8)
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = others[rng.IntN(len(others))]
			} else {
				b[i] = '0' + byte(rng.IntN(10))
			}
		}
		var want uint64
		n := 0
		for n < 8 && b[n] >= '0' && b[n] <= '9' {
			want = want*10 + uint64(b[n]-'0')
			n++
		}
		if got, k := digitsAhead(b); got != want || k != n {
			t.Fatalf("%q: got %d (%d digits), want %d (%d)", b, got, k, want, n)
		}
	}
}
