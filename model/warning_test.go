package model

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"slices"
	"testing"

	"go.yaml.in/yaml/v3"
)

// Every WarningCode constant is in the closed set, with its English wording: a code declared
// without its row in warningKinds fails here (and analysis/report's test fails without its
// Chinese).
func TestEveryWarningCodeHasItsRow(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "warning.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ast.Inspect(f, func(x ast.Node) bool {
		v, ok := x.(*ast.ValueSpec)
		if !ok || v.Type == nil || types(v.Type) != "WarningCode" {
			return true
		}
		for _, name := range v.Names {
			n++
			lit := v.Values[0].(*ast.BasicLit).Value
			code := WarningCode(lit[1 : len(lit)-1])
			if !slices.Contains(WarningCodes, code) || code.EnglishFormat() == "" {
				t.Errorf("%s (%s) is not in WarningCodes with its wording", name.Name, code)
			}
		}
		return true
	})
	if n != len(WarningCodes) || n == 0 {
		t.Errorf("%d WarningCode constants, %d codes", n, len(WarningCodes))
	}
}

func types(e ast.Expr) string {
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// A warning an older benchlens stored as text reads back as its code where the text is a
// code's wording (so an old run's implausible values still reach the checklist), else as
// legacy with its text; either way its English is the text it was.
func TestLegacyWarning(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Warning
	}{
		{"implausible values: ttft mean 0 ms with 10 requests", Warning{WarnImplausible, []string{"ttft mean 0 ms with 10 requests"}}},
		{`not valid UTF-8: "r.json" from byte 12: 3 strings had characters replaced; save it as UTF-8 (it may be Latin-1)`,
			Warning{WarnEncoding, []string{`"r.json"`, "12", "3"}}},
		{"the tool judged the run invalid: MLPerf LoadGen result INVALID (Min duration satisfied: No)",
			Warning{WarnToolInvalid, []string{"MLPerf LoadGen result INVALID (Min duration satisfied: No)"}}},
		{"the tool wrote NaN for itl p99, ttft std: left unknown", Warning{WarnToolNaN, []string{"itl p99, ttft std"}}},
		{"no request succeeded: the tool's latency statistics (zeros, not measurements) are left out", Warning{Code: WarnNoSuccess}},
		{"something an old importer said", Warning{WarnLegacy, []string{"something an old importer said"}}},
	} {
		got := LegacyWarning(tc.text)
		if got.Code != tc.want.Code || !slices.Equal(got.Args, tc.want.Args) {
			t.Errorf("%q: %+v, want %+v", tc.text, got, tc.want)
		}
		if got.English() != tc.text {
			t.Errorf("%q reads back as %q", tc.text, got.English())
		}
	}
	if !LegacyWarning("implausible values: x").AboutData() || LegacyWarning("other").AboutData() {
		t.Error("only the data's own warnings are about the data")
	}
}

// A warning is stored and exported as its code, its arguments and its English text, and read
// back as it was; the text an older benchlens wrote (JSON or YAML), and a legacy code,
// read as LegacyWarning does.
func TestWarningStoredForm(t *testing.T) {
	w := Warn(WarnRowRepeats, 12, `"goodput"`)
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"code":"row_repeats","args":["12","\"goodput\""],"text":"line 12: \"goodput\" repeats with other values; the first row was kept"}`; string(b) != want {
		t.Errorf("JSON %s, want %s", b, want)
	}
	y, err := yaml.Marshal([]Warning{w})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		read func(*[]Warning) error
		want []Warning
	}{
		{"json", func(ws *[]Warning) error { return json.Unmarshal(append(append([]byte("["), b...), ']'), ws) }, []Warning{w}},
		{"yaml", func(ws *[]Warning) error { return yaml.Unmarshal(y, ws) }, []Warning{w}},
		{"old json", func(ws *[]Warning) error {
			return json.Unmarshal([]byte(`["implausible values: x", "said once", {"code":"legacy","args":["the tool wrote NaN for ttft p99: left unknown"]}, {"code":"from_the_future","text":"a newer word"}]`), ws)
		}, []Warning{{WarnImplausible, []string{"x"}}, {WarnLegacy, []string{"said once"}}, {WarnToolNaN, []string{"ttft p99"}}, {WarnLegacy, []string{"a newer word"}}}},
		{"old yaml", func(ws *[]Warning) error {
			return yaml.Unmarshal([]byte("- 'implausible values: x'\n- said once\n"), ws)
		},
			[]Warning{{WarnImplausible, []string{"x"}}, {WarnLegacy, []string{"said once"}}}},
	} {
		var got []Warning
		if err := tc.read(&got); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if !slices.EqualFunc(got, tc.want, func(a, b Warning) bool { return a.Code == b.Code && slices.Equal(a.Args, b.Args) }) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// Warnings are listed by code, the data's own first, in the order given within a code; the
// NaN statistics of a run are one warning, their names sorted.
func TestWarningsOrder(t *testing.T) {
	ws := []Warning{Note("b"), Warn(WarnSampled, 1, 2), Note("a"), Warn(WarnImplausible, "x"), Warn(WarnToolInvalid, "y")}
	SortWarnings(ws)
	var got []WarningCode
	for _, w := range ws {
		got = append(got, w.Code)
	}
	if want := []WarningCode{WarnImplausible, WarnToolInvalid, WarnSampled, WarnNote, WarnNote}; !slices.Equal(got, want) || ws[3].Args[0] != "b" {
		t.Errorf("%v, want %v", ws, want)
	}
	r := NewRun("vllm")
	for _, s := range []string{"p99", "std", "mean"} {
		r.SetStat(TTFT, s, math.NaN())
	}
	if len(r.Warnings) != 1 || r.Warnings[0].English() != "the tool wrote NaN for ttft mean, ttft p99, ttft std: left unknown" {
		t.Errorf("NaN warnings %v", r.Warnings)
	}
}
