package result

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/importers/position"
	"benchlens/model"
)

// MLPerf Inference LoadGen's performance logs (more-formats.md G4): mlperf_log_summary.txt, text
// blocks of `key : value` lines, and mlperf_log_detail.txt, one `:::MLLOG {json}` event per
// line. LoadGen keeps no per-request records, only its aggregates; latencies are ns. The model,
// the system and the scenario directory are in the submission's path:
// <division>/<submitter>/results/<system>/<benchmark>/<scenario>/performance/run_1/.

const toolMLPerf = "mlperf-loadgen"

// IsMLPerfSummary sniffs mlperf_log_summary.txt by its title block.
func IsMLPerfSummary(f *format.File) bool {
	return bytes.Contains(f.Lead()[:min(len(f.Lead()), 4096)], []byte("MLPerf Results Summary"))
}

// IsMLPerfDetail sniffs mlperf_log_detail.txt: its first line is a :::MLLOG event.
func IsMLPerfDetail(f *format.File) bool { return bytes.HasPrefix(f.Lead(), []byte(":::MLLOG {")) }

// mlperfPath is what the submission's folders say of a run.
type mlperfPath struct {
	division, submitter, system, benchmark, scenario, mode string
}

// mlperfBenchmark names an LLM benchmark id in a file or SUT name when the path does not.
var mlperfBenchmark = regexp.MustCompile(`(?i)(llama2-70b(?:-99(?:\.9)?)?|llama3[._]1-(?:405b|8b)(?:-99(?:\.9)?)?|mixtral-8x7b|deepseek-r1|gptj(?:-99(?:\.9)?)?|llama2-7b)`)

func mlperfPathOf(name string) mlperfPath {
	parts := strings.Split(strings.ReplaceAll(name, `\`, "/"), "/")
	var p mlperfPath
	for i, s := range parts {
		if s != "results" || i+3 >= len(parts) {
			continue
		}
		p.system, p.benchmark, p.scenario = parts[i+1], parts[i+2], parts[i+3]
		if i+4 < len(parts)-1 {
			p.mode = parts[i+4] // performance, accuracy, compliance test
		}
		if i >= 2 {
			p.division, p.submitter = parts[i-2], parts[i-1]
		}
	}
	return p
}

// mlperfKV splits a summary line on its first colon; keys and values are trimmed.
func mlperfKV(line string) (string, string, bool) {
	k, v, ok := strings.Cut(line, ":")
	if !ok {
		return "", "", false
	}
	return strings.TrimSpace(k), strings.TrimSpace(v), true
}

// mlperfPercentile reads "50.00 percentile first token latency (ns)" into the statistic p50
// and the rest of the key.
var mlperfPercentile = regexp.MustCompile(`^(\d+(?:\.\d+)?) percentile (.+)$`)

// mlperfStatName names a percentile as the other tools do: 50 → median, 99.90 → p99.9.
func mlperfStatName(pct string) string {
	f, err := strconv.ParseFloat(pct, 64)
	if err != nil {
		return "p" + pct
	}
	if f == 50 {
		return "median"
	}
	return "p" + strconv.FormatFloat(f, 'f', -1, 64)
}

// mlperfLatency files a latency key of the summary under its metric: "... latency (ns)" is
// the sample's end to end, "first token latency" TTFT, "time to output token" TPOT.
func mlperfLatency(what string) (string, bool) {
	w := strings.ToLower(strings.TrimSuffix(strings.TrimSpace(what), "(ns)"))
	w = strings.TrimSpace(w)
	switch w {
	case "latency":
		return model.E2EL, true
	case "first token latency":
		return model.TTFT, true
	case "time to output token":
		return model.TPOT, true
	}
	return "", false
}

// ReadMLPerfSummary reads mlperf_log_summary.txt into a run.
func ReadMLPerfSummary(f *format.File) (format.Parsed, error) {
	run := model.NewRun(toolMLPerf)
	run.Era = "LoadGen summary"
	run.IdentifiedBy = "MLPerf Results Summary block"
	kv := map[string]string{}
	var params, notes []string
	section := ""
	lines := strings.Split(strings.ReplaceAll(string(f.Data), "\r\n", "\n"), "\n")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			continue
		case strings.Trim(t, "=") == "":
			continue
		case t == "MLPerf Results Summary", t == "Additional Stats", t == "Test Parameters Used":
			section = t
			continue
		case strings.HasPrefix(t, "* "):
			continue // an early-stopping result line, under its heading
		case strings.HasPrefix(t, "WARNING") || strings.HasSuffix(t, "encountered during test.") || strings.Contains(t, "encountered. See detailed log"):
			if !strings.HasPrefix(t, "No ") {
				notes = append(notes, t)
			}
			continue
		}
		k, v, ok := mlperfKV(t)
		if !ok {
			if section == "Test Parameters Used" && len(notes) > 0 && strings.HasPrefix(notes[len(notes)-1], "WARNING") {
				notes[len(notes)-1] += " " + t // a WARNING paragraph of v5.1
			}
			continue
		}
		if _, seen := kv[k]; seen {
			continue // "Completed tokens per second" is printed twice
		}
		kv[k] = v
		if section == "Test Parameters Used" {
			params = append(params, k)
		}
		if err := mlperfStat(run, k, v); err != nil {
			return format.Parsed{}, &position.Error{File: f.Name, Line: i + 1, Offset: -1, Err: err}
		}
	}
	if kv["Scenario"] == "" && kv["Result is"] == "" {
		return format.Parsed{}, format.ErrUnrecognized
	}
	num := func(k string) model.Num {
		v, err := strconv.ParseFloat(kv[k], 64)
		if err != nil {
			return model.Unknown
		}
		return model.Num(v)
	}
	scenario := kv["Scenario"]
	run.RequestThroughput = firstKnown(num("Completed samples per second"), num("Samples per second"))
	run.OutputThroughput = firstKnown(num("Completed tokens per second"), num("Tokens per second"))
	mlperfCommon(run, f.Name, scenario, kv["SUT name"], kv["Mode"], num("target_qps"), num("samples_per_query"))
	if x := num("Scheduled samples per second"); x.Known() {
		setExtra(run, "scheduled_samples_per_second", float64(x))
	}
	for _, k := range params {
		if x := num(k); x.Known() && math.Abs(x.F()) < 1<<53 {
			setExtra(run, paramKey(k), float64(x))
		} else {
			setExtra(run, paramKey(k), kv[k])
		}
	}
	if spq := num("samples_per_query"); strings.EqualFold(scenario, "offline") && spq.Known() {
		run.NumPrompts, run.Completed = spq, spq // one query of every sample
	}
	mlperfValidity(run, kv["Result is"], map[string]string{
		"Performance constraints satisfied": kv["Performance constraints satisfied"], "Min duration satisfied": kv["Min duration satisfied"],
		"Min queries satisfied": kv["Min queries satisfied"], "Early stopping satisfied": kv["Early stopping satisfied"]})
	for _, n := range notes {
		run.Warnings = append(run.Warnings, model.Warn(model.WarnLoadGenNote, n))
	}
	return format.Parsed{Runs: []*model.Run{run}}, nil
}

// paramKey is the Extra key of a Test Parameters line: "min_duration (ms)" → min_duration_ms.
func paramKey(k string) string {
	base, unit, ok := strings.Cut(k, " (")
	if !ok {
		return base
	}
	return base + "_" + strings.TrimSuffix(unit, ")")
}

// mlperfStat files one latency line of the summary (ns) as a statistic in ms.
func mlperfStat(run *model.Run, k, v string) error {
	what, stat := k, ""
	switch {
	case strings.HasPrefix(k, "Min "):
		what, stat = k[4:], "min"
	case strings.HasPrefix(k, "Max "):
		what, stat = k[4:], "max"
	case strings.HasPrefix(k, "Mean "):
		what, stat = k[5:], "mean"
	default:
		m := mlperfPercentile.FindStringSubmatch(k)
		if m == nil {
			return nil
		}
		what, stat = m[2], mlperfStatName(m[1])
	}
	metric, ok := mlperfLatency(what)
	if !ok || !strings.HasSuffix(k, "(ns)") {
		return nil
	}
	ns, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(ns) || math.IsInf(ns, 0) {
		return fmt.Errorf("%q: %q is not a time in ns", k, v)
	}
	run.SetStat(metric, stat, ns/1e6)
	return nil
}

func firstKnown(xs ...model.Num) model.Num {
	for _, x := range xs {
		if x.Known() {
			return x
		}
	}
	return model.Unknown
}

// mlperfCommon sets what the summary and the detail log share: the benchmark and system from
// the path (else the SUT name), the scenario (an Interactive folder prints Server), the load
// point (Server's target QPS; Offline sends every sample at once) and the definitions.
func mlperfCommon(run *model.Run, name, scenario, sut, mode string, targetQPS, samplesPerQuery model.Num) {
	p := mlperfPathOf(name)
	run.Model = p.benchmark
	if run.Model == "" {
		run.Model = mlperfBenchmark.FindString(path.Base(name))
	}
	if run.Model == "" {
		run.Model = strings.ToLower(mlperfBenchmark.FindString(sut))
	}
	for k, v := range map[string]string{"mlperf_division": p.division, "mlperf_submitter": p.submitter, "mlperf_system": p.system,
		"mlperf_scenario_folder": p.scenario, "mlperf_mode_folder": p.mode, "sut_name": sut, "mode": mode, "scenario": scenario} {
		if v != "" {
			setExtra(run, k, v)
		}
	}
	effective := scenario
	if strings.EqualFold(p.scenario, "Interactive") && strings.EqualFold(scenario, "Server") {
		effective = "Interactive"
		run.Warnings = append(run.Warnings, model.Warn(model.WarnMLPerfInteractive))
	}
	if effective != "" {
		setExtra(run, "mlperf_scenario", effective)
	}
	if targetQPS.Known() {
		setExtra(run, "target_qps", float64(targetQPS))
	}
	switch strings.ToLower(scenario) {
	case "server":
		run.RequestRate = targetQPS // Poisson arrivals at the target QPS: the load point
	case "offline":
		run.RequestRate = model.Num(math.Inf(1)) // every sample in one query
		run.Warnings = appendOnce(run.Warnings, model.Warn(model.WarnMLPerfOfflineTimes))
	}
	if samplesPerQuery.Known() && strings.EqualFold(scenario, "offline") {
		setExtra(run, "samples_per_query", float64(samplesPerQuery))
	}
	run.Definitions = map[string]string{
		model.E2EL: "per sample, from the query's issue to its completion (LoadGen; Offline: one query holds every sample)",
		model.TTFT: "per sample, from the query's issue to the SUT's first-token report (LoadGen first_token_latencies)",
		model.TPOT: "per sample, LoadGen's time per output token after the first (time_per_output_token_arr; its formula not read here)",
	}
	if strings.EqualFold(scenario, "offline") {
		delete(run.Definitions, model.TTFT)
		delete(run.Definitions, model.TPOT)
	}
}

func appendOnce(ws []model.Warning, w model.Warning) []model.Warning {
	for _, x := range ws {
		if x.Code == w.Code && slices.Equal(x.Args, w.Args) {
			return ws
		}
	}
	return append(ws, w)
}

// mlperfValidity turns "Result is : INVALID" into the warning the verdict shows, naming the
// constraints LoadGen found unmet.
func mlperfValidity(run *model.Run, validity string, checks map[string]string) {
	if validity != "" {
		setExtra(run, "result_validity", validity)
	}
	if !strings.EqualFold(validity, "INVALID") {
		return
	}
	var unmet []string
	for _, k := range []string{"Performance constraints satisfied", "Min duration satisfied", "Min queries satisfied", "Early stopping satisfied"} {
		if strings.EqualFold(checks[k], "No") || checks[k] == "false" {
			unmet = append(unmet, k+": No")
		}
	}
	why := "MLPerf LoadGen result INVALID"
	if len(unmet) > 0 {
		why += " (" + strings.Join(unmet, "; ") + ")"
	}
	run.Warnings = appendOnce(run.Warnings, model.Warn(model.WarnToolInvalid, why))
}

// ReadMLPerfDetail reads mlperf_log_detail.txt: a part that completes the summary beside it
// (the LoadGen version, the test date, the served count, its flagged events), or a run of its
// own when the summary is missing (every result_* figure is in it too).
func ReadMLPerfDetail(f *format.File) (format.Parsed, error) {
	ev := map[string]any{}
	var flagged []model.Warning
	line := 0
	for rest := f.Data; len(rest) > 0; {
		var l []byte
		l, rest, _ = bytes.Cut(rest, []byte("\n"))
		line++
		l = bytes.TrimSpace(l)
		j, ok := bytes.CutPrefix(l, []byte(":::MLLOG "))
		if !ok {
			continue
		}
		d := jsonx.NewDecoder(j)
		d.MaxString = maxString
		v, err := d.Decode()
		if err != nil {
			return format.Parsed{}, &position.Error{File: f.Name, Line: line, Offset: -1, Err: fmt.Errorf("a :::MLLOG event that is no JSON: %w", err)}
		}
		obj := jsonx.Object(v)
		key := jsonx.Str(obj["key"])
		if key == "" {
			continue
		}
		meta := jsonx.Object(obj["metadata"])
		if meta["is_error"] == true || meta["is_warning"] == true {
			code := model.WarnLoadGenWarning
			if meta["is_error"] == true {
				code = model.WarnLoadGenError
			}
			flagged = append(flagged, model.Warn(code, line, key, jsonx.Plain(obj["value"])))
		}
		if key == "loaded_qsl_set" || key == "loadgen_file_sha1" || key == "loadgen_git_log_message" {
			continue // large and of no use here
		}
		if _, seen := ev[key]; !seen {
			ev[key] = obj["value"]
		}
	}
	if len(ev) == 0 {
		return format.Parsed{}, format.ErrUnrecognized
	}
	name := f.Name
	fill := func(run *model.Run) { mlperfDetailFill(run, name, ev, flagged) }
	return format.Parsed{Part: &format.Part{Tool: toolMLPerf, Stem: "mlperf_log", Fill: fill, What: "the LoadGen detail log"}}, nil
}

// mlperfDetailFill completes a run from the detail log's events; what the summary set stays.
func mlperfDetailFill(run *model.Run, name string, ev map[string]any, flagged []model.Warning) {
	num := func(k string) model.Num {
		x, ok := jsonx.Float(ev[k])
		if !ok {
			return model.Unknown
		}
		return model.Num(x)
	}
	run.ToolVersion = jsonx.Str(ev["loadgen_version"])
	if v, _, _ := strings.Cut(run.ToolVersion, " "); v != "" {
		run.Era = model.Era("LoadGen " + v)
	}
	if d := jsonx.Str(ev["test_datetime"]); d != "" {
		run.Date = d
	}
	scenario := jsonx.Str(ev["effective_scenario"])
	spq := num("effective_samples_per_query")
	queries := num("result_query_count")
	if queries.Known() {
		samples := queries
		if spq.Known() && strings.EqualFold(scenario, "offline") {
			samples = queries * spq
		}
		if !run.Completed.Known() {
			run.Completed = samples
		}
		if !run.NumPrompts.Known() {
			run.NumPrompts = samples
		}
		setExtra(run, "result_query_count", float64(queries))
	}
	if n := num("num_errors"); n.Known() && !run.Failed.Known() {
		run.Failed = n
	}
	if _, fromSummary := run.Extra["mlperf_scenario"]; !fromSummary {
		run.IdentifiedBy = "MLPerf LoadGen :::MLLOG detail events"
		run.RequestThroughput = firstKnown(num("result_completed_samples_per_sec"), num("result_samples_per_second"))
		run.OutputThroughput = firstKnown(num("result_completed_tokens_per_second"), num("result_tokens_per_second"))
		mlperfCommon(run, name, scenario, jsonx.Str(ev["sut_name"]), jsonx.Str(ev["effective_test_mode"]), num("effective_target_qps"), spq)
		for k := range ev {
			if metric, stat, ok := mlperfDetailStat(k); ok {
				if x := num(k); x.Known() {
					run.SetStat(metric, stat, x.F()/1e6)
				}
			}
		}
		checks := map[string]string{}
		for k, key := range map[string]string{"Performance constraints satisfied": "result_perf_constraints_met",
			"Min duration satisfied": "result_min_duration_met", "Min queries satisfied": "result_min_queries_met",
			"Early stopping satisfied": "early_stopping_met"} {
			if b, ok := ev[key].(bool); ok && !b {
				checks[k] = "No"
			}
		}
		mlperfValidity(run, jsonx.Str(ev["result_validity"]), checks)
	}
	for _, k := range []string{"qsl_reported_total_count", "effective_min_duration_ms", "requested_server_ttft_latency",
		"requested_server_tpot_latency", "generated_query_count", "generated_query_duration", "result_scheduled_samples_per_sec",
		"result_token_throughput_with_loadgen_overhead", "effective_target_latency_ns", "num_errors"} {
		if x := num(k); x.Known() {
			setExtra(run, k, float64(x))
		}
	}
	for _, k := range []string{"power_begin", "power_end", "effective_test_mode"} {
		if v := jsonx.Str(ev[k]); v != "" {
			setExtra(run, k, v)
		}
	}
	for _, w := range flagged {
		run.Warnings = appendOnce(run.Warnings, w)
	}
}

// mlperfDetailKey reads a detail log's result key: result_50.00_percentile_latency_ns,
// result_first_token_mean_latency_ns, result_time_per_output_token_99.00_percentile_ns,
// result_time_to_output_token_min (no _ns, still ns).
var mlperfDetailKey = regexp.MustCompile(`^result_(first_token_|time_per_output_token_|time_to_output_token_)?(min|max|mean|\d+(?:\.\d+)?_percentile)(?:_latency)?(?:_ns)?$`)

func mlperfDetailStat(k string) (metric, stat string, ok bool) {
	m := mlperfDetailKey.FindStringSubmatch(k)
	if m == nil {
		return "", "", false
	}
	switch m[1] {
	case "":
		metric = model.E2EL
	case "first_token_":
		metric = model.TTFT
	default:
		metric = model.TPOT
	}
	stat = m[2]
	if pct, ok := strings.CutSuffix(stat, "_percentile"); ok {
		stat = mlperfStatName(pct)
	}
	return metric, stat, true
}

// IsMLPerfSystem sniffs a submission's systems/<system>.json: an object describing the
// accelerators and the system.
func IsMLPerfSystem(f *format.File) bool {
	lead := f.Lead()
	return len(lead) > 0 && lead[0] == '{' && f.HeadQuotes("accelerator_model_name") &&
		(bytes.Contains(lead, []byte(`"system_name"`)) || bytes.Contains(lead, []byte(`"accelerators_per_node"`)))
}

// MLPerfSystemApplies says whether a system description belongs to a run: the submission's
// runs sit under results/<system>/, named as the file is; a run outside that layout takes it.
func MLPerfSystemApplies(file, result string) bool {
	system := strings.TrimSuffix(path.Base(strings.ReplaceAll(file, `\`, "/")), ".json")
	p := mlperfPathOf(result)
	return p.system == "" || p.system == system
}

// mlperfSystemFacts are the keys of a system description read as fingerprint facts.
var mlperfSystemFacts = []struct{ key, fact string }{
	{"accelerator_model_name", model.FactDeviceModel},
	{"accelerator_memory_capacity", model.FactDeviceMemory},
	{"accelerator_interconnect", model.FactInterconnect},
	{"host_processor_model_name", model.FactCPU},
}

// mlperfDriver finds the driver in the software stack text ("…, Driver 550.54.15, DALI 1.28.0").
var mlperfDriver = regexp.MustCompile(`(?i)\bdriver[ :]+(\d+\.\d+(?:\.\d+)?)`)

// ReadMLPerfSystem reads a system description into environment evidence: the accelerators'
// model, count (per node × nodes), memory and interconnect, the host CPU, the driver from the
// software stack, and the framework as the base stack, each with its line.
func ReadMLPerfSystem(f *format.File) (format.Parsed, error) {
	v, err := jsonx.NewDecoder(f.Data).Decode()
	if err != nil {
		return format.Parsed{}, position.InFile(f.Name, err)
	}
	obj := jsonx.Object(v)
	if obj == nil {
		return format.Parsed{}, &position.Error{File: f.Name, Offset: 0, Err: fmt.Errorf("not a JSON object")}
	}
	lineOf := func(key string) int {
		i := bytes.Index(f.Data, []byte(`"`+key+`"`))
		if i < 0 {
			return 0
		}
		return 1 + bytes.Count(f.Data[:i], []byte("\n"))
	}
	env := &model.EnvEvidence{Tool: "MLPerf system description", Facts: map[string]model.Line{}}
	for _, m := range mlperfSystemFacts {
		if s := strings.TrimSpace(fmt.Sprint(jsonx.Plain(obj[m.key]))); obj[m.key] != nil && s != "" {
			env.Facts[m.fact] = model.Line{N: lineOf(m.key), Text: s}
		}
	}
	if per, ok := jsonx.Float(obj["accelerators_per_node"]); ok && per > 0 {
		nodes, ok := jsonx.Float(obj["number_of_nodes"])
		if !ok || nodes < 1 {
			nodes = 1
		}
		env.Facts[model.FactDeviceCount] = model.Line{N: lineOf("accelerators_per_node"), Text: strconv.FormatFloat(per*nodes, 'f', -1, 64)}
	}
	stack := jsonx.Str(obj["other_software_stack"])
	if m := mlperfDriver.FindStringSubmatch(stack); m != nil {
		env.Facts[model.FactDriver] = model.Line{N: lineOf("other_software_stack"), Text: m[1]}
	}
	ev := &model.Evidence{Environment: env, Format: env.Tool}
	if fw := strings.TrimSpace(jsonx.Str(obj["framework"])); fw != "" {
		ev.Facts = &model.Facts{BaseStackVersion: fw, Source: fmt.Sprintf("framework, line %d", lineOf("framework"))}
	}
	return format.Parsed{Evidence: ev}, nil
}

// IsMLPerfAccuracy sniffs LoadGen's accuracy log by its name: an array of the samples' outputs
// in an accuracy run, empty ("[", "]") in a performance run.
func IsMLPerfAccuracy(f *format.File) bool { return f.NameEnds("mlperf_log_accuracy.json") }

// MLPerfAccuracyWhy is what the import says of it.
const MLPerfAccuracyWhy = "MLPerf LoadGen's accuracy log: the samples' outputs of an accuracy run (empty in a performance run), no performance figure"
