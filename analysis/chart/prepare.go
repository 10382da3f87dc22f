package chart

import (
	"strings"

	"gonum.org/v1/plot"
)

// prepared is the plot to draw: a shallow copy of p (p stays untouched, so a readout may
// read it while it renders) with the wide font where a title or axis label needs it. layout
// fits it to its size, its ticks unkerned.
func prepared(p *plot.Plot) *plot.Plot {
	q := *p
	widenFonts(&q)
	return &q
}

// unkerned keeps Liberation Sans from kerning "11" in tick labels. The font carries Arial's
// kerning pair for "1","1" (−74/1000 em): at a tick label's 11–13 px the two ones move 0.9 px
// closer, their flags merge, and "11" reads "ll". A zero-width space between the ones
// breaks the pair; it draws nothing and has no advance.
type unkerned struct{ plot.Ticker }

func (u unkerned) Ticks(min, max float64) []plot.Tick {
	ts := u.Ticker.Ticks(min, max)
	out := make([]plot.Tick, len(ts))
	for i, t := range ts {
		t.Label = unkern(t.Label)
		out[i] = t
	}
	return out
}

// unkern puts a zero-width space between ones (see unkerned); legends use it too.
func unkern(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "11", "1\u200b1"), "11", "1\u200b1")
}
