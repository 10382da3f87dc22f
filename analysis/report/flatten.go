package report

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// flatKV is one flattened key of a record with its cell value.
type flatKV struct {
	key string
	val any
}

// flattenRecord flattens the record's YAML form (its keys are the JSON's, in field order)
// into dotted keys: mappings nest with dots, sequences of scalars join with ", ", sequences of
// mappings that each carry a distinct "bucket" name nest under that name
// (buckets.rows.short.stages.tpot.delta_pct), other sequences of mappings are kept as compact
// JSON text.
func flattenRecord(rec compare.Record) []flatKV {
	var root yaml.Node
	if err := root.Encode(rec); err != nil {
		return []flatKV{{"error", err.Error()}}
	}
	var out []flatKV
	flatten("", &root, &out)
	return out
}

func flatten(prefix string, n *yaml.Node, out *[]flatKV) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			flatten(prefix, c, out)
		}
	case yaml.AliasNode:
		flatten(prefix, n.Alias, out)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			flatten(join(n.Content[i].Value), n.Content[i+1], out)
		}
	case yaml.SequenceNode:
		flattenSequence(prefix, n, out)
	default:
		*out = append(*out, flatKV{prefix, scalar(n)})
	}
}

func flattenSequence(prefix string, n *yaml.Node, out *[]flatKV) {
	if len(n.Content) == 0 {
		*out = append(*out, flatKV{prefix, ""})
		return
	}
	scalars, named := true, true
	seen := map[string]bool{}
	for _, x := range n.Content {
		scalars = scalars && x.Kind == yaml.ScalarNode
		b := member(x, "bucket")
		if b == nil || b.Value == "" || seen[b.Value] {
			named = false
			continue
		}
		seen[b.Value] = true
	}
	switch {
	case scalars:
		parts := make([]string, len(n.Content))
		for i, x := range n.Content {
			parts[i] = scalarText(scalar(x))
		}
		*out = append(*out, flatKV{prefix, strings.Join(parts, ", ")})
	case named:
		for _, x := range n.Content {
			name := member(x, "bucket").Value
			for i := 0; i+1 < len(x.Content); i += 2 {
				if k := x.Content[i].Value; k != "bucket" {
					flatten(prefix+"."+name+"."+k, x.Content[i+1], out)
				}
			}
		}
	default:
		b, _ := json.Marshal(plain(n))
		*out = append(*out, flatKV{prefix, string(b)})
	}
}

// member returns the value of key in a mapping node, or nil.
func member(n *yaml.Node, key string) *yaml.Node {
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// scalar reads a scalar node as a cell value: int64 for whole numbers, float64, bool, string,
// nil for null, and "inf" / "-inf" for infinities (a spreadsheet has no infinity).
func scalar(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			return b
		}
	case "!!int", "!!float":
		if i, err := strconv.ParseInt(n.Value, 10, 64); err == nil {
			return i
		}
		var f float64
		if n.Decode(&f) == nil {
			return num(model.Num(f))
		}
	}
	return n.Value
}

// plain turns a node into maps, slices and cell values, for JSON text.
func plain(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode, yaml.AliasNode:
		if n.Kind == yaml.AliasNode {
			return plain(n.Alias)
		}
		if len(n.Content) > 0 {
			return plain(n.Content[0])
		}
		return nil
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = plain(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		a := make([]any, len(n.Content))
		for i, x := range n.Content {
			a[i] = plain(x)
		}
		return a
	}
	return scalar(n)
}

func scalarText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	default:
		return fmt.Sprint(x)
	}
}
