// Package compare implements the attribution method of METHOD.md: given a baseline arm and a
// candidate arm it checks conditions, measurement, path, stages, load buckets, overhead and
// hotspot, and proposes a verdict with its causes. Pure functions over records: no database,
// no files, no Fyne.
package compare

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
	return d
}
