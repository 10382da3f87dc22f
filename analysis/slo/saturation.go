package slo

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"benchlens/analysis/stats"
	"benchlens/model"
)

// Saturation thresholds of METHOD.md rule 14.
const (
	// offeredShare: a client that achieved less than this share of its requested rate could not
	// offer its load.
	offeredShare = 0.9
	// trendRho and trendP: TTFT rising with request start time (Spearman) this strongly and
	// this surely is requests queueing faster than they are served.
	trendRho, trendP = 0.5, 0.01
	// trendMin is the fewest requests a TTFT trend is read from.
	trendMin = 10
	// queueMin is the fewest scheduler lines (with work) a growing queue is read from.
	queueMin = 3
)

// Saturation says whether a run's load point was saturated (METHOD.md rule 14) and why.
type Saturation struct {
	Saturated bool     `json:"saturated" yaml:"saturated"`
	Reasons   []string `json:"reasons,omitempty" yaml:"reasons,omitempty"`
	// The client's offered load: the requested rate (finite, without a concurrency cap) and
	// the rate its requests were issued at.
	RequestedRate model.Num `json:"requested_rate" yaml:"requested_rate"`
	AchievedRate  model.Num `json:"achieved_rate" yaml:"achieved_rate"`
	// TTFT against request start time over the run's successful requests.
	TTFTRho model.Num `json:"ttft_trend_rho" yaml:"ttft_trend_rho"`
	TTFTP   model.Num `json:"ttft_trend_p" yaml:"ttft_trend_p"`
	// Queue is what the server's waiting queue did during the run, when its log says.
	Queue string `json:"queue,omitempty" yaml:"queue,omitempty"`
	Note  string `json:"note,omitempty" yaml:"note,omitempty"` // e.g. a concurrency cap that bound before the rate
}

// saturation applies rule 14's three tests to one run.
func saturation(in Input) Saturation {
	r := in.Run
	s := Saturation{RequestedRate: model.Unknown, AchievedRate: model.Unknown, TTFTRho: model.Unknown, TTFTP: model.Unknown}

	// 1. The client could not offer its load.
	if rate := r.RequestRate.F(); rate > 0 && !math.IsInf(rate, 1) {
		achieved, how := achievedRate(r)
		s.AchievedRate = achieved
		capped := r.MaxConcurrency.Known() && r.MaxConcurrency.F() > 0
		switch {
		case !achieved.Known():
		case achieved.F() >= offeredShare*rate:
		case capped:
			// The cap, not the server, held the rate back: the point's load is its concurrency.
			s.Note = fmt.Sprintf("achieved %.3g of %g req/s requested: the concurrency cap of %s bound first", achieved.F(), rate, model.FormatNum(r.MaxConcurrency))
		default:
			s.Saturated = true
			s.Reasons = append(s.Reasons, fmt.Sprintf("achieved %.3g of %g req/s requested (%.0f %%, %s)", achieved.F(), rate, 100*achieved.F()/rate, how))
		}
		if !capped {
			s.RequestedRate = r.RequestRate
		}
	}

	// 2. TTFT rises with request start time: requests queue.
	var starts, ttfts []float64
	for i := range in.Requests {
		q := &in.Requests[i]
		if q.OK() && !math.IsNaN(q.Start) && !math.IsNaN(q.TTFT) {
			starts, ttfts = append(starts, q.Start), append(ttfts, q.TTFT)
		}
	}
	if len(starts) >= trendMin {
		rho, p := stats.Spearman(starts, ttfts)
		if !math.IsNaN(rho) {
			s.TTFTRho, s.TTFTP = model.Num(rho), model.Num(p)
			if rho > trendRho && p < trendP {
				s.Saturated = true
				s.Reasons = append(s.Reasons, fmt.Sprintf("TTFT rises with request start time (Spearman %.2f, p=%.2g, %d requests)", rho, p, len(starts)))
			}
		}
	}

	// 3. The server's waiting queue grows.
	if grows, what := queueGrowing(in.Queue, r); what != "" {
		s.Queue = what
		if grows {
			s.Saturated = true
			s.Reasons = append(s.Reasons, "the server's waiting queue grows: "+what)
		}
	}
	return s
}

// achievedRate is the rate the run's requests were issued at: (n − 1) over the first to the
// last start, else the tool's completed requests per second, which include the last
// requests' tail.
func achievedRate(r *model.Run) (model.Num, string) {
	first, last, n := math.Inf(1), math.Inf(-1), 0
	for i := range r.Requests {
		st := r.Requests[i].Start
		if math.IsNaN(st) {
			n = 0
			break
		}
		first, last, n = math.Min(first, st), math.Max(last, st), n+1
	}
	if n >= 2 && last > first {
		return model.Num(float64(n-1) / (last - first)), "from the requests' start times"
	}
	if r.RequestThroughput.Known() {
		return r.RequestThroughput, "completed requests per second"
	}
	return model.Unknown, ""
}

// queueGrowing reads the server's scheduler lines during the run: the waiting queue grows
// when at least queueMin lines show work, the last of them has requests waiting, and the
// waiting count rises with time (Spearman > trendRho). Lines are kept to the run's window when
// their times and the run's date say it (vLLM writes its date when the run ends; other tools
// when it starts), per engine; what says what the queue did ("" when the log says nothing).
func queueGrowing(samples []model.QueueSample, r *model.Run) (bool, string) {
	inRun := runWindow(r)
	byEngine := map[string][]model.QueueSample{}
	for _, q := range samples {
		if q.Running+q.Waiting == 0 {
			continue // idle: before, between or after runs
		}
		if t, ok := logTime(q.Time, r); ok && inRun != nil && !inRun(t) {
			continue
		}
		byEngine[q.Engine] = append(byEngine[q.Engine], q)
	}
	var parts []string
	grows := false
	for _, e := range slices.Sorted(maps.Keys(byEngine)) {
		qs := byEngine[e]
		if len(qs) < queueMin {
			continue
		}
		idx, waiting := make([]float64, len(qs)), make([]float64, len(qs))
		for i, q := range qs {
			idx[i], waiting[i] = float64(i), float64(q.Waiting)
		}
		rho, _ := stats.Spearman(idx, waiting)
		g := qs[len(qs)-1].Waiting > 0 && rho > trendRho
		grows = grows || g
		what := fmt.Sprintf("waiting %d → %d requests over %d scheduler lines (lines %d-%d)", qs[0].Waiting, qs[len(qs)-1].Waiting, len(qs), qs[0].Line, qs[len(qs)-1].Line)
		if e != "" {
			what = e + ": " + what
		}
		parts = append(parts, what)
	}
	return grows, strings.Join(parts, "; ")
}

// runWindow is the span of the run on the wall clock, from its date and duration; nil when
// they are not known.
func runWindow(r *model.Run) func(time.Time) bool {
	date := strings.TrimSuffix(r.Date, "Z")
	if len(date) > len("2006-01-02T15:04:05") {
		date = date[:len("2006-01-02T15:04:05")] // no fraction, no zone
	}
	d, err := time.Parse("2006-01-02T15:04:05", date)
	if err != nil || !r.DurationS.Known() {
		return nil
	}
	dur := time.Duration(r.DurationS.F() * float64(time.Second))
	from, to := d, d.Add(dur)
	if strings.HasPrefix(r.Tool, "vllm") { // vLLM dates the file when it saves it, at the end
		from, to = d.Add(-dur), d
	}
	const slack = 2 * time.Second // the log's and the client's clocks in whole seconds
	return func(t time.Time) bool { return !t.Before(from.Add(-slack)) && !t.After(to.Add(slack)) }
}

// logTime reads a scheduler line's time; vLLM's has no year, the run's date lends it.
func logTime(s string, r *model.Run) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	if len(s) == len("01-02 15:04:05") && len(r.Date) >= 4 {
		if t, err := time.Parse("2006-01-02 15:04:05", r.Date[:4]+"-"+s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// saturatedPoint is an arm's point saturated: at least half its runs are (the point's repeats
// are summarised by their median, so one odd run does not make the point).
func saturatedPoint(runs []RunResult) (bool, []string) {
	n := 0
	var why []string
	for _, r := range runs {
		if r.Saturation.Saturated {
			n++
			why = append(why, fmt.Sprintf("run %d: %s", r.Run, strings.Join(r.Saturation.Reasons, "; ")))
		}
	}
	return len(runs) > 0 && 2*n >= len(runs), slices.Clip(why)
}
