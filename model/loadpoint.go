package model

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// LoadPoint is the offered load of a run (METHOD.md rule 9): how many requests it kept in
// flight, how fast it sent them and the shape of the request set. Runs of one arm at the
// same point are repeats; arms are compared point by point.
type LoadPoint struct {
	MaxConcurrency Num    `json:"max_concurrency" yaml:"max_concurrency"` // unknown: not limited or not recorded
	RequestRate    Num    `json:"request_rate" yaml:"request_rate"`       // requests/s; +Inf when unthrottled
	InputLen       Num    `json:"input_len" yaml:"input_len"`             // tokens: declared, else the median measured
	OutputLen      Num    `json:"output_len" yaml:"output_len"`
	Measured       bool   `json:"lengths_measured,omitempty" yaml:"lengths_measured,omitempty"` // lengths come from the per-request data
	Dataset        string `json:"dataset,omitempty" yaml:"dataset,omitempty"`
}

// lengthTolerance is how far two request-set lengths may differ and still be one shape: a
// measured median of a random dataset wanders a few percent around the declared length.
const lengthTolerance = 0.1

// PointOf reads a run's load point from its file, with bundle.yaml's workload section
// filling what the file does not say.
func PointOf(r *Run) LoadPoint {
	p := LoadPoint{MaxConcurrency: r.MaxConcurrency, RequestRate: r.RequestRate,
		InputLen: Unknown, OutputLen: Unknown, Dataset: r.Dataset}
	declared := func(key string) Num {
		s := strings.TrimSpace(r.Manifest.String("workload", key))
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return Num(f)
		}
		return Unknown
	}
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
	if p.Dataset == "" {
		p.Dataset = r.Manifest.String("workload", "dataset")
	}
	p.InputLen, p.OutputLen = declared("input_len"), declared("output_len")
	for key, dst := range map[string]*Num{"random_input_len": &p.InputLen, "random_output_len": &p.OutputLen} {
		if v, ok := r.Extra[key].(float64); ok && !dst.Known() {
			*dst = Num(v)
		}
	}
	if !p.InputLen.Known() || !p.OutputLen.Known() {
		in, out := measuredLengths(r.Requests)
		if !p.InputLen.Known() && in.Known() {
			p.InputLen, p.Measured = in, true
		}
		if !p.OutputLen.Known() && out.Known() {
			p.OutputLen, p.Measured = out, true
		}
	}
	return p
}

// measuredLengths are the median input and output lengths of the successful requests.
func measuredLengths(reqs []Request) (in, out Num) {
	var ins, outs []int
	for i := range reqs {
		if !reqs[i].OK() {
			continue
		}
		if reqs[i].InputLen >= 0 {
			ins = append(ins, reqs[i].InputLen)
		}
		if reqs[i].OutputLen >= 0 {
			outs = append(outs, reqs[i].OutputLen)
		}
	}
	median := func(xs []int) Num {
		if len(xs) == 0 {
			return Unknown
		}
		slices.Sort(xs)
		return Num(xs[len(xs)/2])
	}
	return median(ins), median(outs)
}

// Same reports whether two points are one condition: the same concurrency and rate (both
// unknown counts as the same), lengths within lengthTolerance and the same dataset, where
// both sides say.
func (p LoadPoint) Same(q LoadPoint) bool {
	return sameNum(p.MaxConcurrency, q.MaxConcurrency) && sameNum(p.RequestRate, q.RequestRate) &&
		closeLen(p.InputLen, q.InputLen) && closeLen(p.OutputLen, q.OutputLen) &&
		(p.Dataset == "" || q.Dataset == "" || p.Dataset == q.Dataset)
}

func sameNum(a, b Num) bool {
	return a.Known() == b.Known() && (!a.Known() || a.F() == b.F())
}

func closeLen(a, b Num) bool {
	if !a.Known() || !b.Known() {
		return true
	}
	return math.Abs(a.F()-b.F()) <= lengthTolerance*math.Max(a.F(), b.F())
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

// Label names the point in one short phrase: "concurrency 64", "rate 2 req/s",
// "concurrency 8, rate inf, in 1024 / out 512".
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
	return strings.Join(parts, ", ")
}

// Shape names the request set: "in 1024 / out 512" (≈ when measured).
func (p LoadPoint) Shape() string {
	if !p.InputLen.Known() && !p.OutputLen.Known() {
		return ""
	}
	approx := ""
	if p.Measured {
		approx = "≈"
	}
	s := fmt.Sprintf("in %s%s / out %s%s", approx, FormatNum(p.InputLen), approx, FormatNum(p.OutputLen))
	if p.Dataset != "" {
		s += " (" + p.Dataset + ")"
	}
	return s
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
