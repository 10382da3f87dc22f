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
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// settingsView edits the analysis settings of METHOD.md (stored with every verdict) and shows
// the library file. Settings live in the library (library.Settings), the one source the
// command line's compare uses too.
type settingsView struct {
	u       *App
	content fyne.CanvasObject

	alpha, minRepeats, noiseFloor, edges, idle *widget.Entry
	slo, sloTarget                             *widget.Entry // rule 14's SLO and capacity target
	libPath                                    *widget.Label
	problem                                    *widget.Label

	base    compare.Settings // the library's settings, under the fields edited here
	loading bool             // entries being filled from the library, not edited
}

// The preferences older versions kept the settings in, moved into the library once.
const (
	prefAlpha      = "settings.alpha"
	prefMinRepeats = "settings.min_repeats"
	prefNoiseFloor = "settings.noise_floor"
	prefEdges      = "settings.bucket_edges"
	prefIdle       = "settings.idle_threshold"
	prefMoved      = "settings.moved_to_library"
)

func newSettingsView(u *App) *settingsView {
	v := &settingsView{u: u, problem: widget.NewLabel("")}
	entry := func() *widget.Entry {
		e := widget.NewEntry()
		e.OnChanged = func(string) { v.onChanged() }
		return e
	}
	v.alpha, v.minRepeats, v.noiseFloor, v.edges, v.idle = entry(), entry(), entry(), entry(), entry()
	v.slo, v.sloTarget = entry(), entry()
	v.slo.SetPlaceHolder(lang.L("empty: none; e.g. ttft<=200,tpot<=30 (ms)"))
	v.edges.SetPlaceHolder(lang.L("empty: thirds of the baseline's input lengths"))
	v.problem.Importance = widget.DangerImportance
	v.movePreferences()
	v.reload()

	form := widget.NewForm(
		widget.NewFormItem(lang.L("Significance level (alpha)"), v.alpha),
		widget.NewFormItem(lang.L("Minimum repeats per arm"), v.minRepeats),
		widget.NewFormItem(lang.L("Noise floor (%)"), v.noiseFloor),
		widget.NewFormItem(lang.L("Bucket edges (input tokens: short,long)"), v.edges),
		widget.NewFormItem(lang.L("Idle threshold (% busy)"), v.idle),
		widget.NewFormItem(lang.L("SLO (per-request limits)"), v.slo),
		widget.NewFormItem(lang.L("Capacity target (% attainment)"), v.sloTarget),
	)
	v.libPath = widget.NewLabel(store.Redacted(u.st.Path()))
	v.libPath.Wrapping = fyne.TextWrapBreak
	libRow := container.NewBorder(nil, nil, nil, nil, v.libPath)
	if u.opt.OpenLibrary != nil {
		open := container.NewHBox(widget.NewButton(lang.L("Open another library…"), v.onOpenLibrary),
			widget.NewButton(lang.L("Open a team library…"), func() { u.showTeamLibraryDialog() }))
		libRow = container.NewBorder(nil, nil, nil, open, v.libPath)
	}
	reset := widget.NewButton(lang.L("Restore defaults"), v.onReset)
	v.content = vscroll(container.NewVBox(
		widget.NewCard(lang.L("Analysis"), lang.L("Used for every comparison and stored with each verdict."), container.NewVBox(form, v.problem, container.NewHBox(reset))),
		widget.NewCard(lang.L("Library"), lang.L("A library file on this machine, or a team library on a PostgreSQL server."), libRow),
	))
	return v
}

// Settings returns the current analysis settings; fields that do not parse keep defaults.
func (v *settingsView) Settings() compare.Settings {
	s, _ := v.parse()
	return s
}

func (v *settingsView) parse() (compare.Settings, error) {
	s := v.base
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
	s.BucketEdges = nil
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
	if o, err := model.ParseSLO(strings.TrimSpace(v.slo.Text)); err == nil {
		s.SLO = o.String()
	} else {
		problems = append(problems, lang.L("SLO")+": "+err.Error())
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(v.sloTarget.Text), 64); err == nil && f > 0 && f <= 100 {
		s.SLOTarget = f / 100
	} else {
		problems = append(problems, lang.L("the capacity target is a percentage above 0 and at most 100"))
	}
	if len(problems) > 0 {
		return s, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return s, nil
}

// onChanged stores every valid edit in the library at once and re-runs the open comparison.
func (v *settingsView) onChanged() {
	if v.loading {
		return
	}
	s, err := v.parse()
	if err == nil {
		_, err = library.SetSettings(v.u.st, edited(s), nil)
	}
	if err != nil {
		v.problem.SetText(err.Error())
		return
	}
	v.problem.SetText("")
	if v.u.compare != nil {
		v.u.compare.settingsChanged()
	}
	if v.u.history != nil {
		v.u.history.settingsChanged(s)
	}
}

// editedKeys are the settings this view edits; the others keep the library's values.
var editedKeys = []string{"alpha", "min_repeats", "noise_floor", "bucket_edges", "idle_threshold", "slo", "slo_target"}

func edited(s compare.Settings) map[string]string {
	out := map[string]string{}
	for _, k := range editedKeys {
		out[k] = s.Text(k)
	}
	return out
}

// reload fills the entries from the library's settings (on start and after switching library).
func (v *settingsView) reload() {
	set, err := library.Settings(v.u.st)
	v.base = set
	v.loading = true
	v.alpha.SetText(fmt.Sprint(set.Alpha))
	v.minRepeats.SetText(fmt.Sprint(set.MinRepeats))
	v.noiseFloor.SetText(fmt.Sprint(set.NoiseFloor * 100))
	v.edges.SetText(set.Text("bucket_edges"))
	v.idle.SetText(fmt.Sprint(set.IdleThreshold))
	v.slo.SetText(set.SLO)
	v.sloTarget.SetText(fmt.Sprint(set.SLOTarget * 100))
	v.loading = false
	if err != nil {
		v.problem.SetText(err.Error())
	}
}

// movePreferences stores the settings an older version kept in this user's preferences in the
// library, once, unless the library has its own already.
func (v *settingsView) movePreferences() {
	p := v.u.fyneApp.Preferences()
	if p.Bool(prefMoved) {
		return
	}
	p.SetBool(prefMoved, true)
	stored, err := v.u.st.Settings()
	if err != nil || len(stored) > 0 {
		return
	}
	values := map[string]string{}
	for key, pref := range map[string]string{"alpha": prefAlpha, "min_repeats": prefMinRepeats, "bucket_edges": prefEdges, "idle_threshold": prefIdle} {
		if t := p.String(pref); t != "" {
			values[key] = t
		}
	}
	if t := p.String(prefNoiseFloor); t != "" {
		if f, err := strconv.ParseFloat(t, 64); err == nil {
			values["noise_floor"] = fmt.Sprint(f / 100) // kept in percent
		}
	}
	if len(values) > 0 {
		library.SetSettings(v.u.st, values, nil) // an invalid old value is dropped with the rest
	}
}

func (v *settingsView) onReset() {
	d := compare.DefaultSettings
	v.alpha.SetText(fmt.Sprint(d.Alpha))
	v.minRepeats.SetText(fmt.Sprint(d.MinRepeats))
	v.noiseFloor.SetText(fmt.Sprint(d.NoiseFloor * 100))
	v.edges.SetText("")
	v.idle.SetText(fmt.Sprint(d.IdleThreshold))
	v.slo.SetText(d.SLO)
	v.sloTarget.SetText(fmt.Sprint(d.SLOTarget * 100))
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
			v.u.showError(err)
			return
		}
		v.u.switchLibrary(st)
	}, v.u.win)
}
