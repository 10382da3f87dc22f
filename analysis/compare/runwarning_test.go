package compare

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"benchlens/model"
)

// A record keeps each warning and data-quality warning as its code, arguments and English
// text; a record saved before warnings had codes (their text only) reads back as codes where
// the text is a code's wording, its data-quality lines naming their arm and run again.
func TestRecordWarningsReadBack(t *testing.T) {
	rec := Record{
		Warnings:    []model.Warning{model.Warn(model.WarnTraceDevices, "H100", "A100")},
		DataQuality: []RunWarning{{"candidate", 9, model.Warn(model.WarnImplausible, "tpot mean 0 ms")}},
	}
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	y, err := yaml.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	const oldJSON = `{"warnings":["the profiler traces come from different devices (H100 vs A100): their times do not compare"],
		"data_quality":["candidate run 9: implausible values: tpot mean 0 ms"]}`
	const oldYAML = "warnings:\n  - 'the profiler traces come from different devices (H100 vs A100): their times do not compare'\n" +
		"data_quality:\n  - 'candidate run 9: implausible values: tpot mean 0 ms'\n"
	for _, tc := range []struct {
		name string
		read func(*Record) error
	}{
		{"json", func(r *Record) error { return json.Unmarshal(b, r) }},
		{"yaml", func(r *Record) error { return yaml.Unmarshal(y, r) }},
		{"old json", func(r *Record) error { return json.Unmarshal([]byte(oldJSON), r) }},
		{"old yaml", func(r *Record) error { return yaml.Unmarshal([]byte(oldYAML), r) }},
	} {
		var got Record
		if err := tc.read(&got); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		sameWarning := func(a, b model.Warning) bool { return a.Code == b.Code && slices.Equal(a.Args, b.Args) }
		if !slices.EqualFunc(got.Warnings, rec.Warnings, sameWarning) ||
			!slices.EqualFunc(got.DataQuality, rec.DataQuality, func(a, b RunWarning) bool {
				return a.Arm == b.Arm && a.Run == b.Run && sameWarning(a.Warning, b.Warning)
			}) {
			t.Errorf("%s: warnings %+v, data quality %+v", tc.name, got.Warnings, got.DataQuality)
		}
	}
	for _, want := range []string{"- code: trace_devices\n", "text: 'the profiler traces come from different devices (H100 vs A100): their times do not compare'",
		"- arm: candidate\n", "run: 9\n", "code: implausible_values\n", "text: 'implausible values: tpot mean 0 ms'"} {
		if !strings.Contains(string(y), want) {
			t.Errorf("the YAML record lacks %q:\n%s", want, y)
		}
	}
}
