package result

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"sort"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/model"
)

// AISBench (`ais_bench --mode perf`, more-formats.md 3.1) writes, per model config and
// dataset, performances/<model_abbr>/<dataset_abbr>.json (the run-level "common" metrics:
// the run), <dataset_abbr>.csv (statistics over the requests: a part completing it) and
// <dataset_abbr>_details.jsonl (one line per request, whose time points sit in the SQLite
// numpy store db_data/<db_name>: the per-request records). Its values are strings carrying a
// unit ("12300.2 ms", "41.6 token/s"); latencies are ms in the files, computed in s. Each
// metric is given per stage: "total", or "stable" with the stable-stage summarizer.

const toolAISBench = "aisbench"

const eraAISBench era = "performances/<model>/<dataset>.csv|.json|_details.jsonl"

// aisbenchValue reads a value with its unit: "98409.4916 ms", "0.0813 req/s", 12, "41 token/s".
func aisbenchValue(v any) (float64, string, bool) {
	if s, ok := v.(string); ok {
		s = strings.TrimSpace(s)
		num, unit, _ := strings.Cut(s, " ")
		x, err := strconv.ParseFloat(num, 64)
		return x, strings.TrimSpace(unit), err == nil
	}
	x, ok := jsonx.Float(v)
	return x, "", ok
}

// aisbenchStage picks the stage a run's figures come from: "stable" when the stable-stage
// summarizer wrote it (what the user asked the tool for), else "total".
func aisbenchStage(stages map[string]bool) string {
	if stages["stable"] {
		return "stable"
	}
	if stages["total"] {
		return "total"
	}
	var names []string
	for s := range stages {
		names = append(names, s)
	}
	sort.Strings(names)
	if len(names) > 0 {
		return names[0]
	}
	return ""
}

// aisbenchNames is what a performances/<model_abbr>/<dataset_abbr>.* file's path says.
func aisbenchNames(name string) (modelAbbr, dataset string) {
	p := strings.ReplaceAll(name, `\`, "/")
	base := path.Base(p)
	dataset = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(base, ".jsonl"), ".json"), ".csv")
	dataset = strings.TrimSuffix(dataset, "_details")
	if dir := path.Dir(p); dir != "." && path.Base(path.Dir(dir)) == "performances" {
		modelAbbr = path.Base(dir)
	}
	return modelAbbr, dataset
}

// IsAISBenchJSON sniffs <dataset>.json: an object of per-stage metrics with Benchmark Duration.
func IsAISBenchJSON(f *format.File) bool {
	lead := f.Lead()
	return len(lead) > 0 && lead[0] == '{' && f.HeadQuotes("Benchmark Duration") &&
		(bytes.Contains(lead, []byte(`"total"`)) || bytes.Contains(lead, []byte(`"stable"`)))
}

// ReadAISBenchJSON reads <dataset>.json, the run-level metrics, into the run.
func ReadAISBenchJSON(f *format.File) (format.Parsed, error) {
	obj, err := decodeObject(f)
	if err != nil {
		return format.Parsed{}, err
	}
	stages := map[string]bool{}
	for k, x := range obj {
		m := jsonx.Object(x)
		if m == nil {
			return format.Parsed{}, fmt.Errorf("%q is %s, want an object of stages (total, stable)", k, describe(x))
		}
		for s := range m {
			stages[s] = true
		}
	}
	stage := aisbenchStage(stages)
	run := model.NewRun(toolAISBench)
	run.Era = eraAISBench
	run.IdentifiedBy = "metrics keyed by stage with Benchmark Duration (AISBench's performances/<model>/<dataset>.json)"
	var warnings []model.Warning
	get := func(keys ...string) (float64, string, bool) {
		for _, k := range keys {
			x, ok := jsonx.Object(obj[k])[stage]
			if !ok || x == nil {
				continue
			}
			val, unit, ok := aisbenchValue(x)
			if !ok {
				warnings = append(warnings, model.Warn(model.WarnNotNumber, k, stage, describe(x)))
				return 0, "", false
			}
			return val, unit, true
		}
		return 0, "", false
	}
	num := func(keys ...string) model.Num {
		if x, _, ok := get(keys...); ok {
			return model.Num(x)
		}
		return model.Unknown
	}
	if d, unit, ok := get("Benchmark Duration"); ok {
		if unit == "s" {
			d *= 1000
		}
		run.DurationS = model.Num(d / 1000)
	}
	run.NumPrompts = num("Total Requests")
	run.Failed = num("Failed Requests")
	run.Completed = num("Success Requests")
	run.MaxConcurrency = num("Max Concurrency")
	run.RequestThroughput = num("Request Throughput")
	run.TotalInputTokens = num("Total Input Tokens")
	run.TotalOutputTokens = num("Total Generated Tokens", "Total generated tokens", "Total Output Tokens")
	run.InputThroughput = num("Input Token Throughput")
	run.OutputThroughput = num("Output Token Throughput")
	run.TotalTokenThroughput = num("Total Token Throughput")
	if c := num("Concurrency"); c.Known() {
		setExtra(run, "mean_concurrency", c.F()) // ΣE2EL / duration: what the client saw, not the setting
	}
	if p := num("Prefill Token Throughput"); p.Known() {
		setExtra(run, "prefill_token_throughput", p.F())
	}
	known := map[string]bool{"Benchmark Duration": true, "Total Requests": true, "Failed Requests": true, "Success Requests": true,
		"Max Concurrency": true, "Request Throughput": true, "Total Input Tokens": true, "Total Generated Tokens": true,
		"Total generated tokens": true, "Total Output Tokens": true, "Input Token Throughput": true, "Output Token Throughput": true,
		"Total Token Throughput": true, "Concurrency": true, "Prefill Token Throughput": true}
	for k, x := range obj {
		if !known[k] {
			setExtra(run, k, jsonx.Object(x)[stage])
		}
	}
	aisbenchIdentity(run, f.Name, stage, stages)
	return format.Parsed{Runs: []*model.Run{run}, Warnings: warnings}, nil
}

// aisbenchIdentity fills what the path and the stage say, and what the files cannot say.
func aisbenchIdentity(run *model.Run, name, stage string, stages map[string]bool) {
	modelAbbr, dataset := aisbenchNames(name)
	if run.Dataset == "" {
		run.Dataset = dataset
	}
	if modelAbbr != "" && run.Backend == "" {
		run.Backend = modelAbbr // the model config's abbr (vllm-api-stream-chat): the API it drove
	}
	setExtra(run, "stage", stage)
	if len(stages) > 1 {
		setExtra(run, "stages_in_file", len(stages))
	}
	run.Definitions = map[string]string{
		model.TTFT: "per request, the first token's time point minus the request's (AISBench)",
		model.TPOT: "per request, (E2EL - TTFT) / (output tokens - 1) (AISBench)",
		model.ITL:  "every gap between time points after the first token, pooled over the requests (AISBench)",
		model.E2EL: "per successful request, its last time point minus its first",
	}
}

// IsAISBenchCSV sniffs <dataset>.csv by its first two header cells.
func IsAISBenchCSV(f *format.File) bool {
	return bytes.HasPrefix(f.Lead(), []byte("Performance Parameters,Stage,"))
}

// aisbenchCSVStat names a statistic column: Average is mean, P75 p75.
func aisbenchCSVStat(col string) (string, bool) {
	c := strings.TrimSpace(col)
	switch c {
	case "Average":
		return "mean", true
	case "Min", "Max", "Median":
		return strings.ToLower(c), true
	}
	if len(c) > 1 && (c[0] == 'P' || c[0] == 'p') {
		if p, err := strconv.Atoi(c[1:]); err == nil && p >= 1 && p <= 99 {
			if p == 50 {
				return "median", true
			}
			return "p" + strconv.Itoa(p), true
		}
	}
	return "", false
}

// aisbenchMetric files a CSV row: the four latencies (ms) are statistics, the rest kept.
var aisbenchMetric = map[string]string{"E2EL": model.E2EL, "TTFT": model.TTFT, "TPOT": model.TPOT, "ITL": model.ITL}

// ReadAISBenchCSV reads <dataset>.csv, the statistics over the requests, into a part that
// completes the run of <dataset>.json (or is one of its own).
func ReadAISBenchCSV(f *format.File) (format.Parsed, error) {
	r := csv.NewReader(bytes.NewReader(f.Data))
	r.FieldsPerRecord = -1
	header, err := r.Read()
	if err != nil {
		return format.Parsed{}, err
	}
	type cell struct {
		metric, stat string
		v            float64
	}
	byStage := map[string][]cell{}
	other := map[string]map[string]map[string]any{} // stage → row → stat → value
	stages := map[string]bool{}
	var warnings []model.Warning
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return format.Parsed{}, &position.Error{File: f.Name, Line: pe.Line, Offset: -1, Err: pe.Err}
			}
			return format.Parsed{}, err
		}
		line, _ := r.FieldPos(0)
		if len(rec) < 2 || strings.TrimSpace(rec[0]) == "" {
			continue
		}
		row, stage := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		stages[stage] = true
		for i := 2; i < len(rec) && i < len(header); i++ {
			if strings.TrimSpace(rec[i]) == "" {
				continue
			}
			x, unit, ok := aisbenchValue(rec[i])
			if !ok {
				return format.Parsed{}, &position.Error{File: f.Name, Line: line, Offset: -1,
					Err: fmt.Errorf("%s, column %q: %q is not a number with a unit", row, header[i], rec[i])}
			}
			col := strings.TrimSpace(header[i])
			metric, isLatency := aisbenchMetric[row]
			stat, isStat := aisbenchCSVStat(col)
			switch {
			case isLatency && isStat:
				switch unit {
				case "ms", "":
				case "s":
					x *= 1000
				case "us":
					x /= 1000
				default:
					warnings = append(warnings, model.Warn(model.WarnNoTimeUnit, line, row, col, strconv.Quote(unit)))
					continue
				}
				byStage[stage] = append(byStage[stage], cell{metric, stat, x})
			default:
				if other[stage] == nil {
					other[stage] = map[string]map[string]any{}
				}
				if other[stage][row] == nil {
					other[stage][row] = map[string]any{}
				}
				key := col
				if isStat {
					key = stat
				}
				other[stage][row][key] = x
			}
		}
	}
	stage := aisbenchStage(stages)
	if stage == "" {
		return format.Parsed{}, errors.New("no statistics rows under its header")
	}
	cells, rest := byStage[stage], other[stage]
	_, dataset := aisbenchNames(f.Name)
	fill := func(run *model.Run) {
		for _, c := range cells {
			run.SetStat(c.metric, c.stat, c.v)
		}
		for row, stats := range rest {
			setExtra(run, "per_request_"+row, stats)
		}
		if run.Era == "" {
			run.Era = eraAISBench
			aisbenchIdentity(run, f.Name, stage, stages)
		}
	}
	return format.Parsed{Part: &format.Part{Tool: toolAISBench, Stem: dataset + ".", Fill: fill, What: "AISBench's statistics table (" + path.Base(f.Name) + ")"},
		Warnings: warnings}, nil
}

// IsAISBenchDetails sniffs <dataset>_details.jsonl: JSON lines with AISBench's data_abbr,
// time_points and db_name keys.
func IsAISBenchDetails(f *format.File) bool {
	lead := f.Lead()
	return len(lead) > 0 && lead[0] == '{' && f.HeadQuotes("data_abbr") && bytes.Contains(lead, []byte(`"time_points"`))
}

// aisbenchRecord is one line of _details.jsonl, its time points inline or in the numpy store.
type aisbenchRecord struct {
	ok      bool
	in, out int
	points  []float64
	ref     int64 // the numpy store's row, -1 when inline or none
	db      string
	err     string
}

// ReadAISBenchDetails reads <dataset>_details.jsonl into per-request records. Their time
// points are references into db_data/<db_name> (AISBench keeps numpy arrays there), which the
// part resolves from the bundle before it joins its run.
func ReadAISBenchDetails(f *format.File) (format.Parsed, error) {
	if dir := path.Dir(strings.ReplaceAll(f.Name, `\`, "/")); path.Base(dir) == "tmp" && path.Base(path.Dir(path.Dir(dir))) == "performances" {
		return format.Parsed{Why: "AISBench's partial records in performances/<model>/tmp/, left by a run that did not finish: no run"}, nil
	}
	dec := jsonx.NewDecoder(f.Data)
	dec.SkipKeys = map[string]bool{"input": true, "prediction": true, "origin_prompt": true}
	dec.MaxString = maxString
	var recs []aisbenchRecord
	dbs := map[string]bool{}
	for n := 1; dec.More(); n++ {
		start := dec.Offset()
		v, err := dec.Decode()
		if err != nil {
			return format.Parsed{}, err
		}
		o := jsonx.Object(v)
		if o == nil {
			line := 1 + bytes.Count(f.Data[:start], []byte{'\n'})
			return format.Parsed{}, &position.Error{File: f.Name, Line: line, Offset: start, Err: fmt.Errorf("%s, want a request object", describe(v))}
		}
		rec := aisbenchRecord{ok: o["success"] == true, in: -1, out: -1, ref: -1, db: path.Base(jsonx.Str(o["db_name"]))} // a name in db_data/, never a path out of it
		if x, ok := jsonx.Float(o["input_tokens"]); ok && x > 0 {
			rec.in = int(x)
		}
		if x, ok := jsonx.Float(o["output_tokens"]); ok {
			rec.out = int(x)
		}
		switch tp := o["time_points"].(type) {
		case []any:
			rec.points, _ = jsonx.Floats(tp)
		case map[string]any:
			if id, ok := jsonx.Int(tp["__db_ref__"]); ok {
				rec.ref = id
				if rec.db != "" && rec.db != "." && rec.db != "/" {
					dbs[rec.db] = true
				}
			}
		}
		if !rec.ok {
			rec.err = "failed"
			if e := o["error_info"]; e != nil {
				rec.err = "failed: " + strings.TrimSpace(fmt.Sprint(jsonx.Plain(e)))
			}
		}
		recs = append(recs, rec)
	}
	_, dataset := aisbenchNames(f.Name)
	part := &format.Part{Tool: toolAISBench, Stem: dataset + ".", What: "AISBench's per-request records (" + path.Base(f.Name) + ")"}
	for db := range dbs {
		part.Refs = append(part.Refs, "db_data/"+db)
	}
	sort.Strings(part.Refs)
	part.Resolve = func(files map[string][]byte) []model.Warning {
		points := map[string]map[int64][]float64{}
		var warnings []model.Warning
		for _, ref := range part.Refs {
			data := files[ref]
			if data == nil {
				warnings = append(warnings, model.Warn(model.WarnTimePointsGone, ref))
				continue
			}
			arrays, err := readNumpyStore(ref, data)
			if err != nil {
				warnings = append(warnings, model.Warn(model.WarnPartUnread, err))
				continue
			}
			points[path.Base(ref)] = arrays
		}
		part.Requests = aisbenchRequests(recs, points)
		if part.Requests == nil && len(recs) > 0 {
			warnings = append(warnings, model.Warn(model.WarnNoTimePoints, len(recs)))
		}
		return warnings
	}
	part.Requests = aisbenchRequests(recs, nil)
	return format.Parsed{Part: part}, nil
}

// aisbenchRequests turns records into requests by the tool's own definitions
// (_calc_perf_data); nil when a successful record's time points are not at hand, since
// requests without times would only mislead a recomputation.
func aisbenchRequests(recs []aisbenchRecord, store map[string]map[int64][]float64) []model.Request {
	out := make([]model.Request, 0, len(recs))
	for _, rec := range recs {
		r := model.Request{InputLen: rec.in, OutputLen: rec.out, TTFT: math.NaN(), TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), Error: rec.err}
		tp := rec.points
		if rec.ref >= 0 {
			tp = store[rec.db][rec.ref]
		}
		if rec.ok && len(tp) < 2 {
			return nil
		}
		if len(tp) >= 2 {
			r.Start = tp[0]
			r.Latency = tp[len(tp)-1] - tp[0]
		}
		if len(tp) >= 3 {
			r.TTFT = tp[1] - tp[0]
			for i := 2; i < len(tp); i++ {
				r.ITL = append(r.ITL, tp[i]-tp[i-1])
			}
			if rec.out > 1 {
				r.TPOT = (r.Latency - r.TTFT) / float64(rec.out-1)
			}
		}
		out = append(out, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}
