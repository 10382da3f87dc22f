package model

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// LoadPoint is the offered load of a run (METHOD.md rules 9 and 12): how many requests it kept
// in flight, how fast it sent them and the shape of the request set. Runs of one arm at the
// same point are repeats; arms are compared point by point.
type LoadPoint struct {
	MaxConcurrency Num `json:"max_concurrency" yaml:"max_concurrency"` // unknown: not limited or not recorded
	RequestRate    Num `json:"request_rate" yaml:"request_rate"`       // requests/s; +Inf when unthrottled
	// InputLen and OutputLen are tokens per request: as declared, else the median measured
	// from per-request lengths, else the file's totals over its completed requests.
	InputLen  Num  `json:"input_len" yaml:"input_len"`
	OutputLen Num  `json:"output_len" yaml:"output_len"`
	Measured  bool `json:"lengths_measured,omitempty" yaml:"lengths_measured,omitempty"` // a length is measured, not declared
	// InputFrom and OutputFrom say where each length came from: LengthDeclared,
	// LengthPerRequest or LengthTotals ("" when unknown).
	InputFrom  string `json:"input_from,omitempty" yaml:"input_from,omitempty"`
	OutputFrom string `json:"output_from,omitempty" yaml:"output_from,omitempty"`
	// OutputFixed says how the client controlled the output length ("declared", "ignore_eos",
	// "max_tokens 256", "near-constant outputs"); "" when it did not: the output length is then
	// an outcome of the server under test, reported per arm, never part of the point.
	OutputFixed string `json:"output_fixed,omitempty" yaml:"output_fixed,omitempty"`
	Dataset     string `json:"dataset,omitempty" yaml:"dataset,omitempty"`
}

// Where a load point's lengths come from.
const (
	LengthDeclared   = "declared"
	LengthPerRequest = "per-request"
	LengthTotals     = "totals"
)

// lengthTolerance is how far two request-set lengths may differ and still be one shape: a
// measured median of a random dataset wanders a few percent around the declared length.
const lengthTolerance = 0.1

// outcomeTolerance is how far the output lengths of one arm's runs may differ and still be
// repeats when the client did not fix them: the server's own outputs wander, but a run whose
// outputs are twice another's sent another request set.
const outcomeTolerance = 0.5

// PointOf reads a run's load point from its file, with bundle.yaml's workload section
// filling what the file does not say, and the client's settings (ClientOf) for the shape. A
// run read without its requests (a listing, a History series) has the point stored from the
// whole run at import (Run.Point): its measured lengths and fixed outputs are the requests'.
func PointOf(r *Run) LoadPoint {
	if len(r.Requests) == 0 && r.Point != nil {
		return *r.Point
	}
	p := LoadPoint{MaxConcurrency: r.MaxConcurrency, RequestRate: r.RequestRate,
		InputLen: Unknown, OutputLen: Unknown}
	declared := func(key string) Num { return numOf(r.Manifest.String("workload", key)) }
	if !p.MaxConcurrency.Known() {
		p.MaxConcurrency = declared("max_concurrency")
	}
	if !p.RequestRate.Known() {
		p.RequestRate = declared("request_rate") // ParseFloat reads "inf"
	}
	if p.MaxConcurrency.Known() && !p.RequestRate.Known() {
		// A concurrency limit without a rate is unthrottled: GuideLLM's synchronous and
		// concurrent strategies, AIPerf's and genai-perf's concurrency phases.
		p.RequestRate = Num(math.Inf(1))
	}
	c := ClientOf(r)
	p.Dataset = c.Dataset
	if c.InputLen.Known() {
		p.InputLen, p.InputFrom = c.InputLen, LengthDeclared
	}
	if c.OutputLen.Known() {
		p.OutputLen, p.OutputFrom = c.OutputLen, LengthDeclared
	}
	in, out, from := measuredLengths(r)
	if !p.InputLen.Known() && in.Known() {
		p.InputLen, p.InputFrom, p.Measured = in, from, true
	}
	if !p.OutputLen.Known() && out.Known() {
		p.OutputLen, p.OutputFrom, p.Measured = out, from, true
	}
	p.OutputFixed = outputFixed(r, c, p)
	return p
}

// outputFixed says how the client controlled the run's output length, "" when it did not
// (METHOD.md rule 12): declared, ignore_eos, a fixed max-tokens the measured outputs reached
// within 10 %, or per-request outputs all within 10 % of each other (nothing but a fixed
// length and ignore_eos makes them so).
func outputFixed(r *Run, c Client, p LoadPoint) string {
	switch {
	case p.OutputFrom == LengthDeclared:
		return LengthDeclared
	case c.IgnoreEOS:
		return "ignore_eos"
	case c.MaxTokens.Known() && p.OutputLen.Known() && p.OutputLen.F() >= (1-lengthTolerance)*c.MaxTokens.F():
		return "max_tokens " + FormatNum(c.MaxTokens)
	}
	lo, hi := math.Inf(1), 0.0
	n := 0
	for i := range r.Requests {
		if q := &r.Requests[i]; q.OK() && q.OutputLen >= 0 {
			lo, hi, n = math.Min(lo, float64(q.OutputLen)), math.Max(hi, float64(q.OutputLen)), n+1
		}
	}
	if n >= 2 && hi > 0 && lo >= (1-lengthTolerance)*hi {
		return "near-constant outputs"
	}
	return ""
}

// measuredLengths are the median input and output lengths of the successful requests, else
// the file's totals over its completed requests, with where they came from.
func measuredLengths(r *Run) (in, out Num, from string) {
	var ins, outs []int
	for i := range r.Requests {
		if !r.Requests[i].OK() {
			continue
		}
		if r.Requests[i].InputLen >= 0 {
			ins = append(ins, r.Requests[i].InputLen)
		}
		if r.Requests[i].OutputLen >= 0 {
			outs = append(outs, r.Requests[i].OutputLen)
		}
	}
	median := func(xs []int) Num {
		if len(xs) == 0 {
			return Unknown
		}
		slices.Sort(xs)
		return Num(xs[len(xs)/2])
	}
	in, out = median(ins), median(outs)
	if in.Known() || out.Known() {
		return in, out, LengthPerRequest
	}
	if n := r.Completed; n.Known() && n > 0 {
		per := func(total Num) Num {
			if !total.Known() {
				return Unknown
			}
			return Num(math.Round(total.F() / n.F()))
		}
		if in, out = per(r.TotalInputTokens), per(r.TotalOutputTokens); in.Known() || out.Known() {
			return in, out, LengthTotals
		}
	}
	return Unknown, Unknown, ""
}

// MeanOutput is the run's mean output length per successful request: over its per-request
// lengths, else from its totals; the output length a comparison reports per arm.
func MeanOutput(r *Run) Num {
	sum, n := 0, 0
	for i := range r.Requests {
		if q := &r.Requests[i]; q.OK() {
			if q.OutputLen < 0 {
				n = -1
				break
			}
			sum, n = sum+q.OutputLen, n+1
		}
	}
	switch {
	case n > 0:
		return Num(float64(sum) / float64(n))
	case r.TotalOutputTokens.Known() && r.Completed.Known() && r.Completed > 0:
		return r.TotalOutputTokens / r.Completed
	}
	return Unknown
}

// Same reports whether two runs of one arm are at one point, repeats of each other: the same
// concurrency and rate (both unknown counts as the same), input lengths within
// lengthTolerance, output lengths within lengthTolerance when both were fixed (else within
// outcomeTolerance), and the same dataset, where both sides say.
func (p LoadPoint) Same(q LoadPoint) bool {
	if !p.Matches(q) {
		return false
	}
	if p.OutputFixed != "" && q.OutputFixed != "" {
		return true // Matches compared them
	}
	return closeWithin(p.OutputLen, q.OutputLen, outcomeTolerance)
}

// Matches reports whether a point of one arm is the same condition as a point of the other
// (rule 12): what the client controlled is the same (concurrency, rate, dataset, input
// length), and the output length too when both clients fixed it. An output length the
// server decided is an outcome, compared as a result, never a reason to unmatch.
func (p LoadPoint) Matches(q LoadPoint) bool {
	return sameNum(p.MaxConcurrency, q.MaxConcurrency) && sameNum(p.RequestRate, q.RequestRate) &&
		closeWithin(p.InputLen, q.InputLen, lengthTolerance) &&
		(p.OutputFixed == "" || q.OutputFixed == "" || closeWithin(p.OutputLen, q.OutputLen, lengthTolerance)) &&
		(p.Dataset == "" || q.Dataset == "" || p.Dataset == q.Dataset)
}

func sameNum(a, b Num) bool {
	return a.Known() == b.Known() && (!a.Known() || a.F() == b.F())
}

func closeWithin(a, b Num, tol float64) bool {
	if !a.Known() || !b.Known() {
		return true
	}
	return math.Abs(a.F()-b.F()) <= tol*math.Max(a.F(), b.F())
}

// Less orders points for tables and curves: by concurrency, then rate, then lengths.
func (p LoadPoint) Less(q LoadPoint) bool {
	for _, pair := range [][2]Num{{p.MaxConcurrency, q.MaxConcurrency}, {p.RequestRate, q.RequestRate},
		{p.InputLen, q.InputLen}, {p.OutputLen, q.OutputLen}} {
		a, b := pair[0], pair[1]
		switch {
		case a.Known() != b.Known():
			return a.Known()
		case a.Known() && a.F() != b.F():
			return a.F() < b.F()
		}
	}
	return p.Dataset < q.Dataset
}

// Label names the point in one short phrase: its load, then its request shape (Shape):
// "concurrency 64 · 1024→512 tok · random", "rate 2 req/s · ≈938 tok in, output not fixed".
func (p LoadPoint) Label() string {
	var parts []string
	if p.MaxConcurrency.Known() {
		parts = append(parts, "concurrency "+FormatNum(p.MaxConcurrency))
	}
	if p.RequestRate.Known() && (!p.MaxConcurrency.Known() || !math.IsInf(p.RequestRate.F(), 1)) {
		parts = append(parts, "rate "+FormatNum(p.RequestRate)+" req/s")
	}
	if len(parts) == 0 {
		parts = append(parts, "load unknown")
	}
	label := strings.Join(parts, ", ")
	if s := p.Shape(); s != "" {
		label += " · " + s
	}
	return label
}

// Shape names the request set: "1024→512 tok · random"; "≈" marks a measured length, and an
// output the client did not fix is named so ("≈3000 tok in, output not fixed · sharegpt").
// "" when neither length nor the dataset is known.
func (p LoadPoint) Shape() string {
	var s string
	switch in, out := p.lengths(); {
	case p.OutputFixed == "" && p.InputLen.Known():
		s = in + " tok in, output not fixed"
	case p.OutputFixed == "" && p.OutputLen.Known():
		s = "output not fixed"
	case p.OutputFixed == "":
	case p.InputLen.Known() || p.OutputLen.Known():
		s = in + "→" + out + " tok"
	}
	if s == "" && p.Dataset == "" {
		return ""
	}
	if p.Dataset != "" {
		s = strings.TrimPrefix(s+" · "+p.Dataset, " · ")
	}
	return s
}

// BriefShape is the lengths of Shape alone, for a line with no room for more: "1024→512",
// "≈938→≈170", "≈3000 in" (the output not fixed); "" when no length is known.
func (p LoadPoint) BriefShape() string {
	switch in, out := p.lengths(); {
	case p.OutputFixed == "" && p.InputLen.Known():
		return in + " in"
	case p.OutputFixed == "":
		return ""
	case p.InputLen.Known() || p.OutputLen.Known():
		return in + "→" + out
	}
	return ""
}

// lengths are the input and output lengths as Shape writes them, "≈" marking a measured one.
func (p LoadPoint) lengths() (in, out string) {
	length := func(n Num, from string) string {
		if from == LengthDeclared {
			return FormatNum(n)
		}
		return "≈" + FormatNum(n)
	}
	return length(p.InputLen, p.InputFrom), length(p.OutputLen, p.OutputFrom)
}

// FormatNum writes a number plainly: "64", "0.5", "inf", "?" when unknown.
func FormatNum(n Num) string {
	switch {
	case !n.Known():
		return "?"
	case math.IsInf(n.F(), 1):
		return "inf"
	}
	return strconv.FormatFloat(n.F(), 'g', -1, 64)
}
