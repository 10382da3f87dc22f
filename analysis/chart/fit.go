package chart

import (
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A chart is fitted to the size it is drawn at, so a 440 px chart in the app is as clean as an
// exported PNG: the title and axis labels wrap at word boundaries to the width they have,
// the axes get as many ticks as their labels leave room for, category labels that would touch
// shrink and then thin out, and labels in the data area (values over bars, load points) are
// left out where they would cover one placed before.

// frame is a plot laid out on a canvas: the plot as drawn (a fitted copy), the canvas its
// title, axes and data take, and its legend in the band below.
type frame struct {
	q      *plot.Plot
	plotC  draw.Canvas
	legend []placedEntry
}

// minDataShare is the least share of a chart's height its data area keeps; below it the x
// axis goes without its name.
const minDataShare = 0.45

// minTickShrink is how far category tick labels shrink (of their size) before thinning out.
const minTickShrink = 0.85

// layout fits p to c (see above).
func layout(p *plot.Plot, c draw.Canvas) frame {
	q := prepared(p)
	e := extraOf(p)
	ex := &extra{placed: &[]vg.Rectangle{}}
	if e != nil {
		ex.entries, ex.hidden = e.entries, e.hidden
	}
	setExtra(q, ex)
	// A chart too small for its data keeps the data: the x axis' name goes first (the
	// pop-out and the exports show it), then the legend takes a smaller font.
	var entries []placedEntry
	var plotC draw.Canvas
	for _, scale := range []vg.Length{1, 0.85} {
		var band vg.Length
		entries, band = placeLegend(q, c, scale)
		plotC = draw.Crop(c, 0, 0, band, 0)
		fitAxes(q, p, plotC)
		if da := q.DataCanvas(plotC); da.Max.Y-da.Min.Y >= minDataShare*(plotC.Max.Y-plotC.Min.Y) {
			break
		}
	}
	return frame{q: q, plotC: plotC, legend: entries}
}

// fitAxes fits q's title, ticks and axis labels (p's as given) to plotC.
func fitAxes(q, p *plot.Plot, plotC draw.Canvas) {
	q.Title.Text = wrap(q.Title.TextStyle, p.Title.Text, plotC.Max.X-plotC.Min.X)
	q.X.Label.Text = p.X.Label.Text
	// Tick density from the data area, then the labels wrapped to it; the ticks once more on
	// the area the wrapped labels leave, without the x axis' name when too little is left.
	for pass := range 3 {
		da := q.DataCanvas(plotC)
		q.X.Tick.Marker = fitTicks(&q.X, &p.X, da.Max.X-da.Min.X, true)
		q.Y.Tick.Marker = fitTicks(&q.Y, &p.Y, da.Max.Y-da.Min.Y, false)
		if pass == 2 {
			break
		}
		da = q.DataCanvas(plotC)
		if pass == 1 && da.Max.Y-da.Min.Y < minDataShare*(plotC.Max.Y-plotC.Min.Y) {
			q.X.Label.Text = ""
		} else {
			q.X.Label.Text = wrap(q.X.Label.TextStyle, p.X.Label.Text, da.Max.X-da.Min.X)
		}
		q.Y.Label.Text = wrap(q.Y.Label.TextStyle, p.Y.Label.Text, max(da.Max.Y-da.Min.Y, 0.6*(plotC.Max.Y-plotC.Min.Y)))
	}
}

// wrap breaks each line of s at spaces so no line is wider than w in sty.
func wrap(sty text.Style, s string, w vg.Length) string {
	if s == "" || w <= 0 {
		return s
	}
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if sty.Width(line) <= w {
			out = append(out, line)
			continue
		}
		cur := ""
		for _, word := range strings.Fields(line) {
			next := word
			if cur != "" {
				next = cur + " " + word
			}
			if cur != "" && sty.Width(next) > w {
				out = append(out, cur)
				next = word
			}
			cur = next
		}
		out = append(out, cur)
	}
	return strings.Join(out, "\n")
}

// fitTicks is the ticks of axis a (spanning length on the canvas; horizontal or not) from
// the marker of orig (the axis as given), thinned to what fits: a niceTicks asks for as many
// steps as labels fit, other markers' labels shrink (categories) and then every second,
// third… is kept. It sets a's tick label size.
func fitTicks(a, orig *plot.Axis, length vg.Length, horizontal bool) plot.Ticker {
	marker := orig.Tick.Marker
	a.Tick.Label.Font.Size = orig.Tick.Label.Font.Size
	sty := a.Tick.Label
	if nt, ok := marker.(niceTicks); ok {
		n := nt.n
		for n > 2 && overlap(a, sty, unkerned{niceTicks{n}}.Ticks(a.Min, a.Max), length, horizontal) {
			n--
		}
		return unkerned{niceTicks{n}}
	}
	ticks := unkerned{marker}.Ticks(a.Min, a.Max)
	var in []plot.Tick
	for _, t := range ticks {
		if t.Value >= a.Min && t.Value <= a.Max {
			in = append(in, t)
		}
	}
	// Candidates, best first: every label; every label wrapped to its share of the axis
	// (one line more at most);
	// labels that each explain themselves on a second line ("TTFT" over "prefill") without
	// it; two-line category labels ("TPOT" over "c=16
	// established") without their first lines, the group names staying; every second,
	// third… label. Each is tried at full size, then (along x) a little smaller.
	cands := [][]plot.Tick{in}
	base := in
	if horizontal {
		if w := wrapTicks(sty, in, length); maxLines(w) <= maxLines(in)+1 {
			cands = append(cands, w)
		}
		if lines := firstLinesOnly(in); lines != nil {
			cands = append(cands, lines, wrapTicks(sty, lines, length))
		}
		if lines := firstLinesOff(in); lines != nil {
			cands = append(cands, lines, wrapTicks(sty, lines, length))
			base = lines
		}
	}
	var labelled []int
	for i, t := range base {
		if t.Label != "" {
			labelled = append(labelled, i)
		}
	}
	for k := 2; k < len(labelled); k++ {
		kept := slices.Clone(base)
		for j, i := range labelled {
			if j%k != 0 {
				kept[i].Label = ""
			}
		}
		cands = append(cands, kept)
	}
	full := a.Tick.Label.Font.Size
	for _, c := range cands {
		for f := 1.0; f >= minTickShrink-1e-9; f -= 0.05 {
			if !horizontal && f < 1 {
				break
			}
			a.Tick.Label.Font.Size = full * vg.Length(f)
			if !overlap(a, a.Tick.Label, c, length, horizontal) {
				return plot.ConstantTicks(c)
			}
		}
	}
	a.Tick.Label.Font.Size = full
	return plot.ConstantTicks(cands[len(cands)-1])
}

// wrapTicks is ticks with each label wrapped to its share of an axis length long.
func wrapTicks(sty text.Style, ticks []plot.Tick, length vg.Length) []plot.Tick {
	var slots []vg.Length // per line: the labels with that line share the axis
	for k := range maxLines(ticks) {
		n := 0
		for _, t := range ticks {
			if ls := strings.Split(t.Label, "\n"); k < len(ls) && strings.TrimSpace(ls[k]) != "" {
				n++
			}
		}
		slots = append(slots, length/vg.Length(max(n, 1))-tickGap)
	}
	out := slices.Clone(ticks)
	for i, t := range out {
		ls := strings.Split(t.Label, "\n")
		for k := range ls {
			ls[k] = wrap(sty, ls[k], slots[k])
		}
		out[i].Label = strings.Join(ls, "\n")
	}
	return out
}

// maxLines is the most lines a tick label has.
func maxLines(ticks []plot.Tick) int {
	n := 0
	for _, t := range ticks {
		n = max(n, strings.Count(t.Label, "\n")+1)
	}
	return n
}

// firstLinesOnly is ticks whose labels all have a second line, cut to their first; else nil.
func firstLinesOnly(ticks []plot.Tick) []plot.Tick {
	out := slices.Clone(ticks)
	for i, t := range out {
		first, rest, ok := strings.Cut(t.Label, "\n")
		if t.Label != "" && (!ok || strings.TrimSpace(rest) == "") {
			return nil
		}
		out[i].Label = first
	}
	return out
}

// firstLinesOff is ticks of groups (labels of two lines, the second naming the group under
// one of them and blank under the others) with the first lines blanked; else nil.
func firstLinesOff(ticks []plot.Tick) []plot.Tick {
	if firstLinesOnly(ticks) != nil {
		return nil // every second line is there: not groups
	}
	out := make([]plot.Tick, len(ticks))
	for i, t := range ticks {
		_, rest, ok := strings.Cut(t.Label, "\n")
		if t.Label != "" && !ok {
			return nil
		}
		t.Label = " \n" + rest
		if strings.TrimSpace(rest) == "" {
			t.Label = ""
		}
		out[i] = t
	}
	return out
}

// tickGap is the least space between two tick labels along the x axis; along the y axis
// their lines keep 1.4 lines apart.
var tickGap = vg.Points(6)

// overlap reports whether two labelled ticks' labels, at their places along an axis length
// long, come closer than tickGap.
func overlap(a *plot.Axis, sty text.Style, ticks []plot.Tick, length vg.Length, horizontal bool) bool {
	if !horizontal {
		return overlapLines(a, sty, ticks, length, false)
	}
	// Along x, line by line: a group's name under one of its ticks passes under its
	// neighbours' blank second lines.
	for k := range maxLines(ticks) {
		line := make([]plot.Tick, 0, len(ticks))
		for _, t := range ticks {
			if ls := strings.Split(t.Label, "\n"); k < len(ls) && strings.TrimSpace(ls[k]) != "" {
				line = append(line, plot.Tick{Value: t.Value, Label: ls[k]})
			}
		}
		if overlapLines(a, sty, line, length, true) {
			return true
		}
	}
	return false
}

// overlapLines is overlap for labels taken whole.
func overlapLines(a *plot.Axis, sty text.Style, ticks []plot.Tick, length vg.Length, horizontal bool) bool {
	type span struct{ lo, hi vg.Length }
	var spans []span
	for _, t := range ticks {
		if t.Label == "" || t.Value < a.Min || t.Value > a.Max {
			continue
		}
		at := vg.Length(a.Norm(t.Value)) * length
		r := sty.Rectangle(t.Label)
		half := (r.Max.X - r.Min.X) / 2
		if !horizontal {
			half = 0.7 * (r.Max.Y - r.Min.Y)
		}
		spans = append(spans, span{at - half, at + half})
	}
	for i := 1; i < len(spans); i++ {
		lo, hi := spans[i-1], spans[i]
		if hi.lo < lo.lo {
			lo, hi = hi, lo
		}
		if gap := hi.lo - lo.hi; gap < 0 || horizontal && gap < tickGap {
			return true
		}
	}
	return false
}
