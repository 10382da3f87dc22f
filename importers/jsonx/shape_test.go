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

// FuzzSkip holds skip to value: a value skipped ends where value ends it, counts the same
// strings with invalid UTF-8, and a fault is reported with value's words and offset.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{"a": [1, 2.5, NaN], "b": {"c": "\u00e9"}}`, `["x", "\xff", null, true, [[]]]`, `[1, 1.e5]`,
		`{"a" 1}`, `["\ud800", "a\"b"]`, `[-Infinity, -NaN]`, `[[[[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		full := NewDecoder(data)
		full.MaxString = 8
		full.skipSpace()
		_, err := full.value(0)
		skipped := NewDecoder(data)
		skipped.MaxString = 8
		skipped.skipSpace()
		top := skipped.Offset()
		serr := skipped.skip(0)
		switch {
		case (err == nil) != (serr == nil) || err != nil && err.Error() != serr.Error():
			t.Fatalf("value: %v, skip: %v", err, serr)
		case err == nil && full.Offset() != skipped.Offset():
			t.Fatalf("value ends at %d, skip at %d", full.Offset(), skipped.Offset())
		case err == nil && data[top] != '"' && // a string skipped whole is not counted
			(full.Replaced != skipped.Replaced || full.FirstReplaced != skipped.FirstReplaced):
			t.Fatalf("value counts %d replaced from %d, skip %d from %d", full.Replaced, full.FirstReplaced, skipped.Replaced, skipped.FirstReplaced)
		}
	})
}
