package gui

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/analysis/history"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
)

// historyView is a series over time (METHOD.md rule 13): the chart of one stage metric at one
// load point (each run's median with its spread), the change points marked, condition changes
// as ticks on the time axis; the list of steps, each opening the comparison of its windows,
// accepted or rejected with a note.
type historyView struct {
	u       *App
	content fyne.CanvasObject

	series, metric, point *widget.Select
	wantMetric            string          // the metric the analyst chose, kept while a reload lacks it
	chart                 *fyne.Container // the drawing, rebuilt on each change
	steps                 *fyne.Container // a button per change point of the metric and point
	detail                *widget.Label
	note                  *widget.Entry
	accept, reject, open  *widget.Button
	exports               []*widget.Button // disabled until a series is on screen
	message               *widget.Label

	rep       history.Report
	loaded    bool
	explained bool   // rep has its timeline and each step's evidence
	only      string // the one stage metric rep was searched on so far; "" when every one was
	selected  int    // index into rep.ChangePoints; -1 none
	layout    *historyLayout
	gen       int
}

// historyChartMin is the least the chart is drawn at; it grows with the space it has.
var historyChartMin = fyne.NewSize(400, 260) // fits beside the steps in a 1024 px window

// historyLayout draws the chart at the size the view gives it, again when that changes.
type historyLayout struct {
	v    *historyView
	size fyne.Size
}

func (l *historyLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
	}
	if size != l.size {
		l.size = size
		l.v.drawChart()
	}
}

func (l *historyLayout) MinSize([]fyne.CanvasObject) fyne.Size { return historyChartMin }

// chartSize is the size the chart is drawn at: its space, at least historyChartMin.
func (v *historyView) chartSize() fyne.Size {
	if v.layout == nil {
		return historyChartMin
	}
	return fyne.NewSize(max(v.layout.size.Width, historyChartMin.Width), max(v.layout.size.Height, historyChartMin.Height))
}

func newHistoryView(u *App) *historyView {
	v := &historyView{u: u, selected: -1, detail: widget.NewLabel(""),
		message: widget.NewLabel(lang.L("Pick a series above: the runs of one label (or one bundle.yaml series:) in date order, with their change points."))}
	v.detail.Wrapping = fyne.TextWrapWord
	v.message.Wrapping = fyne.TextWrapWord
	v.series = widget.NewSelect(nil, func(string) { v.load() })
	v.series.PlaceHolder = lang.L("Pick a series")
	var metrics []string
	for _, m := range model.StageMetrics {
		metrics = append(metrics, lang.L(m.Title)) // chosen by index (draw)
	}
	v.metric = widget.NewSelect(metrics, func(title string) { v.wantMetric, v.selected = title, -1; v.draw() })
	v.metric.SetSelectedIndex(0)
	v.point = widget.NewSelect(nil, func(string) { v.selected = -1; v.draw() })
	v.point.PlaceHolder = lang.L("Load point…")
	v.chart = container.NewWithoutLayout()
	v.steps = container.NewVBox()
	v.note = widget.NewEntry()
	v.note.SetPlaceHolder(lang.L("Note (why accepted or rejected)"))
	v.accept = widget.NewButton(lang.L("Accept step"), func() { v.triage(history.Accepted) })
	v.reject = widget.NewButton(lang.L("Reject step"), func() { v.triage(history.Rejected) })
	v.open = widget.NewButton(lang.L("Compare its windows"), v.openComparison)
	v.enableStep(false)
	v.layout = &historyLayout{v: v}
	// Three equal columns, each a label and its choice: the bar shrinks with the window (the
	// app must fit 1024 px wide), a long load point's name is cut, never the window widened.
	labelled := func(name string, sel *widget.Select) fyne.CanvasObject {
		return container.NewBorder(nil, nil, widget.NewLabel(name), nil, sel)
	}
	top := container.NewGridWithColumns(3, labelled(lang.L("Series"), v.series), labelled(lang.L("Metric"), v.metric),
		labelled(lang.L("Load point"), v.point))
	v.exports = []*widget.Button{widget.NewButton(lang.L("Export xlsx…"), func() { v.chooseExport("xlsx") }),
		widget.NewButton(lang.L("Export Markdown…"), func() { v.chooseExport("md") })}
	for _, b := range v.exports {
		b.Disable()
	}
	exports := container.NewHBox(v.exports[0], v.exports[1])
	side := container.NewBorder(widget.NewLabelWithStyle(lang.L("Change points"), fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		nil, nil, nil, container.NewVScroll(v.steps))
	detail := container.NewVScroll(v.detail)
	detail.SetMinSize(fyne.NewSize(0, 90))
	stepBox := container.NewVBox(detail, v.note, container.NewBorder(nil, nil, container.NewHBox(v.accept, v.reject, v.open), exports))
	split := container.NewHSplit(container.NewScroll(container.New(v.layout, v.chart, newTapArea(v.openLarge))), side)
	split.SetOffset(0.72)
	body := container.NewBorder(container.NewVBox(top, v.message), stepBox, nil, nil, split)
	v.content = body
	return v
}

func (v *historyView) enableStep(on bool) {
	for _, b := range []*widget.Button{v.accept, v.reject, v.open} {
		if on {
			b.Enable()
		} else {
			b.Disable()
		}
	}
}

// libraryChanged refreshes the series list and the series shown.
func (v *historyView) libraryChanged() {
	st := v.u.st
	go func() {
		names, err := library.SeriesNames(st)
		onUI(func() {
			if err != nil {
				v.message.SetText(err.Error())
				return
			}
			v.series.Options = names
			v.series.Refresh()
			if v.series.Selected != "" && slices.Contains(names, v.series.Selected) {
				v.load()
			}
		})
	}()
}

// load reads the chosen series off the UI thread.
func (v *historyView) load() {
	name := v.series.Selected
	if name == "" {
		return
	}
	v.gen++
	gen := v.gen
	v.message.SetText(fmt.Sprintf(lang.L("Reading the series %s…"), name))
	st, set, first := v.u.st, v.u.settings.Settings(), v.firstMetric()
	// Three steps: the series and the change points of the metric drawn first (a team
	// library's series of 10,000 nights is on screen in under a second), then those of the
	// other metrics, then the timeline and each step's evidence.
	go func() {
		current := func(rep history.Report, only string, explained bool, err error) {
			onUI(func() {
				if gen != v.gen {
					return
				}
				if err != nil {
					v.message.SetText(err.Error())
					return
				}
				v.only, v.explained = only, explained
				v.show(rep)
			})
		}
		rep, runs, err := library.ReadHistoryOf(st, name, history.DefaultSettings, first)
		current(rep, first.Key, false, err)
		if err != nil {
			return
		}
		rep, err = library.SearchHistory(st, rep, history.DefaultSettings, first)
		current(rep, "", false, err)
		if err != nil {
			return
		}
		rep, err = library.ExplainHistory(st, rep, runs, set)
		current(rep, "", true, err)
	}()
}

// firstMetric is the stage metric a load draws first, as show chooses it: the one the
// analyst chose, else the one selected, else the first.
func (v *historyView) firstMetric() model.StageMetric {
	for _, title := range []string{v.wantMetric, v.metric.Selected} {
		for _, m := range model.StageMetrics {
			if title != "" && (title == m.Title || title == lang.L(m.Title)) {
				return m
			}
		}
	}
	return model.StageMetrics[0]
}

// settingsChanged reads the series again when the SLO it was judged against is no longer the
// library's: its SLO metrics follow the Settings view.
func (v *historyView) settingsChanged(set compare.Settings) {
	if !v.explained {
		return
	}
	if o, err := model.ParseSLO(set.SLO); err == nil && o.String() != v.rep.SLO {
		v.load()
	}
}

// show puts a series' history on screen, keeping the metric, the point and the step chosen
// where the new history still has them.
func (v *historyView) show(rep history.Report) {
	var key string
	if cp, ok := v.current(); ok {
		key = cp.Key()
	}
	v.rep, v.loaded, v.selected = rep, true, -1
	for _, b := range v.exports {
		b.Enable()
	}
	for i, cp := range rep.ChangePoints {
		if cp.Key() == key {
			v.selected = i
		}
	}
	runs := plural(len(rep.Runs), lang.L("%d run"), lang.L("%d runs"))
	steps := plural(len(rep.ChangePoints), lang.L("%d change point"), lang.L("%d change points"))
	outliers := plural(len(rep.Outliers), lang.L("%d outlier"), lang.L("%d outliers"))
	switch {
	case v.explained:
		v.message.SetText(fmt.Sprintf(lang.L("%s, %s, %s, %s"), runs, steps, outliers,
			plural(len(rep.Timeline), lang.L("%d condition change"), lang.L("%d condition changes"))))
	case v.only != "":
		v.message.SetText(fmt.Sprintf(lang.L("%s; searching the other metrics for change points…"), runs))
	default:
		v.message.SetText(fmt.Sprintf(lang.L("%s, %s, %s; reading the evidence of each step…"), runs, steps, outliers))
	}
	// The SLO metrics are listed once the series has them (with its evidence, when the
	// library sets an SLO); the metric chosen comes back when they do.
	var titles []string
	for _, m := range rep.Metrics() {
		titles = append(titles, lang.L(m.Title)) // as the constructor lists them
	}
	if !slices.Equal(titles, v.metric.Options) {
		v.metric.Options = titles
		if slices.Contains(titles, v.wantMetric) {
			v.metric.Selected = v.wantMetric
		} else if !slices.Contains(titles, v.metric.Selected) {
			v.metric.Selected = titles[0]
		}
		v.metric.Refresh()
	}
	prev := v.point.Selected
	v.point.Options = rep.LoadPoints
	if !slices.Contains(rep.LoadPoints, prev) && len(rep.LoadPoints) > 0 {
		v.point.Selected = rep.LoadPoints[0]
	}
	v.point.Refresh()
	v.draw()
}

// metricKey is the chosen metric: a stage metric, or an SLO metric of a series judged
// against the library's SLO.
func (v *historyView) metricKey() model.StageMetric {
	ms := v.rep.Metrics()
	i := v.metric.SelectedIndex()
	if i < 0 || i >= len(ms) {
		i = 0
	}
	return ms[i]
}

func (v *historyView) current() (history.ChangePoint, bool) {
	if v.selected < 0 || v.selected >= len(v.rep.ChangePoints) {
		return history.ChangePoint{}, false
	}
	return v.rep.ChangePoints[v.selected], true
}

// openLarge opens the series' chart large (popChart), drawn as the export draws it.
func (v *historyView) openLarge() {
	if !v.loaded {
		return
	}
	m := v.metricKey()
	p, err := chart.History(v.rep, m, v.point.Selected)
	if err != nil {
		return // no run has the metric at this point: nothing to enlarge
	}
	c := newChartView(nil)
	c.u, c.name = v.u, "history-"+m.Key
	c.setPlot(p, chart.Reader{})
	v.u.popChart(c)
}

// tapArea is a transparent widget that runs tapped on a click.
type tapArea struct {
	widget.BaseWidget
	tapped func()
}

func newTapArea(tapped func()) *tapArea {
	t := &tapArea{tapped: tapped}
	t.ExtendBaseWidget(t)
	return t
}

func (t *tapArea) Tapped(*fyne.PointEvent) { t.tapped() }

func (t *tapArea) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// drawChart draws the chosen metric and point at the chart's size.
func (v *historyView) drawChart() {
	if !v.loaded {
		return
	}
	v.chart.Objects = historyChart(v.rep, v.metricKey(), v.point.Selected, v.selected, v.chartSize())
	v.chart.Refresh()
}

// draw rebuilds the chart and the list of steps for the chosen metric and point.
func (v *historyView) draw() {
	if !v.loaded {
		return
	}
	m, point := v.metricKey(), v.point.Selected
	v.drawChart()
	v.steps.Objects = nil
	for i, cp := range v.rep.ChangePoints {
		if cp.Stage != m.Key || cp.LoadPoint != point {
			continue
		}
		text := fmt.Sprintf("%s %s · %s", m.Short, compare.Pct(cp.DeltaPct), dayOf(cp.FirstDate))
		if cp.Triage != nil {
			text += " · " + lang.L(cp.Triage.State)
		}
		b := widget.NewButton(text, func() { v.pick(i) })
		if i == v.selected {
			b.Importance = widget.HighImportance
		}
		v.steps.Add(b)
	}
	if len(v.steps.Objects) == 0 && v.only != "" && v.only != m.Key {
		v.steps.Add(widget.NewLabel(lang.L("Searching this metric for change points…")))
	} else if len(v.steps.Objects) == 0 {
		v.steps.Add(widget.NewLabel(lang.L("No change point for this metric and load point.")))
	}
	v.steps.Refresh()
	if cp, ok := v.current(); ok {
		if v.explained {
			v.detail.SetText(cp.Verdict)
		} else {
			v.detail.SetText(lang.L("Reading the evidence of this step…"))
		}
		v.enableStep(true)
	} else {
		v.detail.SetText(lang.L("Pick a change point to see its evidence."))
		v.enableStep(false)
	}
}

// pick selects a change point.
func (v *historyView) pick(i int) {
	v.selected = i
	if cp, ok := v.current(); ok && cp.Triage != nil {
		v.note.SetText(cp.Triage.Note)
	} else {
		v.note.SetText("")
	}
	v.draw()
}

// openComparison opens the Compare view on the step's windows: before as the baseline.
func (v *historyView) openComparison() {
	cp, ok := v.current()
	if !ok {
		return
	}
	v.u.compare.setArm(true, library.IDSelector(cp.Windows.Before))
	v.u.compare.setArm(false, library.IDSelector(cp.Windows.After))
	v.u.showView(viewCompare)
}

// triage accepts or rejects the chosen step with the note, then reads the series again.
func (v *historyView) triage(state string) {
	cp, ok := v.current()
	if !ok {
		return
	}
	st, series, note := v.u.st, v.rep.Series, v.note.Text
	author := os.Getenv("USER")
	go func() {
		_, err := library.TriageChangePoint(st, series, cp, state, note, author)
		onUI(func() {
			if err != nil {
				v.message.SetText(err.Error())
				return
			}
			v.load()
		})
	}()
}

// chooseExport asks where to write the series' history (a workbook or Markdown).
func (v *historyView) chooseExport(format string) {
	if !v.loaded {
		return
	}
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			return
		}
		path := w.URI().Path()
		w.Close()
		v.export(format, path)
	}, v.u.win)
	d.SetFileName(v.rep.Series + "-history." + format)
	d.Show()
}

// export writes the series' history to path off the UI thread and says where it went.
func (v *historyView) export(format, path string) {
	st, rep := v.u.st, v.rep
	go func() {
		err := library.ExportHistory(st, rep, format, path)
		onUI(func() {
			if err != nil {
				v.message.SetText(err.Error())
				return
			}
			v.message.SetText(fmt.Sprintf(lang.L("Exported to %s"), path))
		})
	}()
}

// axisEnds are the labels of the time axis's ends, as report.When writes a date in the
// analyst's zone: the two days, or, for a series within one day, its first run to the minute
// and its last run's time (a nightly's repeats, the demo's sweeps).
func axisEnds(first, last string) (string, string) {
	a, b := report.When(first), report.When(last)
	if da, db := day(a), day(b); da != db {
		return da, db
	}
	if len(a) < 16 || len(b) < 16 { // no time to the minute: as given
		return a, b
	}
	return a, b[11:16]
}

// day is the date of a time as report.When writes it (the text itself when shorter).
func day(when string) string {
	if len(when) >= 10 {
		return when[:10]
	}
	return when
}

// dayOf is the day of a stored date in the analyst's zone, as report.When gives it.
func dayOf(date string) string {
	return day(report.When(date))
}

// Colours of the history chart.
var (
	historyDot     = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xb4, A: 0xff}
	historySpread  = color.NRGBA{R: 0x1f, G: 0x6f, B: 0xb4, A: 0x66}
	historyOutlier = color.NRGBA{R: 0xe0, G: 0x8a, B: 0x00, A: 0xff}
	historyStep    = color.NRGBA{R: 0xc6, G: 0x28, B: 0x28, A: 0xff}
	historyMuted   = color.NRGBA{R: 0xa0, G: 0xa0, B: 0xa0, A: 0xff}
	historyTick    = color.NRGBA{R: 0x8a, G: 0x8a, B: 0x8a, A: 0xff}
	historyGrid    = color.NRGBA{R: 0x8a, G: 0x8a, B: 0x8a, A: 0x30}
)

// historyChart draws one metric at one load point: per run (in series order) a dot at its
// median and a line over its spread, outliers in orange, each change point a vertical line
// labelled with its change (grey once rejected, thick when selected), each condition change a
// tick under the time axis naming what changed.
func historyChart(rep history.Report, m model.StageMetric, point string, selected int, size fyne.Size) []fyne.CanvasObject {
	var runs []history.RunInfo
	for _, r := range rep.Runs {
		if r.LoadPoint == point {
			runs = append(runs, r)
		}
	}
	var objs []fyne.CanvasObject
	text := func(s string, x, y float32, c color.Color, size float32) {
		t := canvas.NewText(s, c)
		t.TextSize = size
		t.Move(fyne.NewPos(x, y))
		objs = append(objs, t)
	}
	line := func(x1, y1, x2, y2 float32, c color.Color, width float32) {
		l := canvas.NewLine(c)
		l.StrokeWidth = width
		l.Position1, l.Position2 = fyne.NewPos(x1, y1), fyne.NewPos(x2, y2)
		objs = append(objs, l)
	}
	const left, top, bottom, right = 60, 28, 70, 20
	w, h := size.Width-left-right, size.Height-top-bottom
	text(fmt.Sprintf("%s (%s) · %s", lang.L(m.Title), m.Unit, point), left, 2, theme.Color(theme.ColorNameForeground), 13)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		if v := r.Values[m.Key]; v != nil {
			s := r.Spread[m.Key]
			lo, hi = math.Min(lo, math.Min(*v, s[0])), math.Max(hi, math.Max(*v, s[1]))
		}
	}
	if len(runs) == 0 || math.IsInf(lo, 0) {
		text(lang.L("No run has this metric at this load point."), left, top+h/2, historyMuted, 13)
		return objs
	}
	if hi == lo {
		hi, lo = hi*1.05+1e-9, lo*0.95
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad
	xOf := func(i int) float32 {
		if len(runs) == 1 {
			return left + w/2
		}
		return left + w*float32(i)/float32(len(runs)-1)
	}
	yOf := func(v float64) float32 { return top + h*float32((hi-v)/(hi-lo)) }
	for _, t := range chart.AxisTicks(lo, hi, max(2, int(h/25))) {
		y := yOf(t.Value)
		line(left, y, left+w, y, historyGrid, 1)
		text(t.Label, left-6-fyne.MeasureText(t.Label, 11, fyne.TextStyle{}).Width, y-8, historyTick, 11)
	}
	line(left, top, left, top+h, historyTick, 1)
	line(left, top+h, left+w, top+h, historyTick, 1)
	first, last := axisEnds(runs[0].Date, runs[len(runs)-1].Date)
	text(first, left, top+h+4, historyTick, 11)
	text(last, left+w-fyne.MeasureText(last, 11, fyne.TextStyle{}).Width, top+h+4, historyTick, 11)
	key := lang.L("● a run's median, │ ± its standard deviation")
	if kw := fyne.MeasureText(key, 11, fyne.TextStyle{}).Width; kw+2*fyne.MeasureText(first+"  ", 11, fyne.TextStyle{}).Width < w {
		text(key, left+(w-kw)/2, top+h+4, historyTick, 11)
	}
	pos := map[int64]int{}
	for i, r := range runs {
		pos[r.ID] = i
	}
	outlier := map[int64]bool{}
	for _, o := range rep.Outliers {
		if o.Stage == m.Key && o.LoadPoint == point {
			outlier[o.Run] = true
		}
	}
	for i, cp := range rep.ChangePoints {
		if cp.Stage != m.Key || cp.LoadPoint != point {
			continue
		}
		a, b := pos[cp.LastRunBefore], pos[cp.FirstRun]
		x := (xOf(a) + xOf(b)) / 2
		c, width := color.Color(historyStep), float32(1.5)
		label := fmt.Sprintf("%s %s", m.Short, compare.Pct(cp.DeltaPct))
		if cp.Triage != nil {
			label += " (" + lang.L(cp.Triage.State) + ")"
			if cp.Triage.State == history.Rejected {
				c = historyMuted
			}
		}
		if i == selected {
			width = 3
		}
		line(x, top, x, top+h, c, width)
		text(label, x+3, top+2, c, 11)
	}
	dot := func(x, y float32, c color.Color) {
		d := canvas.NewCircle(c)
		d.Resize(fyne.NewSize(6, 6))
		d.Move(fyne.NewPos(x-3, y-3))
		objs = append(objs, d)
	}
	if len(runs) <= int(w) { // a dot per run, its spread behind it
		for i, r := range runs {
			if v := r.Values[m.Key]; v != nil {
				x, s := xOf(i), r.Spread[m.Key]
				line(x, yOf(s[0]), x, yOf(s[1]), historySpread, 1)
				c := color.Color(historyDot)
				if outlier[r.ID] {
					c = historyOutlier
				}
				dot(x, yOf(*v), c)
			}
		}
	} else {
		columnMarks(runs, m.Key, outlier, xOf, yOf, dot, line)
	}
	row := 0
	for _, t := range rep.Timeline {
		i, ok := pos[t.Run]
		if !ok {
			continue
		}
		x := (xOf(max(0, i-1)) + xOf(i)) / 2
		line(x, top+h, x, top+h+8, historyTick, 2)
		var keys []string
		for k := range t.Changed {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		text(strings.Join(keys, ", "), x+2, top+h+18+float32(row%2)*14, historyTick, 10)
		row++
	}
	return objs
}

// columnMarks draws a series with more runs than the chart has pixel columns one column at a
// time: the spread of the column's runs as one line, their values as one bar from the least
// to the greatest (a dot when they meet), each outlier still its own dot, on top. Painting a
// dot and a line per run of 10,000 was a third of the History view's first frame.
func columnMarks(runs []history.RunInfo, key string, outlier map[int64]bool, xOf func(int) float32, yOf func(float64) float32,
	dot func(x, y float32, c color.Color), line func(x1, y1, x2, y2 float32, c color.Color, width float32)) {
	type column struct {
		x                  float32
		lo, hi, spLo, spHi float64
	}
	var cols []column
	var outliers [][2]float32
	for i, r := range runs {
		v := r.Values[key]
		if v == nil {
			continue
		}
		x := xOf(i)
		if outlier[r.ID] {
			outliers = append(outliers, [2]float32{x, yOf(*v)})
			continue
		}
		px := float32(math.Floor(float64(x)))
		if len(cols) == 0 || cols[len(cols)-1].x != px {
			cols = append(cols, column{x: px, lo: math.Inf(1), hi: math.Inf(-1), spLo: math.Inf(1), spHi: math.Inf(-1)})
		}
		c, s := &cols[len(cols)-1], r.Spread[key]
		c.lo, c.hi = math.Min(c.lo, *v), math.Max(c.hi, *v)
		c.spLo, c.spHi = math.Min(c.spLo, s[0]), math.Max(c.spHi, s[1])
	}
	for _, c := range cols {
		x := c.x + 0.5
		line(x, yOf(c.spLo), x, yOf(c.spHi), historySpread, 1)
		if y1, y2 := yOf(c.hi), yOf(c.lo); y2-y1 < 1 {
			dot(x, (y1+y2)/2, historyDot)
		} else { // as wide as a dot, from the top of the highest to the foot of the lowest
			line(x, y1-2, x, y2+2, historyDot, 4)
		}
	}
	for _, o := range outliers {
		dot(o[0], o[1], historyOutlier)
	}
}
