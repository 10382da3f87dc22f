package result

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/importers/sqlitero"
	"benchlens/model"
)

// EvalScope perf (`evalscope perf`, more-formats.md 3.2): one folder per sweep point,
// parallel_<P>_number_<N>/ (closed loop) or rate_<R>_number_<N>/ (open loop), holding
// benchmark_summary.json (the run), benchmark_percentile.json (its percentiles),
// benchmark_args.json (the model, API and load the run was given) and benchmark_data.db (the
// per-request SQLite). The summary's keys changed twice: ≤ v1.6 long names with latencies in
// seconds, v1.7 short names with TTFT/TPOT/ITL means in ms, v1.10 the means as Avg … (ms).

const toolEvalScope = "evalscope"

// Eras of EvalScope's benchmark_summary.json.
const (
	eraEvalScope16  era = "≤ v1.6 summary (long names, latencies in s)"
	eraEvalScope17  era = "v1.7–v1.9 summary (TTFT/TPOT/ITL means in ms)"
	eraEvalScope110 era = "v1.10+ summary (Avg TTFT/TPOT/ITL in ms)"
)

// evalScopeFolder reads a sweep point's folder: parallel_4_number_40, rate_2.5_number_100.
var evalScopeFolder = regexp.MustCompile(`^(parallel|rate)_(-?\d+(?:\.\d+)?)_number_(\d+)$`)

// IsEvalScopeSummary sniffs benchmark_summary.json: a JSON object with the duration key of
// one of its eras.
func IsEvalScopeSummary(f *format.File) bool {
	lead := f.Lead()
	return len(lead) > 0 && lead[0] == '{' &&
		(f.HeadQuotes("Time taken for tests (s)") || f.HeadQuotes("Test Duration (s)"))
}

// ReadEvalScopeSummary reads benchmark_summary.json into its run.
func ReadEvalScopeSummary(f *format.File) (format.Parsed, error) {
	obj, err := decodeObject(f)
	if err != nil {
		return format.Parsed{}, err
	}
	run := model.NewRun(toolEvalScope)
	fl := fields{obj: obj}
	known := map[string]bool{}
	num := func(keys ...string) model.Num {
		for _, k := range keys {
			known[k] = true
		}
		return fl.num(keys...)
	}
	// Means of a latency in the unit its key names.
	mean := func(metric string, keys ...string) {
		for _, k := range keys {
			known[k] = true
			x := fl.num(k)
			if !x.Known() {
				continue
			}
			scale := 1.0
			if strings.HasSuffix(k, "(s)") {
				scale = 1000
			}
			run.SetStat(metric, "mean", x.F()*scale)
			return
		}
	}
	switch {
	case obj["Time taken for tests (s)"] != nil:
		run.Era = eraEvalScope16
		run.IdentifiedBy = `"Time taken for tests (s)" key (EvalScope ≤ v1.6)`
	case obj["Avg TTFT (ms)"] != nil || obj["Avg TPOT (ms)"] != nil:
		run.Era = eraEvalScope110
		run.IdentifiedBy = `"Test Duration (s)" with "Avg TTFT (ms)" keys (EvalScope v1.10+)`
	default:
		run.Era = eraEvalScope17
		run.IdentifiedBy = `"Test Duration (s)" with "TTFT (ms)" keys (EvalScope v1.7–v1.9)`
	}
	run.DurationS = num("Time taken for tests (s)", "Test Duration (s)")
	run.MaxConcurrency = num("Number of concurrency", "Concurrency")
	if rate := num("Request rate (req/s)", "Request Rate (req/s)"); rate.Known() && rate.F() > 0 {
		run.RequestRate = rate // -1 is EvalScope's "no limit": the concurrency bounds the load
	}
	run.NumPrompts = num("Total requests", "Total Requests")
	run.Completed = num("Succeed requests", "Success Requests")
	run.Failed = num("Failed requests", "Failed Requests")
	run.RequestThroughput = num("Request throughput (req/s)", "Req Throughput (req/s)")
	run.OutputThroughput = num("Output token throughput (tok/s)", "Output Throughput (tok/s)")
	run.TotalTokenThroughput = num("Total token throughput (tok/s)", "Total Throughput (tok/s)")
	run.InputThroughput = num("Input Throughput (tok/s)")
	mean(model.E2EL, "Average latency (s)", "Avg Latency (s)")
	mean(model.TTFT, "Average time to first token (s)", "Avg TTFT (ms)", "TTFT (ms)")
	mean(model.TPOT, "Average time per output token (s)", "Avg TPOT (ms)", "TPOT (ms)")
	mean(model.ITL, "Average inter-token latency (s)", "Avg ITL (ms)", "ITL (ms)")
	in := num("Average input tokens per request", "Avg Input Tokens")
	out := num("Average output tokens per request", "Avg Output Tokens")
	if fl.err != nil {
		return format.Parsed{}, fl.err
	}
	if in.Known() && run.Completed.Known() {
		run.TotalInputTokens = model.Num(math.Round(in.F() * run.Completed.F()))
		setExtra(run, "avg_input_tokens", in.F())
	}
	if out.Known() && run.Completed.Known() {
		run.TotalOutputTokens = model.Num(math.Round(out.F() * run.Completed.F()))
		setExtra(run, "avg_output_tokens", out.F())
	}
	for k, x := range obj {
		if !known[k] {
			setExtra(run, k, x)
		}
	}
	evalScopeLoadFromFolder(run, f.Name)
	run.Definitions = evalScopeDefinitions()
	return format.Parsed{Runs: []*model.Run{run}}, nil
}

func evalScopeDefinitions() map[string]string {
	return map[string]string{
		model.TTFT: "per request, from sending it to its first streamed chunk (EvalScope's first_chunk_latency)",
		model.TPOT: "per request, the decode time over its output tokens after the first (EvalScope)",
		model.ITL:  "every gap between streamed chunks, pooled over the requests (EvalScope)",
		model.E2EL: "per successful request, from sending it to its last chunk",
	}
}

// evalScopeLoadFromFolder fills the load point the summary did not state from the sweep
// point's folder.
func evalScopeLoadFromFolder(run *model.Run, name string) {
	dir := path.Base(path.Dir(strings.ReplaceAll(name, `\`, "/")))
	m := evalScopeFolder.FindStringSubmatch(dir)
	if m == nil {
		return
	}
	x, err := strconv.ParseFloat(m[2], 64)
	if err != nil {
		return
	}
	switch {
	case m[1] == "parallel" && !run.MaxConcurrency.Known():
		run.MaxConcurrency = model.Num(x)
		setExtra(run, "load_from", "folder "+dir)
	case m[1] == "rate" && !run.RequestRate.Known() && x > 0:
		run.RequestRate = model.Num(x)
		setExtra(run, "load_from", "folder "+dir)
	}
	if n, err := strconv.ParseFloat(m[3], 64); err == nil && !run.NumPrompts.Known() {
		run.NumPrompts = model.Num(n)
	}
}

// IsEvalScopePercentile sniffs benchmark_percentile.json: a JSON array of rows keyed by
// "Percentiles".
func IsEvalScopePercentile(f *format.File) bool {
	lead := f.Lead()
	return len(lead) > 0 && lead[0] == '[' && bytes.Contains(lead, []byte(`"Percentiles"`))
}

// evalScopeMetric names a percentile column: "TTFT (s)" is TTFT in s, "Latency (s)" E2EL.
var evalScopeMetric = map[string]string{"TTFT": model.TTFT, "TPOT": model.TPOT, "ITL": model.ITL, "Latency": model.E2EL}

// evalScopeStat names a percentile label as the other tools do: "50%" is median, "99%" p99.
func evalScopeStat(label string) (string, bool) {
	l := strings.TrimSpace(label)
	switch strings.ToLower(l) {
	case "min", "max":
		return strings.ToLower(l), true
	}
	p, err := strconv.ParseFloat(strings.TrimSuffix(l, "%"), 64)
	if err != nil || !strings.HasSuffix(l, "%") {
		return "", false
	}
	if p == 50 {
		return "median", true
	}
	return "p" + strconv.FormatFloat(p, 'f', -1, 64), true
}

// ReadEvalScopePercentile reads benchmark_percentile.json into a part completing the run of
// its folder: latency percentiles into the summary (ms), the token and throughput columns kept.
func ReadEvalScopePercentile(f *format.File) (format.Parsed, error) {
	v, err := jsonx.NewDecoder(f.Data).Decode()
	if err != nil {
		return format.Parsed{}, err
	}
	arr, ok := v.([]any)
	if !ok {
		return format.Parsed{}, format.ErrUnrecognized
	}
	type cell struct {
		metric, stat string
		ms           float64
	}
	var cells []cell
	other := map[string]map[string]any{}
	for i, x := range arr {
		row := jsonx.Object(x)
		if row == nil {
			return format.Parsed{}, fmt.Errorf("row %d: %s, want an object", i+1, describe(x))
		}
		stat, ok := evalScopeStat(jsonx.Str(row["Percentiles"]))
		if !ok {
			return format.Parsed{}, fmt.Errorf("row %d: Percentiles %s is no percentile label", i+1, describe(row["Percentiles"]))
		}
		for k, val := range row {
			if k == "Percentiles" || val == nil {
				continue
			}
			x, ok := jsonx.Float(val)
			if !ok {
				return format.Parsed{}, fmt.Errorf("row %d (%s): %q is %s, want a number", i+1, stat, k, describe(val))
			}
			name, unit := k, ""
			if j := strings.LastIndex(k, " ("); j >= 0 && strings.HasSuffix(k, ")") {
				name, unit = k[:j], k[j+2:len(k)-1]
			}
			metric, isLatency := evalScopeMetric[name]
			switch {
			case isLatency && unit == "s":
				cells = append(cells, cell{metric, stat, x * 1000})
			case isLatency && unit == "ms":
				cells = append(cells, cell{metric, stat, x})
			default:
				if other[k] == nil {
					other[k] = map[string]any{}
				}
				other[k][stat] = x
			}
		}
	}
	fill := func(run *model.Run) {
		for _, c := range cells {
			run.SetStat(c.metric, c.stat, c.ms)
		}
		if len(other) > 0 {
			setExtra(run, "percentiles", other)
		}
	}
	return format.Parsed{Part: &format.Part{Tool: toolEvalScope, Fill: fill, What: "EvalScope's benchmark_percentile.json"}}, nil
}

// IsEvalScopeArgs sniffs benchmark_args.json by its name and its parallel key.
func IsEvalScopeArgs(f *format.File) bool {
	return f.Base() == "benchmark_args.json" && bytes.Contains(f.Lead(), []byte(`"parallel"`))
}

// ReadEvalScopeArgs reads benchmark_args.json into a part completing the run of its folder:
// the model, the API, the dataset and the load the run was given.
func ReadEvalScopeArgs(f *format.File) (format.Parsed, error) {
	obj, err := decodeObject(f)
	if err != nil {
		return format.Parsed{}, err
	}
	fill := func(run *model.Run) {
		if m := jsonx.Str(obj["model"]); m != "" && run.Model == "" {
			run.Model = m
		}
		if t := jsonx.Str(obj["tokenizer_path"]); t != "" && run.Tokenizer == "" {
			run.Tokenizer = t
		}
		if a := jsonx.Str(obj["api"]); a != "" && run.Backend == "" {
			run.Backend = a
		}
		if d := jsonx.Str(obj["dataset"]); d != "" && run.Dataset == "" {
			run.Dataset = d
		}
		if p, ok := jsonx.Float(obj["parallel"]); ok && !run.MaxConcurrency.Known() {
			run.MaxConcurrency = model.Num(p)
		}
		if r, ok := jsonx.Float(obj["rate"]); ok && r > 0 && !run.RequestRate.Known() {
			run.RequestRate = model.Num(r)
		}
		if n, ok := jsonx.Float(obj["number"]); ok && !run.NumPrompts.Known() {
			run.NumPrompts = model.Num(n)
		}
		args := map[string]any{}
		for _, k := range []string{"url", "max_tokens", "min_tokens", "max_prompt_length", "min_prompt_length", "prefix_length",
			"stream", "warmup_num", "seed", "temperature", "top_p", "extra_args", "apply_chat_template"} {
			if x, ok := obj[k]; ok && x != nil {
				args[k] = x
			}
		}
		if len(args) > 0 {
			setExtra(run, "benchmark_args", args)
		}
		if w, ok := jsonx.Float(obj["warmup_num"]); ok && w > 0 && run.ToolWarmup == nil {
			run.ToolWarmup = &model.Warmup{Requests: int(max(w, 1)), Setting: fmt.Sprintf("--warmup-num %s: EvalScope leaves its warm-up requests out of every file", model.Plain(w))}
		}
	}
	return format.Parsed{Part: &format.Part{Tool: toolEvalScope, Fill: fill, What: "EvalScope's benchmark_args.json"}}, nil
}

// IsEvalScopeDB sniffs benchmark_data.db: an SQLite file whose schema creates the result
// table with EvalScope's first_chunk_latency column.
func IsEvalScopeDB(f *format.File) bool {
	if !sqlitero.Is(f.Data) {
		return false
	}
	head := sqlitero.Schema(f.Data)
	return bytes.Contains(head, []byte("first_chunk_latency")) && bytes.Contains(head, []byte("completion_tokens"))
}

// ReadEvalScopeDB reads the per-request rows of benchmark_data.db (seconds in every era;
// v1.0 kept absolute chunk times in chunk_times, later versions the gaps in
// inter_token_latencies), streamed row by row from a read-only copy.
func ReadEvalScopeDB(f *format.File) (format.Parsed, error) {
	db, done, err := sqlitero.Open(f)
	if err != nil {
		return format.Parsed{}, err
	}
	defer done()
	cols, err := sqlitero.Columns(db, "result")
	if err != nil {
		return format.Parsed{}, err
	}
	if len(cols) == 0 {
		return format.Parsed{}, fmt.Errorf("an SQLite file without EvalScope's result table")
	}
	gaps := "inter_token_latencies"
	absolute := false
	if !cols[gaps] && cols["chunk_times"] {
		gaps, absolute = "chunk_times", true
	}
	pick := func(c string) string {
		if cols[c] {
			return c
		}
		return "NULL"
	}
	errCol := pick("response_messages")
	query := "SELECT " + strings.Join([]string{pick("start_time"), pick(gaps), pick("success"), pick("latency"), pick("first_chunk_latency"),
		pick("prompt_tokens"), pick("completion_tokens"), pick("time_per_output_token"),
		"CASE WHEN " + pick("success") + " THEN NULL ELSE substr(" + errCol + ", 1, 300) END"}, ", ") +
		" FROM result ORDER BY " + pick("start_time") + ", rowid"
	rows, err := db.Query(query)
	if err != nil {
		return format.Parsed{}, fmt.Errorf("reading the result table: %w", err)
	}
	defer rows.Close()
	part := &format.Part{Tool: toolEvalScope, What: "EvalScope's per-request records (benchmark_data.db)"}
	for n := 1; rows.Next(); n++ {
		var start, lat, ttft, tpot sql.NullFloat64
		var chunks, msg sql.NullString
		var ok, in, out sql.NullInt64
		if err := rows.Scan(&start, &chunks, &ok, &lat, &ttft, &in, &out, &tpot, &msg); err != nil {
			return format.Parsed{}, &position.Error{File: f.Name, Line: n, Offset: -1, Err: fmt.Errorf("row %d of result: %w", n, err)}
		}
		r := model.Request{InputLen: -1, OutputLen: -1, TTFT: math.NaN(), TPOT: math.NaN(), Latency: math.NaN(), Start: start.Float64}
		if in.Valid {
			r.InputLen = int(in.Int64)
		}
		if out.Valid {
			r.OutputLen = int(out.Int64)
		}
		if ttft.Valid {
			r.TTFT = ttft.Float64
		}
		if lat.Valid {
			r.Latency = lat.Float64
		}
		if tpot.Valid {
			r.TPOT = tpot.Float64
		}
		if chunks.Valid && chunks.String != "" {
			var xs []float64
			if err := json.Unmarshal([]byte(chunks.String), &xs); err != nil {
				return format.Parsed{}, fmt.Errorf("row %d of result: %s is not a JSON list of numbers: %v", n, gaps, err)
			}
			if absolute {
				for i := 1; i < len(xs); i++ {
					r.ITL = append(r.ITL, xs[i]-xs[i-1])
				}
			} else {
				r.ITL = xs
			}
		}
		if !ok.Valid || ok.Int64 == 0 {
			r.Error = "failed"
			if msg.Valid && strings.TrimSpace(msg.String) != "" {
				r.Error = "failed: " + strings.TrimSpace(msg.String)
			}
		}
		part.Requests = append(part.Requests, r)
	}
	if err := rows.Err(); err != nil {
		return format.Parsed{}, fmt.Errorf("reading the result table: %w", err)
	}
	return format.Parsed{Part: part}, nil
}

// IsEvalScopeSweepSummary sniffs performance_summary.txt, the table EvalScope prints over a
// sweep's points.
func IsEvalScopeSweepSummary(f *format.File) bool { return f.Base() == "performance_summary.txt" }

// EvalScopeSweepSummaryWhy says what the sweep's table is.
const EvalScopeSweepSummaryWhy = "EvalScope's table over the sweep's points: each parallel_<P>_number_<N>/ (or rate_<R>_number_<N>/) folder is a run"

// decodeObject decodes a file that is one JSON object; another value is not the format.
func decodeObject(f *format.File) (map[string]any, error) {
	v, err := jsonx.NewDecoder(f.Data).Decode()
	if err != nil {
		return nil, err
	}
	obj := jsonx.Object(v)
	if obj == nil {
		return nil, format.ErrUnrecognized
	}
	return obj, nil
}
