package gui

import (
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/chart"
	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
)

// runView shows one run in full: what it is (tool, model, workload, fingerprint, engine
// config, target vs resolved backend with the fallback lines quoted), its TTFT, TPOT and ITL
// distributions, its utilisation timeline and shape, and what each attached file says (its overhead figures among them), as show prints it.
type runView struct {
	u       *App
	content fyne.CanvasObject

	title *widget.Label
	// summary holds a form built afresh for each run: a widget.Form given new Items of the same
	// length or fewer keeps drawing its old rows (fyne 2.7's ensureRenderItems).
	summary *fyne.Container
	backend *widget.Label
	// backendCard holds backend; hidden while no run is shown, so no empty heading stands under the title.
	backendCard *widget.Card
	charts      map[string]*chartView
	util        *chartView
	utilNote    *widget.Label
	evidence    *widget.Label
	tabs        *container.AppTabs
	// summaryScroll is refreshed after the summary changes, so the card below it moves down.
	summaryScroll *container.Scroll
	current       int64
}

var runMetrics = []struct{ key, title, axis string }{
	{model.TTFT, "Time to first token (prefill)", "TTFT (ms)"},
	{model.TPOT, "Time per output token (decode)", "TPOT (ms)"},
	{model.ITL, "Inter-token latency (decode)", "ITL (ms)"},
}

func newRunView(u *App) *runView {
	v := &runView{u: u, charts: map[string]*chartView{}}
	v.title = widget.NewLabelWithStyle(lang.L("Select a run in the library."), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.summary = container.NewStack()
	v.backend = widget.NewLabel("")
	v.backend.Wrapping = fyne.TextWrapWord
	var dist []fyne.CanvasObject
	for _, m := range runMetrics {
		for _, kind := range []string{"cdf", "hist"} {
			c := newChartView(nil)
			c.u, c.name = u, "run-"+m.key+"_"+kind
			v.charts[m.key+"_"+kind] = c
			dist = append(dist, c)
		}
	}
	v.util = newChartView(nil)
	v.util.u, v.util.name = u, "run-utilisation"
	v.utilNote = widget.NewLabel("")
	v.utilNote.Wrapping = fyne.TextWrapWord
	v.evidence = widget.NewLabel("")
	v.evidence.Wrapping = fyne.TextWrapWord
	v.evidence.TextStyle.Monospace = true // the sections align their columns

	v.backendCard = widget.NewCard(lang.L("Attention backend"), "", v.backend)
	v.backendCard.Hide()
	v.summaryScroll = vscroll(container.NewVBox(v.summary, v.backendCard))
	grid := &chartGrid{}
	distScroll := container.NewVScroll(container.New(grid, dist...))
	grid.within = distScroll
	v.tabs = container.NewAppTabs(
		container.NewTabItem(lang.L("Summary"), v.summaryScroll),
		container.NewTabItem(lang.L("Distributions"), distScroll),
		container.NewTabItem(lang.L("Utilisation"), container.NewBorder(nil, v.utilNote, nil, nil, v.util)),
		container.NewTabItem(lang.L("Evidence"), vscroll(v.evidence)),
	)
	v.content = container.NewBorder(v.title, nil, nil, nil, v.tabs)
	return v
}

// reset empties the view: the run on it belongs to a library no longer open.
func (v *runView) reset() {
	v.current = 0
	v.title.SetText(lang.L("Select a run in the library."))
	v.blank()
}

// blank removes what the view shows of a run, so nothing of one run stays under another's
// title (while the next loads, or when it fails to).
func (v *runView) blank() {
	v.summary.RemoveAll()
	v.backend.SetText("")
	v.backendCard.Hide()
	for _, c := range v.charts {
		c.setPlot(nil, chart.Reader{})
	}
	v.util.setPlot(nil, chart.Reader{})
	v.utilNote.SetText("")
	v.evidence.SetText("")
}

// show loads a run off the UI thread and displays it.
func (v *runView) show(id int64) {
	v.current = id
	v.title.SetText(fmt.Sprintf(lang.L("Run #%d (loading…)"), id))
	v.blank()
	st := v.u.st
	go func() {
		rd, evs, err := library.LoadRunEvidence(st, id)
		onUI(func() {
			if v.current != id {
				return
			}
			if err != nil {
				v.title.SetText(err.Error())
				return
			}
			v.display(rd, evs)
		})
	}()
}

func (v *runView) display(rd compare.RunData, evs []model.Evidence) {
	r := rd.Run
	secs := report.Evidence(evs, r.Manifest)
	v.title.SetText(fmt.Sprintf(lang.L("Run #%d — %s (%s)"), r.ID, r.Label, r.Role))
	items := []*widget.FormItem{}
	add := func(name, value string) {
		if strings.TrimSpace(value) == "" {
			return
		}
		l := widget.NewLabel(value)
		l.Wrapping = fyne.TextWrapWord
		items = append(items, widget.NewFormItem(lang.L(name), l))
	}
	add("Tool", toolText(r))
	add("Identified by", r.IdentifiedBy)
	add("Model", r.Model)
	add("Date", report.When(r.Date))
	add("Bundle", r.Bundle)
	add("Requests", fmt.Sprintf(lang.L("%s ok of %s, %s failed%s; %d per-request records"), r.Completed.Readable(), r.NumPrompts.Readable(), r.Failed.Readable(), categories(r), len(r.Requests)))
	if w := r.ToolWarmup; w != nil {
		add("Tool's warm-up", fmt.Sprintf(lang.L("%d warm-up, %d cool-down requests excluded by the tool (%s)"), w.Requests, w.Cooldown, w.Setting))
	}
	for _, w := range report.SortedWarnings(r.Warnings) {
		add("Warning", report.WarningWords(w).In(words()))
	}
	add("Load", fmt.Sprintf(lang.L("rate %s req/s, max concurrency %s, burstiness %s"), r.RequestRate.Readable(), r.MaxConcurrency.Readable(), r.Burstiness.Readable()))
	add("Throughput", fmt.Sprintf(lang.L("%s req/s, %s output tok/s, %s total tok/s"), r.RequestThroughput.Readable(), r.OutputThroughput.Readable(), r.TotalTokenThroughput.Readable()))
	for _, m := range runMetrics {
		add(strings.ToUpper(m.key), latencyText(r, m.key))
	}
	add("Stack fingerprint", manifestSection(r.Manifest, "stack_fingerprint"))
	add("Node", manifestSection(r.Manifest, "node"))
	add("Workload", manifestSection(r.Manifest, "workload"))
	add("Hardware SKU", r.Manifest.String("hardware_sku"))
	add("Change", r.Manifest.Change().What)
	engines := map[string]bool{}
	for _, l := range rd.Logs {
		if e := engineText(l); e != "" && !engines[e] {
			engines[e] = true
			add("Engine", e)
		}
		if kv := l.KVCache; len(kv) > 0 {
			add("KV cache", mapText(kv))
		}
		if len(l.Args) > 0 {
			add("Server arguments", mapText(l.Args))
		}
	}
	v.summary.Objects = []fyne.CanvasObject{widget.NewForm(items...)}
	v.summary.Refresh()
	v.backend.SetText(backendText(rd, secs))
	v.backendCard.Show()
	v.summaryScroll.Refresh()

	arm := compare.Arm{Label: r.Label, Runs: []compare.RunData{rd}}
	for _, m := range runMetrics {
		xs := chart.Samples(arm, m.key)
		title, axis := v.u.chartTr(m.title), m.axis
		key := m.key
		if p, at, err := chart.CDF(chart.Options{Tr: v.u.chartTr}, title, v.u.chartTr(axis), chart.Series{Label: r.Label, Values: xs}); err == nil {
			if key == model.ITL {
				p.Y.Label.Text = v.u.chartTr("share of token gaps")
			}
			v.charts[m.key+"_cdf"].setPlot(p, chart.Reader{Series: at})
		} else {
			v.charts[m.key+"_cdf"].setPlot(nil, chart.Reader{})
		}
		if p, at, err := chart.Histogram(chart.Options{Bins: 40, Tr: v.u.chartTr}, title, v.u.chartTr(axis), chart.Series{Label: r.Label, Values: xs}); err == nil {
			v.charts[m.key+"_hist"].setPlot(p, chart.Reader{Series: at})
		} else {
			v.charts[m.key+"_hist"].setPlot(nil, chart.Reader{})
		}
	}
	var lines []chart.TimelineSeries
	var notes []string
	for _, u := range rd.Util {
		for _, d := range u.Devices {
			lines = append(lines, chart.TimelineSeries{Label: lang.L("device") + " " + d.ID, T: d.T, Busy: d.Busy})
			if d.Shape != nil {
				notes = append(notes, fmt.Sprintf(lang.L("%s %s: %s — median busy %.0f%%, %.0f%% of samples idle, %d idle gaps"),
					u.Tool, d.ID, d.Shape.Class, d.Shape.MedianBusy, 100*d.Shape.IdleShare, d.Shape.IdleGaps))
			}
		}
	}
	if len(lines) == 0 {
		notes = append(notes, lang.L("No utilisation trace attached (nvidia-smi, npu-smi, dcgmi, rocm-smi)."))
	}
	v.utilNote.SetText(strings.Join(notes, "\n"))
	if p, err := chart.Timeline(lang.L("Device utilisation"), lines...); err == nil {
		p.X.Label.Text, p.Y.Label.Text = v.u.chartTr(p.X.Label.Text), v.u.chartTr(p.Y.Label.Text)
		v.util.setPlot(p, chart.Reader{Series: chart.TimelineAt(lines...)})
	} else {
		v.util.setPlot(nil, chart.Reader{})
	}
	v.evidence.SetText(evidenceText(rd, secs))
}

// latencyText is a metric's median and p99 from the recomputed statistics, else the tool's.
func latencyText(r *model.Run, metric string) string {
	for _, st := range []model.Stats{r.Recomputed[metric], r.Summary[metric]} {
		p50, ok := st["p50"]
		if !ok {
			p50, ok = st["median"]
		}
		p99, ok99 := st["p99"]
		if ok && ok99 && p50.Known() && p99.Known() {
			return fmt.Sprintf("p50 %s ms · p99 %s ms", p50.Readable(), p99.Readable())
		}
		if ok && p50.Known() {
			return fmt.Sprintf("p50 %s ms", p50.Readable())
		}
	}
	return ""
}

func manifestSection(m model.Manifest, sec string) string {
	s, ok := m[sec].(map[string]any)
	if !ok {
		return ""
	}
	parts := make([]string, 0, len(s))
	for k, v := range s {
		parts = append(parts, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

func mapText(m map[string]string) string {
	parts := make([]string, 0, len(m))
	for k, v := range m {
		parts = append(parts, k+"="+v)
	}
	sort.Strings(parts)
	if len(parts) > 24 {
		parts = append(parts[:24], fmt.Sprintf("… %d more", len(parts)-24))
	}
	return strings.Join(parts, ", ")
}

// backendText is what the server logs say of the attention backend: each log's section of
// report.Evidence (target, resolved and the lines), the same text `show RUN` prints.
func backendText(rd compare.RunData, secs []report.EvidenceSection) string {
	if len(rd.Logs) == 0 {
		s := lang.L("No server log attached: the resolved backend is unknown.")
		if t := model.TargetOf(rd.Run.Manifest, model.TargetClaims(nil, rd.Fingerprint)); t.Backend != "" {
			s = fmt.Sprintf(lang.L("Target %s (%s). "), t.Backend, t.From) + s
		}
		return s
	}
	var parts []string
	for _, s := range secs {
		if s.Kind == "server log" {
			parts = append(parts, strings.TrimSpace(s.Text))
		}
	}
	return strings.Join(parts, "\n\n")
}

// evidenceText is every attached file's section of report.Evidence, as `show RUN` prints
// them, after a hint when no profiler trace measured the overhead.
func evidenceText(rd compare.RunData, secs []report.EvidenceSection) string {
	var parts []string
	if len(rd.Traces) == 0 {
		parts = append(parts, lang.L("No profiler trace attached: copies, launches and syncs are unmeasured. Capture a torch profiler (Kineto) trace of a few steps."))
	}
	for _, s := range secs {
		parts = append(parts, strings.TrimSpace(s.Text))
	}
	return strings.Join(parts, "\n\n")
}

// categories is the tool's split of the failed requests, " (1 errored, 2 incomplete)", or "".
func categories(r *model.Run) string {
	var parts []string
	for _, c := range []struct {
		n    model.Num
		name string
	}{{r.Errored, "errored"}, {r.Incomplete, "incomplete"}, {r.Cancelled, "cancelled"}} { // translated below
		if c.n.Known() && c.n != 0 {
			parts = append(parts, c.n.Readable()+" "+lang.L(c.name))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// toolText is the Run view's Tool row: the tool and its version, then the format's era, each
// left out when the file does not say it ("vllm · E (vLLM v0.6.5-v0.8.2)", "aiperf 0.11.0").
// engineText is what a server log says of its engine, only what it says: "vllm 0.11.0, platform
// cuda, dtype bfloat16, cuda_graph". A log that names none of them, and a benchmark client's
// console (its platform is the client host's), give "": the row was "vllm on , dtype ," for
// each of a run's client consoles.
func engineText(l *model.LogEvidence) string {
	if l.Client != nil {
		return ""
	}
	var parts []string
	if e := l.EngineVersion(); e != "" {
		parts = append(parts, e)
	}
	if l.Platform != "" {
		parts = append(parts, fmt.Sprintf(lang.L("platform %s"), l.Platform))
	}
	if l.Dtype != "" {
		parts = append(parts, fmt.Sprintf(lang.L("dtype %s"), l.Dtype))
	}
	if l.Eager != "" {
		parts = append(parts, l.Eager)
	}
	if l.Version == "" && l.Platform == "" && l.Dtype == "" && l.Eager == "" {
		return "" // the engine's name alone: every server log of it says as much
	}
	return strings.Join(parts, lang.L(", "))
}

func toolText(r *model.Run) string {
	text := strings.TrimSpace(r.Tool + " " + r.ToolVersion)
	if r.Era != "" {
		text = strings.TrimSpace(text + " · " + string(r.Era))
	}
	return text
}
