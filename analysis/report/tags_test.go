package report

import (
	"reflect"
	"testing"

	"benchlens/analysis/compare"
)

// Every field of the record has the same json and yaml tags, so the YAML record, the JSON
// record and the flattened spreadsheet columns (read from the YAML form) name it alike.
func TestRecordTagsAgree(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Array || ty.Kind() == reflect.Map {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			if !f.IsExported() {
				continue
			}
			js, ys := f.Tag.Get("json"), f.Tag.Get("yaml")
			inlined := f.Anonymous && js == "" && ys == ",inline" // both encoders flatten it
			if !inlined && (ys == "" || js != trimFlow(ys)) {
				t.Errorf("%s.%s: json %q, yaml %q", path, f.Name, js, ys)
			}
			walk(f.Type, path+"."+f.Name)
		}
	}
	walk(reflect.TypeOf(compare.Record{}), "Record")
}

// trimFlow drops yaml's ",flow" style option, which json has no counterpart for.
func trimFlow(tag string) string {
	for _, suffix := range []string{",flow"} {
		if len(tag) > len(suffix) && tag[len(tag)-len(suffix):] == suffix {
			return tag[:len(tag)-len(suffix)]
		}
	}
	return tag
}
