package model

import "fmt"

// Manifest is a bundle.yaml: what the files cannot say (role, label, machine, driver, the
// change, warm-up). Sections stay maps so keys benchlens does not know yet are kept.
type Manifest map[string]any

// Merge returns base overlaid by near, key by key and section by section: the manifest
// nearest to a run wins.
func Merge(base, near Manifest) Manifest {
	out := Manifest{}
	for k, v := range base {
		out[k] = v
	}
	for k, v := range near {
		if nm, ok := v.(map[string]any); ok {
			if bm, ok := out[k].(map[string]any); ok {
				out[k] = map[string]any(Merge(bm, nm))
				continue
			}
		}
		out[k] = v
	}
	return out
}

// String returns the value at a dotted path ("workload.seed") as text, or "".
func (m Manifest) String(path ...string) string {
	var cur any = map[string]any(m)
	for _, p := range path {
		sec, ok := cur.(map[string]any)
		if !ok {
			return ""
		}
		cur = sec[p]
	}
	switch v := cur.(type) {
	case nil:
		return ""
	case string:
		return v
	case map[string]any, []any:
		return ""
	default:
		return fmt.Sprint(v)
	}
}

// Change is what a manifest declares the change under test to be (METHOD.md rule 10):
// `change: {what: "FP8 weights", fields: [workload.model_name], path: attention}`, or the
// free-text form `change: "FP8 weights"`, which declares no fields.
type Change struct {
	What   string     `json:"what" yaml:"what"`
	Fields []string   `json:"fields,omitempty" yaml:"fields,omitempty"` // record fields the change alters on purpose: workload.model_name
	Path   ChangePath `json:"path,omitempty" yaml:"path,omitempty"`     // the operator path it targets; "" means DefaultChangePath
}

// ChangePath is an operator path a change may target (METHOD.md rule 10).
type ChangePath string

// Declared change paths (rule 10).
const (
	PathAttention     ChangePath = "attention"
	PathLinear        ChangePath = "linear"
	PathMoE           ChangePath = "moe"
	PathSampler       ChangePath = "sampler"
	PathCommunication ChangePath = "communication"
	PathGraph         ChangePath = "graph"
	PathOther         ChangePath = "other"
)

// ChangePaths are the operator paths a change may target; DefaultChangePath when none is given.
var ChangePaths = []ChangePath{PathAttention, PathLinear, PathMoE, PathSampler, PathCommunication, PathGraph, PathOther}

// DefaultChangePath is the path of a change that names none.
const DefaultChangePath = PathAttention

// Change returns the declared change, structured or free text; the zero Change when none.
func (m Manifest) Change() Change {
	switch v := m["change"].(type) {
	case string:
		return Change{What: v}
	case map[string]any:
		c := Change{What: Manifest(v).String("what"), Path: ChangePath(Manifest(v).String("path"))}
		if list, ok := v["fields"].([]any); ok {
			for _, f := range list {
				if s, ok := f.(string); ok {
					c.Fields = append(c.Fields, s)
				}
			}
		}
		return c
	}
	return Change{}
}

// TargetPath is the operator path the change targets, DefaultChangePath unless declared.
func (c Change) TargetPath() ChangePath {
	if c.Path == "" {
		return DefaultChangePath
	}
	return c.Path
}

// Declares reports whether the change names a record field, given as section.key
// ("workload.model_name") or, for a section that is one value, the section ("hardware_sku").
func (c Change) Declares(section, key string) bool {
	name := section
	if key != "" {
		name += "." + key
	}
	for _, f := range c.Fields {
		if f == name || (key != "" && f == key) {
			return true
		}
	}
	return false
}
