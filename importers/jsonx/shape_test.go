package jsonx

import (
	"reflect"
	"testing"
)

// A shallow decode keeps the outermost object's arrays of numbers (or of arrays of numbers and
// nulls) as their Shape and decodes everything else as Decode does; a fault in an array is
// reported where a full decode reports it.
func TestShallowKeepsShapesAndFaultsAsDecodeDoes(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		want     any // the member "a"
	}{
		{"numbers", `{"a": [1, 2.5, -3e-2, NaN, -Infinity]}`, Shape{Len: 5, Depth: 1}},
		{"arrays of numbers and nulls", `{"a": [[1, 2], null, [], [3]]}`, Shape{Len: 4, Depth: 2}},
		{"empty", `{"a": []}`, []any{}},
		{"mixed", `{"a": [1, "x"]}`, []any{int64(1), "x"}},
		{"a null among numbers", `{"a": [1, null]}`, []any{int64(1), nil}},
		{"nested below the top", `{"a": {"b": [1, 2]}}`, map[string]any{"b": []int64{1, 2}}},
		{"a bad number", `{"a": [1, 1.e5]}`, nil},
		{"cut short", `{"a": [[1, 2], [3`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			full, fullErr := NewDecoder([]byte(tt.in)).Decode()
			d := NewDecoder([]byte(tt.in))
			d.Shallow = true
			got, err := d.Decode()
			if tt.want == nil {
				if err == nil || fullErr == nil || err.Error() != fullErr.Error() {
					t.Fatalf("shallow error %v, full %v", err, fullErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if a := got.(map[string]any)["a"]; !reflect.DeepEqual(a, tt.want) {
				t.Fatalf("a = %#v, want %#v (full decode %#v)", a, tt.want, full)
			}
		})
	}
}
