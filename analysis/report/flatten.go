package report

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// flatKV is one flattened key of a record with its cell value.
type flatKV struct {
	key string
	val any
}

// flattenRecord flattens the record as its YAML form reads (its keys are the JSON's, in field
// order) into dotted keys: mappings nest with dots, sequences of scalars join with ", ",
// sequences of mappings that each carry a distinct "bucket" name nest under that name
// (buckets.rows.short.stages.tpot.delta_pct), other sequences of mappings are kept as compact
// JSON text. The record is walked by reflection under the YAML encoder's rules (tags,
// omitempty, inline, sorted map keys, MarshalYAML), not encoded and parsed again: that round
// trip was a third of an xlsx export.
func flattenRecord(rec compare.Record) []flatKV {
	var out []flatKV
	flatten("", tree(reflect.ValueOf(rec)), &out)
	return out
}

// A node is a record value as the YAML encoder would write it: a mapping (keys in order), a
// sequence, or a scalar already read as a cell value.
type node struct {
	kind  nodeKind
	keys  []string
	items []*node // a mapping's values, beside keys, or a sequence's items
	val   any     // a scalar's cell value
	text  string  // a scalar's text, as a "bucket" name is read
}

type nodeKind uint8

const (
	scalarNode nodeKind = iota
	mappingNode
	sequenceNode
)

var (
	marshalerType = reflect.TypeFor[yaml.Marshaler]()
	zeroerType    = reflect.TypeFor[yaml.IsZeroer]()
)

// tree builds the node of v as yaml.v3's encoder marshals it.
func tree(v reflect.Value) *node {
	if !v.IsValid() || (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
		return &node{kind: scalarNode}
	}
	if v.Type().Implements(marshalerType) {
		x, err := v.Interface().(yaml.Marshaler).MarshalYAML()
		if err != nil {
			return &node{kind: scalarNode, val: err.Error(), text: err.Error()}
		}
		return tree(reflect.ValueOf(x))
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		return tree(v.Elem())
	case reflect.Struct:
		n := &node{kind: mappingNode}
		fields(v, n)
		return n
	case reflect.Map:
		n := &node{kind: mappingNode}
		keys := v.MapKeys()
		slices.SortFunc(keys, keyOrder)
		for _, k := range keys {
			n.keys = append(n.keys, fmt.Sprint(k.Interface()))
			n.items = append(n.items, tree(v.MapIndex(k)))
		}
		return n
	case reflect.Slice, reflect.Array:
		n := &node{kind: sequenceNode, items: make([]*node, v.Len())}
		for i := range n.items {
			n.items[i] = tree(v.Index(i))
		}
		return n
	case reflect.String:
		s := v.String()
		if !utf8.ValidString(s) {
			s = base64.StdEncoding.EncodeToString([]byte(s)) // YAML writes such a string as !!binary
		}
		return &node{kind: scalarNode, val: s, text: s}
	case reflect.Bool:
		return &node{kind: scalarNode, val: v.Bool(), text: strconv.FormatBool(v.Bool())}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return &node{kind: scalarNode, val: v.Int(), text: strconv.FormatInt(v.Int(), 10)}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return floatNode(float64(v.Uint()), strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		bits := 64
		if v.Kind() == reflect.Float32 {
			bits = 32
		}
		return floatNode(v.Float(), strconv.FormatFloat(v.Float(), 'g', -1, bits))
	}
	s := fmt.Sprint(v.Interface())
	return &node{kind: scalarNode, val: s, text: s}
}

// floatNode reads a number as YAML's text of it reads back: whole when the text is an
// integer (3.0 writes as 3), else a float.
func floatNode(f float64, text string) *node {
	if i, err := strconv.ParseInt(text, 10, 64); err == nil {
		return &node{kind: scalarNode, val: i, text: text}
	}
	return &node{kind: scalarNode, val: num(model.Num(f)), text: text}
}

// fields adds a struct's exported fields under their yaml names, in order: "-" left out,
// omitempty left out when zero, inline structs merged, untagged fields lower-cased.
func fields(v reflect.Value, n *node) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if f.PkgPath != "" && !f.Anonymous {
			continue
		}
		tag := f.Tag.Get("yaml")
		if tag == "" && !strings.Contains(string(f.Tag), ":") {
			tag = string(f.Tag)
		}
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		fv := v.Field(i)
		if slices.Contains(strings.Split(opts, ","), "inline") {
			if fv.Kind() == reflect.Map {
				m := tree(fv)
				n.keys, n.items = append(n.keys, m.keys...), append(n.items, m.items...)
			} else {
				fields(fv, n)
			}
			continue
		}
		if slices.Contains(strings.Split(opts, ","), "omitempty") && isZero(fv) {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		n.keys = append(n.keys, name)
		n.items = append(n.items, tree(fv))
	}
}

// isZero is yaml.v3's omitempty test.
func isZero(v reflect.Value) bool {
	if v.Type().Implements(zeroerType) {
		if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
			return true
		}
		return v.Interface().(yaml.IsZeroer).IsZero()
	}
	switch v.Kind() {
	case reflect.String:
		return v.Len() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	case reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).PkgPath == "" && !isZero(v.Field(i)) {
				return false
			}
		}
		return true
	}
	return false
}

// keyOrder is the order yaml.v3 writes map keys in: numbers by value, strings naturally
// ("c2" before "c10": runs of digits compare as numbers).
func keyOrder(a, b reflect.Value) int {
	for a.Kind() == reflect.Interface && !a.IsNil() {
		a = a.Elem()
	}
	for b.Kind() == reflect.Interface && !b.IsNil() {
		b = b.Elem()
	}
	if a.Kind() != reflect.String || b.Kind() != reflect.String {
		af, bf := fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface())
		x, errA := strconv.ParseFloat(af, 64)
		y, errB := strconv.ParseFloat(bf, 64)
		if errA == nil && errB == nil && x != y {
			if x < y {
				return -1
			}
			return 1
		}
		return strings.Compare(af, bf)
	}
	if naturalLess(a.String(), b.String()) {
		return -1
	}
	if naturalLess(b.String(), a.String()) {
		return 1
	}
	return 0
}

// naturalLess is yaml.v3's string key order (its sorter.go).
func naturalLess(as, bs string) bool {
	ar, br := []rune(as), []rune(bs)
	digits := false
	for i := 0; i < len(ar) && i < len(br); i++ {
		if ar[i] == br[i] {
			digits = unicode.IsDigit(ar[i])
			continue
		}
		al, bl := unicode.IsLetter(ar[i]), unicode.IsLetter(br[i])
		if al && bl {
			return ar[i] < br[i]
		}
		if al || bl {
			if digits {
				return al
			}
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar[i] == '0' || br[i] == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(ar[j]); j-- {
				if ar[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		for ai = i; ai < len(ar) && unicode.IsDigit(ar[ai]); ai++ {
			an = an*10 + int64(ar[ai]-'0')
		}
		for bi = i; bi < len(br) && unicode.IsDigit(br[bi]); bi++ {
			bn = bn*10 + int64(br[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar[i] < br[i]
	}
	return len(ar) < len(br)
}

func flatten(prefix string, n *node, out *[]flatKV) {
	switch n.kind {
	case mappingNode:
		for i, k := range n.keys {
			if prefix != "" {
				k = prefix + "." + k
			}
			flatten(k, n.items[i], out)
		}
	case sequenceNode:
		flattenSequence(prefix, n, out)
	default:
		*out = append(*out, flatKV{prefix, n.val})
	}
}

func flattenSequence(prefix string, n *node, out *[]flatKV) {
	if len(n.items) == 0 {
		*out = append(*out, flatKV{prefix, ""})
		return
	}
	scalars, named := true, true
	seen := map[string]bool{}
	for _, x := range n.items {
		scalars = scalars && x.kind == scalarNode
		b := member(x, "bucket")
		if b == nil || b.kind != scalarNode || b.text == "" || seen[b.text] {
			named = false
			continue
		}
		seen[b.text] = true
	}
	switch {
	case scalars:
		parts := make([]string, len(n.items))
		for i, x := range n.items {
			parts[i] = scalarText(x.val)
		}
		*out = append(*out, flatKV{prefix, strings.Join(parts, ", ")})
	case named:
		for _, x := range n.items {
			name := member(x, "bucket").text
			for i, k := range x.keys {
				if k != "bucket" {
					flatten(prefix+"."+name+"."+k, x.items[i], out)
				}
			}
		}
	default:
		b, _ := json.Marshal(plain(n))
		*out = append(*out, flatKV{prefix, string(b)})
	}
}

// member returns the value of key in a mapping node, or nil.
func member(n *node, key string) *node {
	if n.kind != mappingNode {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.items[i]
		}
	}
	return nil
}

// plain turns a node into maps, slices and cell values, for JSON text.
func plain(n *node) any {
	switch n.kind {
	case mappingNode:
		m := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			m[k] = plain(n.items[i])
		}
		return m
	case sequenceNode:
		a := make([]any, len(n.items))
		for i, x := range n.items {
			a[i] = plain(x)
		}
		return a
	}
	return n.val
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
