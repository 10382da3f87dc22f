package report

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// TestFlattenAsYAMLReads holds the reflection walk to what the record's YAML form reads: every
// key and cell of every test record equal to flattening the record's encoded yaml.Node, the
// way the export flattened it before (kept here as the oracle).
func TestFlattenAsYAMLReads(t *testing.T) {
	entries := append(testEntries(t), sweepEntry(t), sloEntry(t))
	entries = append(entries, benchEntries(t)[:3]...)
	for i, e := range entries {
		got, want := flattenRecord(e.Record), flattenRecordYAML(e.Record)
		if !reflect.DeepEqual(got, want) {
			for j := range min(len(got), len(want)) {
				if !reflect.DeepEqual(got[j], want[j]) {
					t.Fatalf("entry %d: key %d: got %#v, want %#v", i, j, got[j], want[j])
				}
			}
			t.Fatalf("entry %d: %d keys, want %d", i, len(got), len(want))
		}
	}
}

// BenchmarkFlattenRecord is the flattening of one record, the part of an xlsx export per comparison.
func BenchmarkFlattenRecord(b *testing.B) {
	rec := sweepEntry(b).Record
	for b.Loop() {
		flattenRecord(rec)
	}
}

// BenchmarkFlattenRecordYAML is the YAML round trip it replaced.
func BenchmarkFlattenRecordYAML(b *testing.B) {
	rec := sweepEntry(b).Record
	for b.Loop() {
		flattenRecordYAML(rec)
	}
}

// flattenRecord flattens the record's YAML form (its keys are the JSON's, in field order)
// into dotted keys: mappings nest with dots, sequences of scalars join with ", ", sequences of
// mappings that each carry a distinct "bucket" name nest under that name
// (buckets.rows.short.stages.tpot.delta_pct), other sequences of mappings are kept as compact
// JSON text.
func flattenRecordYAML(rec compare.Record) []flatKV {
	var root yaml.Node
	if err := root.Encode(rec); err != nil {
		return []flatKV{{"error", err.Error()}}
	}
	var out []flatKV
	flattenYAML("", &root, &out)
	return out
}

func flattenYAML(prefix string, n *yaml.Node, out *[]flatKV) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			flattenYAML(prefix, c, out)
		}
	case yaml.AliasNode:
		flattenYAML(prefix, n.Alias, out)
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			flattenYAML(join(n.Content[i].Value), n.Content[i+1], out)
		}
	case yaml.SequenceNode:
		flattenSequenceYAML(prefix, n, out)
	default:
		*out = append(*out, flatKV{prefix, scalarYAML(n)})
	}
}

func flattenSequenceYAML(prefix string, n *yaml.Node, out *[]flatKV) {
	if len(n.Content) == 0 {
		*out = append(*out, flatKV{prefix, ""})
		return
	}
	scalars, named := true, true
	seen := map[string]bool{}
	for _, x := range n.Content {
		scalars = scalars && x.Kind == yaml.ScalarNode
		b := memberYAML(x, "bucket")
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
			parts[i] = scalarText(scalarYAML(x))
		}
		*out = append(*out, flatKV{prefix, strings.Join(parts, ", ")})
	case named:
		for _, x := range n.Content {
			name := memberYAML(x, "bucket").Value
			for i := 0; i+1 < len(x.Content); i += 2 {
				if k := x.Content[i].Value; k != "bucket" {
					flattenYAML(prefix+"."+name+"."+k, x.Content[i+1], out)
				}
			}
		}
	default:
		b, _ := json.Marshal(plainYAML(n))
		*out = append(*out, flatKV{prefix, string(b)})
	}
}

// member returns the value of key in a mapping node, or nil.
func memberYAML(n *yaml.Node, key string) *yaml.Node {
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
func scalarYAML(n *yaml.Node) any {
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
func plainYAML(n *yaml.Node) any {
	switch n.Kind {
	case yaml.DocumentNode, yaml.AliasNode:
		if n.Kind == yaml.AliasNode {
			return plainYAML(n.Alias)
		}
		if len(n.Content) > 0 {
			return plainYAML(n.Content[0])
		}
		return nil
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			m[n.Content[i].Value] = plainYAML(n.Content[i+1])
		}
		return m
	case yaml.SequenceNode:
		a := make([]any, len(n.Content))
		for i, x := range n.Content {
			a[i] = plainYAML(x)
		}
		return a
	}
	return scalarYAML(n)
}
