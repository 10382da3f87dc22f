package store

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"benchlens/model"
)

func TestEachField(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: `{}`, want: ``},
		{in: ` { "a" : 1 , "b":"x,}" ,"c":{"d":[1,"]"]},"e\"":null}  `, want: `a=1 b="x,}" c={"d":[1,"]"]} e"=null `},
		{in: `{"a":1`, err: "offset"},
		{in: `{"a":{"b":1}`, err: "offset 12"},
		{in: `{"a":{"b":[1}`, err: "unterminated"},
		{in: `{"a":"x}`, err: "unterminated"},
		{in: `{"a":1}x`, err: "offset"},
		{in: `[1]`, err: "not a JSON object"},
		{in: `{"a":}`, err: "offset"},
		{in: ``, err: "not a JSON object"},
	} {
		var b strings.Builder
		err := eachField([]byte(tc.in), func(k, v []byte) error {
			b.WriteString(string(k) + "=" + string(v) + " ")
			return nil
		})
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one saying %q", tc.in, err, tc.err)
		case tc.err == "" && (err != nil || b.String() != tc.want):
			t.Errorf("%q: %q (%v), want %q", tc.in, b.String(), err, tc.want)
		}
	}
}

// TestEvidenceSummaryDecodedWhole: the listing's decoder reads every field a summary stores,
// so a field added to model.EvidenceSummary fails here until it is read too.
func TestEvidenceSummaryDecodedWhole(t *testing.T) {
	want := model.EvidenceSummary{}
	v := reflect.ValueOf(&want).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString("v\u00e9\"" + v.Type().Field(i).Name)
		case reflect.Int:
			f.SetInt(int64(41 + i))
		default:
			t.Fatalf("field %s: a %s the decoder does not read", v.Type().Field(i).Name, f.Kind())
		}
	}
	want.File = "" // not stored
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeEvidenceSummary(data)
	if err != nil || got != want {
		t.Errorf("decoded %+v (%v), want %+v", got, err, want)
	}
}

// TestJSONTextAsEncodingJSON: strings are unescaped as encoding/json unescapes them.
func TestJSONTextAsEncodingJSON(t *testing.T) {
	for _, in := range []string{`""`, `"plain"`, `"G (vLLM \u003e=0.10)"`, `"tab\tnl\nq\"b\\s\/"`, `"\b\f\r"`, `"模型"`,
		`"\ud83d\ude00"`, `"\ud83d"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00"`, `"\u00E9\u00e9"`, "\"\xff\"", `"a\x"`, `"\u12"`, `null`} {
		var want string
		wantErr := json.Unmarshal([]byte(in), &want)
		var got string
		err := jsonText([]byte(in), &got)
		if got != want || (err == nil) != (wantErr == nil) {
			t.Errorf("%s: %q (%v), encoding/json %q (%v)", in, got, err, want, wantErr)
		}
	}
}
