package report

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"benchlens/analysis/compare"
	"benchlens/internal/par"
	"benchlens/model"
)

// The tables shared by the workbook and the CSV files: one model, so both carry the same
// columns.

// kind says how a column's cells are formatted.
type kind int

const (
	kText   kind = iota
	kInt         // whole number
	kNum         // general number
	kMS          // milliseconds, 2 decimals
	kPct         // a value already in %, 2 decimals, signed
	kP           // p-value, 4 significant digits
	kTokS        // tokens per second
	kReqS        // requests per second
	kBool        // TRUE / FALSE
	kStatus      // a verdict, coloured
	kState       // a condition or check state, coloured
	kDate        // a time (time.Time; an RFC 3339 string that does not parse stays text)
	kShare       // a share 0-1, shown as a percentage (SLO attainment)
	kPP          // a change in percentage points
)

// column is a table column: its header, format and width in characters (0: from the header).
type column struct {
	name  string
	kind  kind
	width float64
}

// cell overrides its column's kind for one value (a stage value in ms or tok/s).
type cell struct {
	v any
	k kind
}

// table is one sheet or CSV file.
type table struct {
	sheet, file string
	cols        []column
	rows        [][]any // nil, string, float64, int, int64, bool, model.Num or cell
}

// tables builds every table of the export from the entries.
func tables(entries []Entry) []*table {
	out := []*table{verdictsTable(entries), stagesTable(entries), conditionsTable(entries), evidenceTable(entries), runsTable(entries), reproduceTable(entries), recordTable(entries)}
	if hasLoadPoints(entries) {
		lp, _ := loadPointsTable(entries)
		out = append(out, lp)
	}
	if hasSLO(entries) {
		t, _ := sloTable(entries)
		out = append(out, t)
	}
	return out
}

// num turns a model.Num into a cell value: nil when unknown, "inf" / "-inf" for infinities
// (a spreadsheet has no infinity), else the float.
func num(n model.Num) any {
	f := n.F()
	switch {
	case math.IsNaN(f):
		return nil
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return f
}

func floatCell(f float64) any { return num(model.Num(f)) }

// OrDash shows an absent text as "-", in every report and view.
func OrDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// title is a comparison's short name: "baseline vs candidate".
func title(e Entry) string {
	return fmt.Sprintf("%s vs %s", OrDash(e.Record.Arms.Baseline.Label), OrDash(e.Record.Arms.Candidate.Label))
}

// causesText joins the causes as "code: reason; code: reason".
func causesText(rec compare.Record) string {
	parts := make([]string, len(rec.Causes))
	for i, c := range rec.Causes {
		parts[i] = string(c.Code) + ": " + c.Reason
	}
	return strings.Join(parts, "; ")
}

// metricOrder lists a stage map's metrics: METHOD.md's order, then any others sorted.
func metricOrder(m map[string]compare.StageDelta) []string {
	var out, rest []string
	for _, s := range model.StageMetrics {
		if _, ok := m[s.Key]; ok {
			out = append(out, s.Key)
		}
	}
	for k := range m {
		if _, known := model.StageMetricOf(k); !known {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

func unitKind(unit string) kind {
	switch unit {
	case "ms":
		return kMS
	case "tok/s":
		return kTokS
	case "req/s":
		return kReqS
	}
	return kNum
}

// --- Verdicts ---------------------------------------------------------------------------

var analystCols = []column{
	{"analyst.note", kText, 40}, {"analyst.tags", kText, 16}, {"analyst.status_override", kStatus, 16},
	{"analyst.override_reason", kText, 30}, {"analyst.author", kText, 12}, {"analyst.at", kText, 20},
	{"analyst.edits", kInt, 8},
}

// summaryStats are the per-stage figures the Verdicts sheet shows; the rest of each stage is
// on the Stages sheet, the whole record on the Record sheet.
var summaryStats = []string{"baseline", "candidate", "delta_pct", "p"}

// verdictsTable is one row per comparison, a summary to read across: the status that stands
// (the analyst's when overridden) beside the proposed one, the headline, the causes, each stage's medians,
// change and p-value, and the analyst's columns.
func verdictsTable(entries []Entry) *table {
	t := &table{sheet: SheetVerdicts, file: "verdicts.csv"}
	t.cols = []column{{"comparison", kInt, 11}, {"saved_at", kDate, 20}, {"baseline", kText, 16}, {"candidate", kText, 16},
		{"status", kStatus, 16}, {"proposed_status", kStatus, 16}, {"headline", kText, 60}, {"causes", kText, 50}}
	var stages []string
	seen := map[string]bool{}
	for _, e := range entries {
		for _, k := range metricOrder(e.Record.Perf) {
			if !seen[k] {
				seen[k] = true
				stages = append(stages, k)
			}
		}
	}
	for _, k := range stages {
		for _, stat := range summaryStats {
			name := "perf." + k + "." + stat
			t.cols = append(t.cols, column{name: name, kind: flatKind(name)})
		}
	}
	t.cols = append(t.cols, analystCols...)
	for _, e := range entries {
		a := e.Annotation
		row := []any{e.ID, timeValue(e.SavedAt), e.Record.Arms.Baseline.Label, e.Record.Arms.Candidate.Label, e.Status(), e.Record.Status, HeadlineOf(e.Record).String(), causesText(e.Record)}
		for _, k := range stages {
			d, ok := e.Record.Perf[k]
			if !ok {
				row = append(row, nil, nil, nil, nil)
				continue
			}
			row = append(row, num(d.Baseline), num(d.Candidate), num(d.Delta), num(d.P))
		}
		row = append(row, a.Note, strings.Join(a.Tags, ", "), a.StatusOverride, a.OverrideReason, a.Author, a.At, len(e.History))
		t.rows = append(t.rows, row)
	}
	return t
}

// recordTable is every record in full, one row per key (the record flattened from its JSON
// form, so new keys appear without code changes): nothing the Verdicts summary leaves out is
// lost.
func recordTable(entries []Entry) *table {
	t := &table{sheet: SheetRecord, file: "record.csv",
		cols: []column{{"comparison", kInt, 11}, {"key", kText, 48}, {"value", kNum, 40}}}
	flat := make([][]flatKV, len(entries)) // a record's walk is the sheet's cost: on all cores
	par.Each(len(entries), 4, func(_, i int) { flat[i] = flattenRecord(entries[i].Record) })
	for i, e := range entries {
		for _, kv := range flat[i] {
			if !strings.HasPrefix(kv.key, "reproduce.") { // its own sheet
				t.rows = append(t.rows, []any{e.ID, kv.key, kv.val})
			}
		}
	}
	return t
}

// flatKind picks a column's format from its dotted key.
func flatKind(key string) kind {
	segs := strings.Split(key, ".")
	last := segs[len(segs)-1]
	switch {
	case strings.HasSuffix(last, "_pct"):
		return kPct
	case last == "p":
		return kP
	case last == "status" || last == "status_override":
		return kStatus
	}
	if len(segs) >= 3 && (segs[0] == "perf" || segs[len(segs)-3] == "stages") {
		switch last {
		case "baseline", "candidate", "baseline_trimmed", "candidate_trimmed":
			if m, ok := model.StageMetricOf(segs[len(segs)-2]); ok {
				return unitKind(m.Unit)
			}
		}
	}
	return kNum // strings stay strings; only numbers take the format
}

// --- Stages -----------------------------------------------------------------------------

// stagesCols; the chart of stage deltas reads the metric, delta and interval columns. A
// sweep's rows are per load point (its label in load_point), never pooled.
var stagesCols = []column{
	{"comparison", kInt, 11}, {"title", kText, 24}, {"load_point", kText, 42}, {"bucket", kText, 8}, {"metric", kText, 15}, {"stage", kText, 8}, {"unit", kText, 6},
	{"baseline", kNum, 12}, {"candidate", kNum, 12}, {"baseline_trimmed", kNum, 12}, {"candidate_trimmed", kNum, 12},
	{"delta_pct", kPct, 10}, {"ci_low_pct", kPct, 10}, {"ci_high_pct", kPct, 10}, {"p", kP, 10},
	{"n_baseline", kInt, 10}, {"n_candidate", kInt, 10}, {"per_request", kBool, 10}, {"significant", kBool, 10},
	{"better", kBool, 8}, {"worse", kBool, 8},
	{"p90_delta_pct", kPct, 12}, {"p99_delta_pct", kPct, 12}, // the tails' change ("all" rows)
}

const (
	stagesMetricCol = 5 // 1-based column of "metric"
	stagesDeltaCol  = 12
	stagesLowCol    = 13
	stagesHighCol   = 14
)

// stageSpan is the rows (1-based, in the sheet) of one comparison's "all" bucket; none for a
// sweep, whose stages are per point.
type stageSpan struct{ first, last int }

func stagesTable(entries []Entry) *table {
	t, _ := stagesTableSpans(entries)
	return t
}

// stagesTableSpans also reports where each comparison's "all" rows are, for the charts.
func stagesTableSpans(entries []Entry) (*table, []stageSpan) {
	t := &table{sheet: "Stages", file: "stages.csv", cols: stagesCols}
	spans := make([]stageSpan, len(entries))
	for i, e := range entries {
		add := func(point, bucket string, m map[string]compare.StageDelta, tails map[string]compare.Tail) {
			for _, k := range metricOrder(m) {
				d := m[k]
				uk := unitKind(d.Unit)
				var p90, p99 any
				if tail, ok := tails[k]; ok {
					p90, p99 = num(tail.P90Delta), num(tail.P99Delta)
				}
				t.rows = append(t.rows, []any{e.ID, title(e), point, bucket, k, d.Stage, d.Unit,
					cell{num(d.Baseline), uk}, cell{num(d.Candidate), uk}, cell{num(d.BaselineTrim), uk}, cell{num(d.CandidateTrim), uk},
					num(d.Delta), num(d.CILow), num(d.CIHigh), num(d.P), d.N[0], d.N[1], d.PerRequest, d.Significant, d.Better, d.Worse, p90, p99})
			}
		}
		first := len(t.rows) + 2
		add("", "all", e.Record.Perf, e.Record.Tails)
		spans[i] = stageSpan{first, len(t.rows) + 1}
		for _, row := range e.Record.Buckets.Rows {
			add("", row.Bucket, row.Stages, nil)
		}
		for j, lp := range e.Record.LoadPoints {
			at := e.Record.AtPoint(j)
			add(lp.Label, "all", at.Perf, at.Tails)
			for _, row := range at.Buckets.Rows {
				add(lp.Label, row.Bucket, row.Stages, nil)
			}
		}
	}
	return t, spans
}

// --- Conditions -------------------------------------------------------------------------

func conditionsTable(entries []Entry) *table {
	t := &table{sheet: "Conditions", file: "conditions.csv", cols: []column{
		{"comparison", kInt, 11}, {"title", kText, 24}, {"field", kText, 32}, {"baseline", kText, 28}, {"candidate", kText, 28},
		{"state", kState, 10}, {"required", kBool, 10}, {"note", kText, 40}, {"source", kText, 32},
	}}
	for _, e := range entries {
		for _, c := range e.Record.Conditions() {
			t.rows = append(t.rows, []any{e.ID, title(e), c.Name, textValue(c.Baseline), textValue(c.Candidate), c.State, c.Required, c.Note, c.SourceText()})
		}
	}
	return t
}

// plainNumber is a decimal number as recorded ("1024", "0.5", "-3"), not a version ("0.12.0")
// or an id with leading zeros ("007").
var plainNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?$`)

// textValue stores a recorded value that is a plain number as a number, so a spreadsheet
// sorts and sums it; anything else stays text.
func textValue(s string) any {
	if plainNumber.MatchString(s) {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return s
}

// timeValue stores an RFC 3339 time as a time (a date cell), else the text as it is.
func timeValue(s string) any {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC()
	}
	return s
}

// --- Evidence ---------------------------------------------------------------------------

func evidenceTable(entries []Entry) *table {
	t := &table{sheet: "Evidence", file: "evidence.csv", cols: []column{
		{"comparison", kInt, 11}, {"kind", kText, 14}, {"name", kText, 22}, {"arm", kText, 10}, {"run", kInt, 8}, {"line", kInt, 8},
		{"runs", kInt, 6}, {"state", kState, 10}, {"baseline", kNum, 14}, {"candidate", kNum, 14}, {"delta", kNum, 10},
		{"text", kText, 70}, {"hint", kText, 40},
	}}
	for _, e := range entries {
		r := e.Record
		row := func(kind, name, arm string, run, line, runs, state, base, cand, delta any, text, hint string) {
			t.rows = append(t.rows, []any{e.ID, kind, name, arm, run, line, runs, state, base, cand, delta, text, hint})
		}
		tri := func(b *bool) any {
			if b == nil {
				return "unknown"
			}
			return strconv.FormatBool(*b)
		}
		row("path", "target_backend", "", nil, nil, nil, nil, r.Path.TargetBackend.Baseline, r.Path.TargetBackend.Candidate, nil, "", "")
		row("path", "resolved_backend", "", nil, nil, nil, nil, r.Path.ResolvedBackend.Baseline, r.Path.ResolvedBackend.Candidate, nil, "", "")
		row("path", "changed", "", nil, nil, nil, tri(r.Path.Changed), nil, nil, nil, "", "")
		row("path", "target_hit", "", nil, nil, nil, tri(r.Path.TargetHit), nil, nil, nil, "", "")
		row("path", "kernel_backend", "", nil, nil, nil, nil, r.Path.KernelBackend.Baseline, r.Path.KernelBackend.Candidate, nil, "", "")
		for _, l := range r.Path.Evidence {
			row("backend_line", "", l.Arm, l.Run, l.Line, l.Runs, nil, nil, nil, nil, l.Text, "")
		}
		for _, c := range r.Causes {
			row("cause", string(c.Code), "", nil, nil, nil, nil, nil, nil, nil, c.Reason, "")
		}
		o := r.Overhead
		state := "unmeasured"
		if o.Measured {
			state = "measured"
			if o.Grew {
				state = "grew"
			}
		}
		for _, c := range []struct {
			name string
			d    compare.CountDelta
		}{{"extra_copy", o.ExtraCopy}, {"kernel_launch", o.KernelLaunch}, {"extra_sync", o.ExtraSync}, {"device_time_us_per_step", o.DeviceTime}} {
			per := ""
			if o.Per != "" {
				per = "per " + o.Per
			}
			row("overhead", c.name, "", nil, nil, nil, state, num(c.d.Baseline), num(c.d.Candidate), num(c.d.Delta), per, "")
		}
		h := r.Hotspot
		row("utilisation", "device_util_trace", "", nil, nil, nil, nil, h.DeviceUtilTrace.Baseline, h.DeviceUtilTrace.Candidate, nil, h.Remedy, "")
		for _, s := range h.ShapeDetail {
			row("shape_detail", "", "", nil, nil, nil, nil, nil, nil, nil, s, "")
		}
		row("hotspot", "hotspot_stage", "", nil, nil, nil, nil, nil, nil, nil, h.HotspotStage, "")
		row("hotspot", "moved", "", nil, nil, nil, nil, nil, nil, nil, h.Moved, "")
		for _, side := range []struct {
			arm string
			ops []model.OpStat
		}{{"baseline", h.TopOps.Baseline}, {"candidate", h.TopOps.Candidate}} {
			for _, op := range side.ops {
				row("top_op", op.Name, side.arm, nil, nil, nil, nil, nil, nil, nil, fmt.Sprintf("%.0f us in %d calls", op.TimeUs, op.Count), "")
			}
		}
		m := r.Measurement
		row("measurement", "repeats", "", nil, nil, nil, nil, m.Repeats[0], m.Repeats[1], nil, "", "")
		row("measurement", "warmup_iters", "", nil, nil, nil, nil, m.WarmupIters[0], m.WarmupIters[1], nil, "", "")
		for _, s := range m.ColdStarts {
			row("measurement", "cold_start", "", nil, nil, nil, nil, nil, nil, nil, s, "")
		}
		for _, s := range m.Advice {
			row("measurement", "advice", "", nil, nil, nil, nil, nil, nil, nil, s, "")
		}
		for _, c := range r.Checklist() {
			row("checklist", c.Name, "", nil, nil, nil, c.State, nil, nil, nil, c.Reason, c.Hint)
		}
		for _, n := range r.Notes {
			row("note", "", "", nil, nil, nil, nil, nil, nil, nil, n, "")
		}
		for _, w := range SortedWarnings(r.Warnings) {
			row("warning", string(w.Code), "", nil, nil, nil, nil, nil, nil, nil, w.English(), "")
		}
		for _, w := range r.DataQuality {
			row("data_quality", string(w.Warning.Code), w.Arm, w.Run, nil, nil, nil, nil, nil, nil, w.Warning.English(), "")
		}
	}
	return t
}

// --- Runs -------------------------------------------------------------------------------

func runsCols() []column {
	cols := []column{
		{"comparison", kInt, 11}, {"arm", kText, 10}, {"id", kInt, 8}, {"label", kText, 16}, {"role", kText, 10},
		{"tool", kText, 10}, {"tool_version", kText, 10}, {"era", kText, 14}, {"model", kText, 24}, {"date", kText, 20},
		{"dataset", kText, 12}, {"num_prompts", kInt, 11}, {"completed", kInt, 10}, {"failed", kInt, 8},
		{"request_rate", kReqS, 12}, {"max_concurrency", kInt, 10}, {"duration_s", kNum, 10},
		{"request_throughput", kReqS, 14}, {"input_throughput", kTokS, 14}, {"output_throughput", kTokS, 14}, {"total_token_throughput", kTokS, 14},
	}
	for _, m := range model.Latencies {
		cols = append(cols, column{m + ".median", kMS, 12}, column{m + ".p99", kMS, 12})
	}
	return append(cols, column{"stats_from", kText, 22}, column{"requests", kInt, 9}, column{"bundle", kText, 30}, column{"files", kText, 40})
}

// runStat is a run's statistic as the analysis uses it (model.Run.Used), and whether it was
// recomputed from the run's requests.
func runStat(r *model.Run, metric, stat string) (any, bool) {
	v, _ := r.Stats(metric).Stat(stat)
	return num(v), r.Used(metric) == model.UsedRecomputed
}

func runsTable(entries []Entry) *table {
	t := &table{sheet: "Runs", file: "runs.csv", cols: runsCols()}
	for _, e := range entries {
		byID := map[int64]*model.Run{}
		for _, r := range e.Runs {
			if r != nil {
				byID[r.ID] = r
			}
		}
		for _, side := range []struct {
			arm string
			ids []int64
		}{{"baseline", e.Record.Arms.Baseline.Runs}, {"candidate", e.Record.Arms.Candidate.Runs}} {
			for _, id := range side.ids {
				r := byID[id]
				if r == nil {
					t.rows = append(t.rows, []any{e.ID, side.arm, id})
					continue
				}
				row := []any{e.ID, side.arm, r.ID, r.Label, r.Role, r.Tool, r.ToolVersion, r.Era, r.Model, r.Date, r.Dataset,
					num(r.NumPrompts), num(r.Completed), num(r.Failed), num(r.RequestRate), num(r.MaxConcurrency), num(r.DurationS),
					num(r.RequestThroughput), num(r.InputThroughput), num(r.OutputThroughput), num(r.TotalTokenThroughput)}
				var recomputed []string
				for _, m := range model.Latencies {
					med, rec := runStat(r, m, "median")
					p99, rec2 := runStat(r, m, "p99")
					row = append(row, med, p99)
					if rec || rec2 {
						recomputed = append(recomputed, m)
					}
				}
				from := "tool"
				if len(recomputed) > 0 {
					from = "recomputed: " + strings.Join(recomputed, ", ")
				}
				if sm := r.Sampled; sm != nil {
					from = fmt.Sprintf("tool (records a sample: %d of %d)", sm.Records, sm.Population)
				}
				row = append(row, from, len(r.Requests), r.Bundle, strings.Join(e.Files[r.ID], ", "))
				t.rows = append(t.rows, row)
			}
		}
	}
	return t
}
