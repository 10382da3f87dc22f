package gui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/analysis/compare"
)

// settingsView edits the analysis settings of METHOD.md (stored with every verdict) and shows
// the library file. Settings persist in the app's preferences.
type settingsView struct {
	u       *App
	content fyne.CanvasObject

	alpha, minRepeats, noiseFloor, edges, idle *widget.Entry
	libPath                                    *widget.Label
	problem                                    *widget.Label
}

const (
	prefAlpha      = "settings.alpha"
	prefMinRepeats = "settings.min_repeats"
	prefNoiseFloor = "settings.noise_floor"
	prefEdges      = "settings.bucket_edges"
	prefIdle       = "settings.idle_threshold"
)

func newSettingsView(u *App) *settingsView {
	v := &settingsView{u: u, problem: widget.NewLabel("")}
	p := u.fyneApp.Preferences()
	d := compare.DefaultSettings
	entry := func(key string, def string) *widget.Entry {
		e := widget.NewEntry()
		e.SetText(p.StringWithFallback(key, def))
		e.OnChanged = func(string) { v.onChanged() }
		return e
	}
	v.alpha = entry(prefAlpha, fmt.Sprint(d.Alpha))
	v.minRepeats = entry(prefMinRepeats, fmt.Sprint(d.MinRepeats))
	v.noiseFloor = entry(prefNoiseFloor, fmt.Sprint(d.NoiseFloor*100))
	v.edges = entry(prefEdges, "")
	v.edges.SetPlaceHolder(lang.L("empty: thirds of the baseline's input lengths"))
	v.idle = entry(prefIdle, fmt.Sprint(d.IdleThreshold))
	v.problem.Importance = widget.DangerImportance

	form := widget.NewForm(
		widget.NewFormItem(lang.L("Significance level (alpha)"), v.alpha),
		widget.NewFormItem(lang.L("Minimum repeats per arm"), v.minRepeats),
		widget.NewFormItem(lang.L("Noise floor (%)"), v.noiseFloor),
		widget.NewFormItem(lang.L("Bucket edges (input tokens: short,long)"), v.edges),
		widget.NewFormItem(lang.L("Idle threshold (% busy)"), v.idle),
	)
	v.libPath = widget.NewLabel(u.st.Path())
	v.libPath.Wrapping = fyne.TextWrapBreak
	libRow := container.NewBorder(nil, nil, nil, nil, v.libPath)
	if u.opt.OpenLibrary != nil {
		libRow = container.NewBorder(nil, nil, nil, widget.NewButton(lang.L("Open another library…"), v.onOpenLibrary), v.libPath)
	}
	reset := widget.NewButton(lang.L("Restore defaults"), v.onReset)
	v.content = container.NewVScroll(container.NewVBox(
		widget.NewCard(lang.L("Analysis"), lang.L("Used for every comparison and stored with each verdict."), container.NewVBox(form, v.problem, container.NewHBox(reset))),
		widget.NewCard(lang.L("Library file"), "", libRow),
	))
	return v
}

// Settings returns the current analysis settings; fields that do not parse keep defaults.
func (v *settingsView) Settings() compare.Settings {
	s, _ := v.parse()
	return s
}

func (v *settingsView) parse() (compare.Settings, error) {
	s := compare.DefaultSettings
	var problems []string
	if f, err := strconv.ParseFloat(strings.TrimSpace(v.alpha.Text), 64); err == nil && f > 0 && f < 1 {
		s.Alpha = f
	} else {
		problems = append(problems, lang.L("alpha must be between 0 and 1"))
	}
	if n, err := strconv.Atoi(strings.TrimSpace(v.minRepeats.Text)); err == nil && n >= 1 {
		s.MinRepeats = n
	} else {
		problems = append(problems, lang.L("minimum repeats must be a whole number of at least 1"))
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(v.noiseFloor.Text), 64); err == nil && f >= 0 && f < 100 {
		s.NoiseFloor = f / 100
	} else {
		problems = append(problems, lang.L("the noise floor is a percentage"))
	}
	if t := strings.TrimSpace(v.edges.Text); t != "" {
		parts := strings.Split(t, ",")
		a, errA := strconv.Atoi(strings.TrimSpace(parts[0]))
		var b int
		var errB error = fmt.Errorf("missing")
		if len(parts) == 2 {
			b, errB = strconv.Atoi(strings.TrimSpace(parts[1]))
		}
		if errA == nil && errB == nil && a < b {
			s.BucketEdges = []int{a, b}
		} else {
			problems = append(problems, lang.L("bucket edges are two increasing token counts, e.g. 512,2048"))
		}
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(v.idle.Text), 64); err == nil && f > 0 && f < 100 {
		s.IdleThreshold = f
	} else {
		problems = append(problems, lang.L("the idle threshold is a percentage"))
	}
	if len(problems) > 0 {
		return s, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return s, nil
}

// onChanged persists every valid edit at once and re-runs the open comparison.
func (v *settingsView) onChanged() {
	_, err := v.parse()
	if err != nil {
		v.problem.SetText(err.Error())
		return
	}
	v.problem.SetText("")
	p := v.u.fyneApp.Preferences()
	p.SetString(prefAlpha, strings.TrimSpace(v.alpha.Text))
	p.SetString(prefMinRepeats, strings.TrimSpace(v.minRepeats.Text))
	p.SetString(prefNoiseFloor, strings.TrimSpace(v.noiseFloor.Text))
	p.SetString(prefEdges, strings.TrimSpace(v.edges.Text))
	p.SetString(prefIdle, strings.TrimSpace(v.idle.Text))
	if v.u.compare != nil {
		v.u.compare.settingsChanged()
	}
}

func (v *settingsView) onReset() {
	d := compare.DefaultSettings
	v.alpha.SetText(fmt.Sprint(d.Alpha))
	v.minRepeats.SetText(fmt.Sprint(d.MinRepeats))
	v.noiseFloor.SetText(fmt.Sprint(d.NoiseFloor * 100))
	v.edges.SetText("")
	v.idle.SetText(fmt.Sprint(d.IdleThreshold))
}

func (v *settingsView) onOpenLibrary() {
	dialog.ShowFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		st, err := v.u.opt.OpenLibrary(path)
		if err != nil {
			dialog.ShowError(err, v.u.win)
			return
		}
		v.libPath.SetText(st.Path())
		v.u.switchLibrary(st)
	}, v.u.win)
}
