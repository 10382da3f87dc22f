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
