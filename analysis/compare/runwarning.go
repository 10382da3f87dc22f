package compare

import (
	"encoding/json"
	"regexp"
	"strconv"

	"benchlens/model"
)

// RunWarning is a run's warning about its own data (model.Warning.AboutData), naming the
// run's arm and id: the record's data_quality.
type RunWarning struct {
	Arm     string        `json:"arm" yaml:"arm"` // baseline, candidate
	Run     int64         `json:"run" yaml:"run"`
	Warning model.Warning `json:"warning" yaml:"warning"`
}

// English is the warning in English with its arm and run: "baseline run 3: implausible values: …".
func (w RunWarning) English() string {
	return w.Arm + " run " + strconv.FormatInt(w.Run, 10) + ": " + w.Warning.English()
}

// runWarningText is how a record saved before warnings had codes wrote one.
var runWarningText = regexp.MustCompile(`^(?s)(baseline|candidate) run (\d+): (.*)$`)

// legacyRunWarning reads a data-quality line an older record holds as text.
func legacyRunWarning(text string) RunWarning {
	if m := runWarningText.FindStringSubmatch(text); m != nil {
		id, _ := strconv.ParseInt(m[2], 10, 64)
		return RunWarning{Arm: m[1], Run: id, Warning: model.LegacyWarning(m[3])}
	}
	return RunWarning{Warning: model.LegacyWarning(text)}
}

type runWarningFields RunWarning

// UnmarshalJSON reads a run warning, or the line an older record wrote for it.
func (w *RunWarning) UnmarshalJSON(b []byte) error {
	var text string
	if err := json.Unmarshal(b, &text); err == nil {
		*w = legacyRunWarning(text)
		return nil
	}
	return json.Unmarshal(b, (*runWarningFields)(w))
}

// UnmarshalYAML reads a run warning, or the line an older record wrote for it.
func (w *RunWarning) UnmarshalYAML(unmarshal func(any) error) error {
	var text string
	if err := unmarshal(&text); err == nil {
		*w = legacyRunWarning(text)
		return nil
	}
	return unmarshal((*runWarningFields)(w))
}

// dataQuality gathers the runs' warnings about their own data, naming arm and run.
func dataQuality(base, cand Arm) []RunWarning {
	var out []RunWarning
	for _, arm := range []struct {
		name string
		a    Arm
	}{{"baseline", base}, {"candidate", cand}} {
		for _, rd := range arm.a.Runs {
			for _, w := range rd.Run.Warnings {
				if w.AboutData() {
					out = append(out, RunWarning{arm.name, rd.Run.ID, w})
				}
			}
		}
	}
	return out
}

// String is the warning in English.
func (w RunWarning) String() string { return w.English() }
