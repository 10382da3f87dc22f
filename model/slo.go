package model

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// SLO is a service-level objective (METHOD.md rule 14): limits in ms on a request's latencies
// (TTFT, TPOT, ITL, E2E latency), in Latencies order. A request meets it when it succeeded and
// every value is at most its limit, as vLLM's and inference-perf's goodput count them.
type SLO []Limit

// Limit is one latency's limit.
type Limit struct {
	Metric string  `json:"metric" yaml:"metric"` // one of Latencies
	MS     float64 `json:"ms" yaml:"ms"`
}

// ParseSLO reads an SLO as `compare --slo` takes it, "ttft<=200,tpot<=30" (also with spaces
// between the limits, and vLLM's --goodput form "ttft:200 tpot:30"); "" is no SLO.
func ParseSLO(text string) (SLO, error) {
	var out SLO
	for _, part := range strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		metric, limit, ok := strings.Cut(part, "<=")
		if !ok {
			metric, limit, ok = strings.Cut(part, ":")
		}
		metric = strings.ToLower(strings.TrimSpace(metric))
		if !ok || !slices.Contains(Latencies, metric) {
			return nil, fmt.Errorf("%q is not a limit: write METRIC<=MS with METRIC one of %s (\"ttft<=200,tpot<=30\")", part, strings.Join(Latencies, ", "))
		}
		ms, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(limit), "ms"), 64)
		if err != nil || !(ms > 0) || ms > 1e9 {
			return nil, fmt.Errorf("%q: the limit is a positive number of milliseconds", part)
		}
		if _, dup := out.Limit(metric); dup {
			return nil, fmt.Errorf("%q: %s is limited twice", part, metric)
		}
		out = append(out, Limit{metric, ms})
	}
	return out.Sorted(), nil
}

// Sorted returns the limits in Latencies order.
func (s SLO) Sorted() SLO {
	out := slices.Clone(s)
	slices.SortStableFunc(out, func(a, b Limit) int { return slices.Index(Latencies, a.Metric) - slices.Index(Latencies, b.Metric) })
	return out
}

// String writes the SLO as ParseSLO reads it: "ttft<=200,tpot<=30".
func (s SLO) String() string {
	parts := make([]string, len(s))
	for i, l := range s.Sorted() {
		parts[i] = l.Metric + "<=" + strconv.FormatFloat(l.MS, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// Limit returns the limit on a metric, and whether there is one.
func (s SLO) Limit(metric string) (float64, bool) {
	for _, l := range s {
		if l.Metric == metric {
			return l.MS, true
		}
	}
	return 0, false
}

// Equal reports whether two SLOs set the same limits.
func (s SLO) Equal(t SLO) bool { return s.String() == t.String() }
