// Package shape classifies a device's utilisation timeline (METHOD.md rule 8) as
// sustained_high, intermittent or low, with the numbers behind the class. Pure functions over
// model.DeviceSeries; no I/O.
package shape

import (
	"math"
	"slices"

	"benchlens/model"
)

// Thresholds are the settings of a classification; they are stored with each verdict.
type Thresholds struct {
	IdleBelow             float64 // % busy under which a sample is idle
	HighAbove             float64 // median busy at or above this is high, %
	IntermittentIdleShare float64 // idle share at or above which a busy-median trace is intermittent (0-1)
	LowBelow              float64 // median busy under which the shape is low, %
	// Recurring gaps (METHOD.md rule 8): idle gaps of at least LongGap seconds that recur at
	// GapsPerMinute or more per minute of the trace make it intermittent whatever their share:
	// an engine under steady load has no reason to stop for half a second that often. Zero
	// stands for the default.
	LongGap       float64 // s
	GapsPerMinute float64
}

// DefaultThresholds are the thresholds used unless the user sets others.
var DefaultThresholds = Thresholds{IdleBelow: 10, HighAbove: 80, IntermittentIdleShare: 0.15, LowBelow: 30,
	LongGap: 0.5, GapsPerMinute: 3}

// withDefaults is th with its zero values replaced by the defaults': the zero Thresholds is
// DefaultThresholds, and thresholds set before the recurrence term existed get its defaults.
func (th Thresholds) withDefaults() Thresholds {
	if th == (Thresholds{}) {
		return DefaultThresholds
	}
	if th.LongGap <= 0 {
		th.LongGap = DefaultThresholds.LongGap
	}
	if th.GapsPerMinute <= 0 {
		th.GapsPerMinute = DefaultThresholds.GapsPerMinute
	}
	return th
}

// Classify computes the shape of one device series as given: it does NOT trim idle time
// before and after the benchmark; call Trim first, or use ClassifyRun which does both.
// Zero thresholds stand for DefaultThresholds' values.
//
// NaN samples (the tool printed "-" or N/A) are skipped: they count neither as busy nor as
// idle, and an idle run continues across them. Over the remaining n samples:
//
//   - MedianBusy is the median busy % (the mean of the two middle values when n is even);
//   - a sample is idle when its busy % is under IdleBelow; IdleShare is idle samples / n;
//   - an idle gap is a maximal run of consecutive idle samples; GapSeconds[i] is the time
//     from the gap's first idle sample to its last, plus one sampling interval (the median
//     spacing of the valid samples' T, 1 s when unknown), so one idle sample at 1 Hz is 1 s;
//   - Seconds is the time the samples span, from the first to the last plus one interval;
//     LongGaps counts the gaps of at least LongGap seconds, GapsPerMinute is LongGaps per
//     minute of Seconds;
//   - the class is decided in this order:
//     1. MedianBusy < LowBelow                                → low;
//     2. GapsPerMinute ≥ the GapsPerMinute threshold          → intermittent (rule 8's
//     recurring gaps: one 0.9 s gap in a 9 s trace is 6.7 a minute; one in 10 minutes is not);
//     3. MedianBusy ≥ HighAbove and IdleShare < IntermittentIdleShare → sustained_high;
//     4. otherwise                                            → intermittent.
//
// Rule 3 covers both a busy median with frequent idle samples (alternating 90/5) and a
// steady middling median (say 55 % with no idle sample): tools report busy as the share of
// each sampling period a kernel ran, so a steady 55 % means idle gaps shorter than the
// sampling period, the same host-side dispatch or sync bound at a finer grain.
//
// With no valid sample Class is "" (unknown) and Samples is 0.
func Classify(s model.DeviceSeries, th Thresholds) model.Shape {
	th = th.withDefaults()
	out := model.Shape{IdleBelow: th.IdleBelow, HighAbove: th.HighAbove, LongGap: th.LongGap}
	var vals, ts []float64
	for i, b := range s.Busy {
		if math.IsNaN(b) {
			continue
		}
		vals = append(vals, b)
		if i < len(s.T) {
			ts = append(ts, s.T[i])
		} else {
			ts = append(ts, math.NaN())
		}
	}
	n := len(vals)
	out.Samples = n
	if n == 0 {
		return out
	}
	dt := interval(ts)
	idle := 0
	gapStart := -1
	closeGap := func(last int) {
		out.IdleGaps++
		length := dt
		if d := ts[last] - ts[gapStart]; d > 0 {
			length += d
		}
		out.GapSeconds = append(out.GapSeconds, length)
		if length >= th.LongGap {
			out.LongGaps++
		}
		gapStart = -1
	}
	for i, b := range vals {
		if b < th.IdleBelow {
			idle++
			if gapStart < 0 {
				gapStart = i
			}
			continue
		}
		if gapStart >= 0 {
			closeGap(i - 1)
		}
	}
	if gapStart >= 0 {
		closeGap(n - 1)
	}
	out.IdleShare = float64(idle) / float64(n)
	out.MedianBusy = median(vals)
	out.Seconds = dt
	if d := ts[n-1] - ts[0]; d > 0 {
		out.Seconds += d
	}
	out.GapsPerMinute = 60 * float64(out.LongGaps) / out.Seconds
	switch {
	case out.MedianBusy < th.LowBelow:
		out.Class = model.ShapeLow
	case out.GapsPerMinute >= th.GapsPerMinute:
		out.Class = model.ShapeIntermittent
	case out.MedianBusy >= th.HighAbove && out.IdleShare < th.IntermittentIdleShare:
		out.Class = model.ShapeSustainedHigh
	default:
		out.Class = model.ShapeIntermittent
	}
	return out
}

// ClassifyRun trims the idle time before and after the benchmark (Trim), then classifies
// what is left (Classify). This is the classification of record for a run's trace.
func ClassifyRun(s model.DeviceSeries, th Thresholds) model.Shape {
	th = th.withDefaults()
	return Classify(Trim(s, th), th)
}

// Trim keeps the samples from the first to the last sample that is not idle (busy at or
// above IdleBelow; NaN is neither), because a trace usually covers server idle time before
// and after the benchmark. T keeps its values (seconds from the file's first sample). The
// series comes back unchanged when no sample is busy. The result shares no slice with s,
// and its Shape is nil (a shape of the untrimmed series would no longer fit it). Zero
// thresholds stand for DefaultThresholds' values.
func Trim(s model.DeviceSeries, th Thresholds) model.DeviceSeries {
	th = th.withDefaults()
	first, last := -1, -1
	for i, b := range s.Busy {
		if !math.IsNaN(b) && b >= th.IdleBelow {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return s
	}
	out := s
	out.Shape = nil
	out.Busy = slices.Clone(s.Busy[first : last+1])
	out.T = cut(s.T, first, last)
	out.Memory = cut(s.Memory, first, last)
	return out
}

// cut copies xs[first:last+1], tolerating a slice shorter than Busy.
func cut(xs []float64, first, last int) []float64 {
	if xs == nil || first >= len(xs) {
		return nil
	}
	return slices.Clone(xs[first:min(last+1, len(xs))])
}

// interval is the median positive spacing of ts, 1 s when there is none.
func interval(ts []float64) float64 {
	var d []float64
	for i := 1; i < len(ts); i++ {
		if x := ts[i] - ts[i-1]; x > 0 {
			d = append(d, x)
		}
	}
	if len(d) == 0 {
		return 1
	}
	return median(d)
}

// median of xs (reordered copy), the mean of the middle two for an even count.
func median(xs []float64) float64 {
	v := slices.Clone(xs)
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
