package stats

import (
	"math"
	"sort"
)

// Spearman returns Spearman's rank correlation of x and y (mid-ranks for ties) and its
// two-sided p-value from Student's t with n-2 degrees of freedom, t = r·√((n−2)/(1−r²)), the
// usual approximation for n ≥ 10. Fewer than 3 pairs, or a constant side, give (NaN, 1).
func Spearman(x, y []float64) (rho, p float64) {
	n := min(len(x), len(y))
	if n < 3 {
		return math.NaN(), 1
	}
	rx, ry := ranks(x[:n]), ranks(y[:n])
	rho = pearson(rx, ry)
	if math.IsNaN(rho) {
		return rho, 1
	}
	if math.Abs(rho) >= 1 {
		return rho, 0
	}
	df := float64(n - 2)
	t := rho * math.Sqrt(df/(1-rho*rho))
	return rho, StudentTwoSided(t, df)
}

// ranks are the 1-based mid-ranks of xs.
func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return xs[idx[a]] < xs[idx[b]] })
	out := make([]float64, len(xs))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && xs[idx[j]] == xs[idx[i]] {
			j++
		}
		for k := i; k < j; k++ {
			out[idx[k]] = float64(i+j+1) / 2
		}
		i = j
	}
	return out
}

func pearson(a, b []float64) float64 {
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		sab += da * db
		saa += da * da
		sbb += db * db
	}
	if saa == 0 || sbb == 0 {
		return math.NaN()
	}
	return sab / math.Sqrt(saa*sbb)
}

// StudentTwoSided is P(|T| ≥ |t|) for Student's t with df degrees of freedom: the regularised
// incomplete beta I_{df/(df+t²)}(df/2, 1/2).
func StudentTwoSided(t, df float64) float64 {
	if math.IsNaN(t) || df <= 0 {
		return math.NaN()
	}
	return incBeta(df/2, 0.5, df/(df+t*t))
}

// incBeta is the regularised incomplete beta function I_x(a, b), by its continued fraction
// (modified Lentz), using the symmetry I_x(a,b) = 1 − I_{1−x}(b,a) where it converges faster.
func incBeta(a, b, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	la, _ := math.Lgamma(a + b)
	lb, _ := math.Lgamma(a)
	lc, _ := math.Lgamma(b)
	front := math.Exp(la - lb - lc + a*math.Log(x) + b*math.Log(1-x))
	if x > (a+1)/(a+b+2) {
		return 1 - front*betaCF(b, a, 1-x)/b
	}
	return front * betaCF(a, b, x) / a
}

func betaCF(a, b, x float64) float64 {
	const tiny, eps = 1e-300, 1e-15
	c, d := 1.0, 1-(a+b)*x/(a+1)
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1; m <= 300; m++ {
		fm := float64(m)
		for _, num := range [2]float64{
			fm * (b - fm) * x / ((a + 2*fm - 1) * (a + 2*fm)),
			-(a + fm) * (a + b + fm) * x / ((a + 2*fm) * (a + 2*fm + 1)),
		} {
			d = 1 + num*d
			if math.Abs(d) < tiny {
				d = tiny
			}
			c = 1 + num/c
			if math.Abs(c) < tiny {
				c = tiny
			}
			d = 1 / d
			h *= d * c
		}
		if math.Abs(d*c-1) < eps {
			break
		}
	}
	return h
}
