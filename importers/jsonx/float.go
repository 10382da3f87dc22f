package jsonx

import (
	"math"
	"math/big"
	"math/bits"
)

// The Eisel-Lemire algorithm turns a decimal mantissa and exponent into the correctly rounded
// float64 with two 64-bit multiplications, or says it cannot decide (then strconv does it).
// It is what strconv uses internally; having it here lets the decoder convert the digits it
// has already scanned instead of scanning every number twice. Timings written by Python have
// 16-17 significant digits, too many for the one-division fast path.

const (
	minExp10 = -64 // the table covers 10^-64 … 10^22, the range of timings in seconds
	maxExp10 = 22
)

// powers[i] is the 128-bit mantissa of 10^(i+minExp10), normalised so the top bit is set and
// truncated: {low, high} words.
var powers = func() [maxExp10 - minExp10 + 1][2]uint64 {
	var t [maxExp10 - minExp10 + 1][2]uint64
	ten := big.NewInt(10)
	for q := minExp10; q <= maxExp10; q++ {
		var m big.Int
		if q >= 0 {
			m.Exp(ten, big.NewInt(int64(q)), nil)
			if n := m.BitLen(); n > 128 {
				m.Rsh(&m, uint(n-128))
			} else {
				m.Lsh(&m, uint(128-n))
			}
		} else {
			den := new(big.Int).Exp(ten, big.NewInt(int64(-q)), nil)
			// Shift 2^s so that 2^s / 10^-q has exactly 128 bits.
			s := den.BitLen() + 127
			num := new(big.Int).Lsh(big.NewInt(1), uint(s))
			m.Quo(num, den)
			if m.BitLen() < 128 {
				num.Lsh(num, 1)
				m.Quo(num, den)
			}
		}
		lo := new(big.Int).And(&m, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
		hi := new(big.Int).Rsh(&m, 64).Uint64()
		t[q-minExp10] = [2]uint64{lo, hi}
	}
	return t
}()

// eiselLemire64 returns man × 10^exp10 correctly rounded, or ok = false.
func eiselLemire64(man uint64, exp10 int, neg bool) (f float64, ok bool) {
	if man == 0 {
		if neg {
			f = math.Copysign(0, -1)
		}
		return f, true
	}
	if exp10 < minExp10 || exp10 > maxExp10 {
		return 0, false
	}
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	const bias = 1023
	retExp2 := uint64(217706*exp10>>16+64+bias) - uint64(clz)
	p := powers[exp10-minExp10]
	xHi, xLo := bits.Mul64(man, p[1])
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, p[0])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false // halfway: let strconv decide
	}
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	retBits := retExp2<<52 | retMantissa&0x000FFFFFFFFFFFFF
	if neg {
		retBits |= 0x8000000000000000
	}
	return math.Float64frombits(retBits), true
}
