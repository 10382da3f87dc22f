// Package compare implements the attribution method of METHOD.md: given a baseline arm and a
// candidate arm it checks conditions, measurement, path, stages, load buckets, overhead and
// hotspot, and proposes a verdict with its causes. Pure functions over records: no database,
// no files, no Fyne.
//
// Compare takes two Arms (library loads them) and returns a Record with METHOD.md's exact
// keys. compareOne applies rules 1-8 to one condition; Compare first splits arms by load
// point (rule 9, loadpoints.go) and applies it per point.
//
// # Adding a rule
//
// A METHOD.md rule is a file of its own here (as conditions.go, overhead.go, families.go): a
// function called from compareOne (or, for a rule over load points, from Compare) that
// fills the rule's section of the Record (a field in record.go, with json and yaml tags: the
// record is the command line's contract, its goldens are in cmd/benchlens/testdata) and
// returns its causes. A new cause is a model.CauseCode; whether it blocks the verdict is the
// blocking map (compare.go), and rule 6's verdict reads the causes. The rule's line of the
// evidence checklist goes in checklist.go; its thresholds in Settings, with defaults, so they
// are shown in the app and stored with each verdict. A stage metric is not a rule: it is a
// row of model.StageMetrics.
package compare

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"benchlens/model"
)

// Settings are the analysis settings of METHOD.md; they are stored with each verdict.
type Settings struct {
	Alpha          float64  `json:"alpha" yaml:"alpha"`                       // significance level of the Mann-Whitney U test
	MinRepeats     int      `json:"min_repeats" yaml:"min_repeats"`           // runs per arm below which measurement is uncontrolled
	NoiseFloor     float64  `json:"noise_floor" yaml:"noise_floor"`           // relative change below which a difference does not count
	BucketEdges    []int    `json:"bucket_edges" yaml:"bucket_edges"`         // input-length edges short|mixed|long; empty: baseline tertiles
	IdleThreshold  float64  `json:"idle_threshold" yaml:"idle_threshold"`     // % device busy under which a utilisation sample is idle
	RequiredFields []string `json:"required_fields" yaml:"required_fields"`   // condition fields that must be known on both sides
	ColdStartRatio float64  `json:"cold_start_ratio" yaml:"cold_start_ratio"` // a first-request TTFT this many times the run median is a cold start
	OverheadGrowth float64  `json:"overhead_growth" yaml:"overhead_growth"`   // relative growth of copies, launches or syncs per step that counts
	Confidence     float64  `json:"confidence" yaml:"confidence"`             // level of the bootstrap intervals
	Bootstrap      int      `json:"bootstrap" yaml:"bootstrap"`               // bootstrap resamples
	// The SLO of rule 14 ("ttft<=200,tpot<=30"; "" none), the attainment a load must keep to
	// count for capacity, and the change the runs-needed hint sizes the repeats for.
	SLO          string  `json:"slo" yaml:"slo"`
	SLOTarget    float64 `json:"slo_target" yaml:"slo_target"`
	DetectChange float64 `json:"detect_change" yaml:"detect_change"`
}

// DefaultSettings are METHOD.md's defaults.
var DefaultSettings = Settings{
	Alpha:          0.05,
	MinRepeats:     5,
	NoiseFloor:     0.01,
	IdleThreshold:  10,
	RequiredFields: []string{"driver_version", "base_stack_version", "hardware_sku", "model_name", "input_len", "output_len", "seed"},
	ColdStartRatio: 3,
	OverheadGrowth: 0.05,
	Confidence:     0.95,
	Bootstrap:      1000,
	SLOTarget:      0.9,
	DetectChange:   0.02,
}

// withDefaults fills zero settings with the defaults, so a partial settings value works.
func (s Settings) withDefaults() Settings {
	d := DefaultSettings
	if s.Alpha > 0 {
		d.Alpha = s.Alpha
	}
	if s.MinRepeats > 0 {
		d.MinRepeats = s.MinRepeats
	}
	if s.NoiseFloor > 0 {
		d.NoiseFloor = s.NoiseFloor
	}
	if len(s.BucketEdges) > 0 {
		d.BucketEdges = s.BucketEdges
	}
	if s.IdleThreshold > 0 {
		d.IdleThreshold = s.IdleThreshold
	}
	if s.RequiredFields != nil {
		d.RequiredFields = s.RequiredFields
	}
	if s.ColdStartRatio > 0 {
		d.ColdStartRatio = s.ColdStartRatio
	}
	if s.OverheadGrowth > 0 {
		d.OverheadGrowth = s.OverheadGrowth
	}
	if s.Confidence > 0 && s.Confidence < 1 {
		d.Confidence = s.Confidence
	}
	if s.Bootstrap > 0 {
		d.Bootstrap = s.Bootstrap
	}
	d.SLO = s.SLO
	if s.SLOTarget > 0 && s.SLOTarget <= 1 {
		d.SLOTarget = s.SLOTarget
	}
	if s.DetectChange > 0 && s.DetectChange < 1 {
		d.DetectChange = s.DetectChange
	}
	return d
}

// SettingKeys are the settings' names (their JSON keys), as `benchlens settings` and the
// compare flags spell them, in declaration order.
func SettingKeys() []string {
	t := reflect.TypeFor[Settings]()
	keys := make([]string, t.NumField())
	for i := range keys {
		keys[i] = t.Field(i).Tag.Get("json")
	}
	return keys
}

// field finds a setting by key.
func (s *Settings) field(key string) (reflect.Value, bool) {
	v := reflect.ValueOf(s).Elem()
	for i, k := range SettingKeys() {
		if k == key {
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// Text is a setting as text: a number, or a comma-separated list.
func (s Settings) Text(key string) string {
	f, ok := s.field(key)
	if !ok {
		return ""
	}
	if f.Kind() == reflect.Slice {
		parts := make([]string, f.Len())
		for i := range parts {
			parts[i] = fmt.Sprint(f.Index(i).Interface())
		}
		return strings.Join(parts, ",")
	}
	return fmt.Sprint(f.Interface())
}

// Set sets one setting from its text (as Text writes it) and checks the result.
func (s *Settings) Set(key, text string) error {
	f, ok := s.field(key)
	if !ok {
		return fmt.Errorf("unknown setting %q (known: %s)", key, strings.Join(SettingKeys(), ", "))
	}
	text = strings.TrimSpace(text)
	bad := func(what string) error { return fmt.Errorf("%s=%q: %s", key, text, what) }
	next := *s
	nf, _ := next.field(key)
	switch f.Kind() {
	case reflect.Float64:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return bad("not a number")
		}
		nf.SetFloat(x)
	case reflect.Int:
		n, err := strconv.Atoi(text)
		if err != nil {
			return bad("not a whole number")
		}
		nf.SetInt(int64(n))
	case reflect.String:
		nf.SetString(text)
	case reflect.Slice:
		var parts []string
		if text != "" {
			parts = strings.Split(text, ",")
		}
		list := reflect.MakeSlice(f.Type(), 0, len(parts))
		for _, p := range parts {
			p = strings.TrimSpace(p)
			if f.Type().Elem().Kind() == reflect.Int {
				n, err := strconv.Atoi(p)
				if err != nil {
					return bad("a comma-separated list of whole numbers")
				}
				list = reflect.Append(list, reflect.ValueOf(n))
			} else {
				list = reflect.Append(list, reflect.ValueOf(p))
			}
		}
		nf.Set(list)
	}
	if err := next.Validate(); err != nil {
		return bad(err.Error())
	}
	*s = next
	return nil
}

// maxBootstrap bounds the resamples: a few extra zeros typed by mistake (1e8) took minutes
// and gigabytes; a million already gives intervals far finer than the data.
const maxBootstrap = 1_000_000

// maxRepeats bounds min_repeats: beyond it no arm is ever measured enough (a typo).
const maxRepeats = 10_000

// Validate checks every setting is in its range.
func (s Settings) Validate() error {
	switch {
	case !(s.Alpha > 0 && s.Alpha < 1):
		return fmt.Errorf("alpha must be between 0 and 1")
	case s.MinRepeats < 1:
		return fmt.Errorf("min_repeats must be at least 1")
	case !(s.NoiseFloor >= 0 && s.NoiseFloor < 1):
		return fmt.Errorf("noise_floor is a fraction between 0 and 1 (0.01 = 1 %%)")
	case len(s.BucketEdges) != 0 && (len(s.BucketEdges) != 2 || s.BucketEdges[0] >= s.BucketEdges[1] || s.BucketEdges[0] < 0):
		return fmt.Errorf("bucket_edges are two increasing token counts (short,long), not negative, or empty for the baseline's thirds")
	case !(s.IdleThreshold > 0 && s.IdleThreshold < 100):
		return fmt.Errorf("idle_threshold is a percentage between 0 and 100")
	case !(s.ColdStartRatio > 1) || math.IsInf(s.ColdStartRatio, 0):
		return fmt.Errorf("cold_start_ratio must be a number above 1")
	case !(s.OverheadGrowth >= 0) || math.IsInf(s.OverheadGrowth, 0):
		return fmt.Errorf("overhead_growth must be a number, not negative")
	case s.MinRepeats > maxRepeats:
		return fmt.Errorf("min_repeats is at most %d runs per arm", maxRepeats)
	case !(s.Confidence > 0 && s.Confidence < 1):
		return fmt.Errorf("confidence must be between 0 and 1")
	case s.Bootstrap < 1 || s.Bootstrap > maxBootstrap:
		return fmt.Errorf("bootstrap is between 1 and %d resamples", maxBootstrap)
	case !(s.SLOTarget > 0 && s.SLOTarget <= 1):
		return fmt.Errorf("slo_target is the attainment a load must keep, a fraction above 0 and at most 1 (0.9 = 90 %%)")
	case !(s.DetectChange > 0 && s.DetectChange < 1):
		return fmt.Errorf("detect_change is a fraction between 0 and 1 (0.02 = 2 %%)")
	}
	for _, f := range s.RequiredFields {
		if !slices.ContainsFunc(conditionFields, func(c conditionField) bool { return c.name() == f }) {
			names := make([]string, len(conditionFields))
			for i, c := range conditionFields {
				names[i] = c.name()
			}
			return fmt.Errorf("required_fields: no condition field %q (known: %s)", f, strings.Join(names, ", "))
		}
	}
	if _, err := model.ParseSLO(s.SLO); err != nil {
		return fmt.Errorf("slo: %v", err)
	}
	return nil
}
