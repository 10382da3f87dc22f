package library

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"benchlens/model"
)

// encodedRow is the row as encoding/json writes it for `runs --json`: the text
// AppendRowJSON must give, byte for byte.
func encodedRow(t *testing.T, r RunRow) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("  ", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// oddStrings are texts whose escaping encoding/json decides: quotes, backslashes, control
// characters, HTML's characters (not escaped here), invalid UTF-8, U+2028 and U+2029,
// characters outside ASCII, DEL.
var oddStrings = []string{
	"", "plain", `say "hi"`, `C:\models\llama`, "tab\there", "line\nbreak\r\n", "\x00\x01\x1f", "\b\f",
	"<b>&amp;</b>", "bad \xff\xfe utf-8", "cut \xe2\x80", "line\u2028para\u2029", "…/Llama-3.1-8B", "模型 😀", "del\x7f",
	"'single'", "/slashes/", "\\u0041",
}

// oddNums are the values a Num prints differently: unknown (null), infinities (quoted),
// zero and negative zero, exponents both ways, integers past 2^53, the least subnormal.
var oddNums = []model.Num{
	model.Unknown, model.Num(math.Inf(1)), model.Num(math.Inf(-1)), 0, model.Num(math.Copysign(0, -1)), 1, -3.5,
	1e21, 1e20, 123456789012345680000, 1e-7, 0.000001, 2.5e-300, 5e-324, math.MaxFloat64, 87.96, 1.0 / 3, 9007199254740993,
}

func TestAppendRowJSONAsEncodingJSON(t *testing.T) {
	str := func(s string) *string { return &s }
	shape := model.ShapeIntermittent
	cases := []struct {
		name string
		row  RunRow
	}{
		{"zero row", RunRow{}},
		{"unknown numbers, nil maps", RunRow{ID: 7, NumPrompts: model.Unknown, Completed: model.Unknown}},
		{"empty maps, not nil", RunRow{TTFT: Metric{Tool: model.Stats{}, Recomputed: model.Stats{}}}},
		{"every field", RunRow{
			ID: -1, Label: "nightly-001", Role: model.RoleBaseline, Tool: "vllm", ToolVersion: "0.10.1", Era: model.EraVLLMG,
			Model: "meta-llama/Llama-3.1-8B", Precision: "FP8", Date: "2026-12-02T13:00:00", Bundle: "not printed",
			NumPrompts: 40, Completed: 39, Failed: 1, Errored: 1, Incomplete: 0, Cancelled: model.Unknown,
			RequestRate: model.Num(math.Inf(1)), MaxConcurrency: 64, DurationS: 12.345678, RequestThroughput: 3.2,
			OutputThroughput: 1234.5, TotalTokenThroughput: 2345.25, Goodput: model.Unknown,
			Sampled:    &model.Sample{Records: 10, Population: 40, Why: "--max-records 10"},
			ToolWarmup: &model.Warmup{Requests: 2, Cooldown: 1, InFile: true, Setting: "--warmup 2"},
			TTFT: Metric{Tool: model.Stats{"mean": 12.5, "median": 11, "p99": 40, "std": model.Unknown},
				Recomputed: model.Stats{"p50": 11.25, "p90": model.Num(math.Inf(-1))}, Used: model.UsedRecomputed, Definition: "time to first token"},
			TPOT:          Metric{Tool: model.Stats{"median": 3}, Used: "tool"},
			ITL:           Metric{Recomputed: model.Stats{}},
			TargetBackend: str("FLASHINFER"), TargetFrom: "server log: flag", ResolvedBackend: str("FLASH_ATTN"), UtilisationShape: &shape,
			LoadPoint: &model.LoadPoint{MaxConcurrency: 64, RequestRate: model.Num(math.Inf(1)), InputLen: 939, OutputLen: 512, Measured: true,
				InputFrom: model.LengthPerRequest, OutputFrom: model.LengthPerRequest, OutputFixed: "near-constant outputs", Dataset: "random"},
		}},
		{"a point of nothing known", RunRow{LoadPoint: &model.LoadPoint{MaxConcurrency: model.Unknown, RequestRate: model.Unknown, InputLen: model.Unknown, OutputLen: model.Unknown}}},
		{"warm-up without setting, sample without why", RunRow{Sampled: &model.Sample{}, ToolWarmup: &model.Warmup{}}},
		{"empty pointed-at strings", RunRow{TargetBackend: str(""), ResolvedBackend: str("")}},
	}
	for i, s := range oddStrings {
		cases = append(cases, struct {
			name string
			row  RunRow
		}{"odd string " + s, RunRow{Label: s, Model: s, Date: s, TargetBackend: &oddStrings[i], TargetFrom: s,
			Sampled: &model.Sample{Why: s}, ToolWarmup: &model.Warmup{Setting: s},
			TTFT: Metric{Tool: model.Stats{s: 1, "x" + s: 2}, Used: s, Definition: s}}})
	}
	for _, n := range oddNums {
		cases = append(cases, struct {
			name string
			row  RunRow
		}{"odd number", RunRow{NumPrompts: n, DurationS: n, E2EL: Metric{Tool: model.Stats{"mean": n}}}})
	}
	rng := rand.New(rand.NewPCG(29, 4))
	for range 300 {
		cases = append(cases, struct {
			name string
			row  RunRow
		}{"random", randomRow(rng)})
	}
	for _, c := range cases {
		want := encodedRow(t, c.row)
		if got := string(AppendRowJSON(nil, &c.row)); got != want {
			t.Errorf("%s: AppendRowJSON wrote\n%s\nencoding/json\n%s", c.name, got, want)
		}
	}
	// Appending keeps what was before.
	r := cases[3].row
	if got, want := string(AppendRowJSON([]byte("[\n  "), &r)), "[\n  "+encodedRow(t, r); got != want {
		t.Errorf("appended to a prefix:\n%s\nwant\n%s", got, want)
	}
}

// randomRow fills every field of a row, each one unset, empty or odd at random.
func randomRow(rng *rand.Rand) RunRow {
	s := func() string { return oddStrings[rng.IntN(len(oddStrings))] }
	n := func() model.Num {
		if rng.IntN(3) == 0 {
			return oddNums[rng.IntN(len(oddNums))]
		}
		return model.Num(rng.NormFloat64() * math.Pow(10, float64(rng.IntN(12)-4)))
	}
	p := func() *string {
		if rng.IntN(2) == 0 {
			return nil
		}
		v := s()
		return &v
	}
	stats := func() model.Stats {
		switch rng.IntN(4) {
		case 0:
			return nil
		case 1:
			return model.Stats{}
		}
		st := model.Stats{}
		for range rng.IntN(20) { // past the 16 names AppendRowJSON sorts without allocating
			st[commonStats[rng.IntN(len(commonStats))]+s()] = n()
		}
		return st
	}
	metric := func() Metric { return Metric{Tool: stats(), Recomputed: stats(), Used: s(), Definition: s()} }
	r := RunRow{
		ID: rng.Int64() - rng.Int64(), Label: s(), Role: model.Role(s()), Tool: s(), ToolVersion: s(), Era: model.Era(s()),
		Model: s(), Precision: s(), Date: s(), Bundle: s(),
		NumPrompts: n(), Completed: n(), Failed: n(), Errored: n(), Incomplete: n(), Cancelled: n(), RequestRate: n(),
		MaxConcurrency: n(), DurationS: n(), RequestThroughput: n(), OutputThroughput: n(), TotalTokenThroughput: n(), Goodput: n(),
		TTFT: metric(), TPOT: metric(), ITL: metric(), E2EL: metric(),
		TargetBackend: p(), TargetFrom: s(), ResolvedBackend: p(),
	}
	if rng.IntN(2) == 0 {
		r.Sampled = &model.Sample{Records: rng.IntN(1 << 20), Population: -rng.IntN(5), Why: s()}
	}
	if rng.IntN(2) == 0 {
		r.ToolWarmup = &model.Warmup{Requests: rng.IntN(100), Cooldown: rng.IntN(3), InFile: rng.IntN(2) == 0, Setting: s()}
	}
	if v := p(); v != nil {
		shape := model.ShapeClass(*v)
		r.UtilisationShape = &shape
	}
	if rng.IntN(2) == 0 {
		r.LoadPoint = &model.LoadPoint{MaxConcurrency: n(), RequestRate: n(), InputLen: n(), OutputLen: n(), Measured: rng.IntN(2) == 0,
			InputFrom: s(), OutputFrom: s(), OutputFixed: s(), Dataset: s()}
	}
	return r
}

// commonStats are statistics' names as tools write them.
var commonStats = []string{"mean", "median", "std", "p90", "p99", "p50", "min", "max"}
