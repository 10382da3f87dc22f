package result

import (
	"bytes"
	"fmt"
	"math"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
	"benchlens/model"
)

// kubernetes-sigs/inference-perf's reports (more-formats.md G5): one lifecycle report per
// load stage (stage_<i>_lifecycle_metrics.json, one load point each), a summary pooling the
// stages (kept beside, no run), per-request records, prometheus reports of the server's own
// metrics (server-side evidence) and config.yaml, the run config echoed (the model is only
// there). Times are seconds. Two eras: 0.0.x (prompt_len, output_len; per-request info with
// input_tokens, output_tokens, output_token_times) and the 2026 reports (prompt_tokens /
// output_tokens usage blocks, benchmark_time_seconds, a stage's concurrency; per-request info
// with request_metrics and response_metrics).

const toolInferencePerf = "inference-perf"

// Eras of inference-perf's lifecycle report.
const (
	eraInferencePerf00x  era = "0.0.x lifecycle report (prompt_len)"
	eraInferencePerf2026 era = "2026 lifecycle report (prompt_tokens, benchmark_time_seconds)"
)

var inferencePerfStage = regexp.MustCompile(`stage_(-?\d+)_(?:lifecycle|prometheus)_metrics`)

// isInferencePerfLifecycle tells a lifecycle report: load_summary, successes and failures, the
// successes' latency block.
func isInferencePerfLifecycle(obj map[string]any) bool {
	s := jsonx.Object(obj["successes"])
	return obj["load_summary"] != nil && s != nil && obj["failures"] != nil && jsonx.Object(s["latency"]) != nil
}

// inferencePerfSummary says why summary_lifecycle_metrics.json is no run: it pools the stages.
func inferencePerfSummary(name string, obj map[string]any) string {
	if !isInferencePerfLifecycle(obj) {
		return ""
	}
	_, rate := jsonx.Object(obj["load_summary"])["requested_rate"]
	if strings.HasPrefix(path.Base(name), "summary_") || !rate && inferencePerfStage.FindString(name) == "" {
		return "inference-perf's summary over all its stages (pooled, no one load point): each stage_N_lifecycle_metrics.json is a run"
	}
	return ""
}

// inferencePerfStats maps its stats keys to benchlens's.
func inferencePerfStats(run *model.Run, metric string, v any, scale float64) {
	for k, x := range jsonx.Object(v) {
		f, ok := jsonx.Float(x)
		if !ok {
			continue
		}
		stat := k
		switch k {
		case "mean", "min", "max", "median":
		default:
			if !strings.HasPrefix(k, "p") {
				continue
			}
		}
		run.SetStat(metric, stat, f*scale)
	}
}

// parseInferencePerf reads one stage's lifecycle report.
func parseInferencePerf(name string, obj map[string]any) (*model.Run, error) {
	run := model.NewRun(toolInferencePerf)
	load, succ, fail := jsonx.Object(obj["load_summary"]), jsonx.Object(obj["successes"]), jsonx.Object(obj["failures"])
	run.Era = eraInferencePerf00x
	if _, ok := succ["prompt_tokens"]; ok || obj["benchmark_time_seconds"] != nil {
		run.Era = eraInferencePerf2026
	}
	lf, sf, ff := fields{obj: load, prefix: "load_summary."}, fields{obj: succ, prefix: "successes."}, fields{obj: fail, prefix: "failures."}
	run.NumPrompts = lf.num("count")
	run.RequestRate = lf.num("requested_rate")
	run.MaxConcurrency = lf.num("concurrency")
	run.Completed = sf.num("count")
	run.Failed = ff.num("count")
	run.DurationS = firstKnown((&fields{obj: obj}).num("benchmark_time_seconds"), lf.num("send_duration"))
	tp := fields{obj: jsonx.Object(succ["throughput"]), prefix: "successes.throughput."}
	run.RequestThroughput = tp.num("requests_per_sec")
	run.OutputThroughput = tp.num("output_tokens_per_sec")
	run.InputThroughput = tp.num("input_tokens_per_sec")
	run.TotalTokenThroughput = tp.num("total_tokens_per_sec")
	for _, f := range []*fields{&lf, &sf, &ff, &tp} {
		if f.err != nil {
			return nil, f.err
		}
	}
	if m := inferencePerfStage.FindStringSubmatch(name); m != nil {
		n, _ := strconv.Atoi(m[1])
		setExtra(run, "stage", float64(n))
	}
	for _, k := range []string{"achieved_rate", "send_duration"} {
		if x, ok := jsonx.Float(load[k]); ok {
			setExtra(run, k, x)
		}
	}
	if d := jsonx.Object(load["schedule_delay"]); d != nil {
		if x, ok := jsonx.Float(d["median"]); ok {
			setExtra(run, "schedule_delay_median_s", x)
		}
	}
	lat := jsonx.Object(succ["latency"])
	inferencePerfStats(run, model.E2EL, lat["request_latency"], 1000)
	inferencePerfStats(run, model.TTFT, lat["time_to_first_token"], 1000)
	inferencePerfStats(run, model.TPOT, lat["time_per_output_token"], 1000)
	// Its ITL pools the gap of every streamed token (several tokens share a chunk, so most
	// gaps are near zero: median 0.037 ms in the fixture): kept, never compared as decode.
	for key, v := range map[string]any{"inter_token_latency": lat["inter_token_latency"], "normalized_time_per_output_token": lat["normalized_time_per_output_token"]} {
		if st := jsonx.Object(v); st != nil {
			ms := map[string]any{}
			for k, x := range st {
				if f, ok := jsonx.Float(x); ok {
					ms[k] = secondsToMs(f)
				}
			}
			setExtra(run, key+"_ms", ms)
		}
	}
	run.TotalInputTokens, run.TotalOutputTokens = inferencePerfTokens(succ, "prompt_tokens", "prompt_len"), inferencePerfTokens(succ, "output_tokens", "output_len")
	run.Definitions = map[string]string{
		model.TTFT: "first output token's time minus the request's start, per streamed request of more than one token (inference-perf)",
		model.TPOT: "(last token time - first token time) / (output tokens - 1), per request (inference-perf); its decode figure",
		model.ITL:  "not compared: inference-perf pools the gap of every streamed token, most of them near zero within a chunk (kept as inter_token_latency_ms)",
		model.E2EL: "per successful request, from its start to its end",
	}
	return run, nil
}

// inferencePerfTokens is the total of a token block: the 2026 usage block's total, else mean × count.
func inferencePerfTokens(succ map[string]any, usage, old string) model.Num {
	if u := jsonx.Object(succ[usage]); u != nil {
		if t, ok := jsonx.Float(u["total"]); ok {
			return model.Num(t)
		}
	}
	n, okN := jsonx.Float(succ["count"])
	for _, k := range []string{old, usage} {
		if m, ok := jsonx.Float(jsonx.Object(succ[k])["mean"]); ok && okN {
			return model.Num(math.Round(m * n))
		}
	}
	return model.Unknown
}

// isInferencePerfRequests tells per_request_lifecycle_metrics.json: an array of records with
// start_time, end_time and info.
func isInferencePerfRequests(arr []any) bool {
	if len(arr) == 0 {
		return false
	}
	o := jsonx.Object(arr[0])
	return o != nil && o["start_time"] != nil && o["end_time"] != nil && o["info"] != nil
}

// parseInferencePerfRequests reads the per-request records of every stage (the file does not
// say which stage a request belongs to).
func parseInferencePerfRequests(arr []any) *format.Part {
	part := &format.Part{Tool: toolInferencePerf, What: "inference-perf's per-request records (every stage pooled)"}
	for _, x := range arr {
		o := jsonx.Object(x)
		start, _ := jsonx.Float(o["start_time"])
		end, _ := jsonx.Float(o["end_time"])
		info := jsonx.Object(o["info"])
		resp := jsonx.Object(info["response_metrics"])
		in, ok := jsonx.Float(info["input_tokens"])
		if !ok {
			in, ok = jsonx.Float(jsonx.Object(jsonx.Object(info["request_metrics"])["text"])["input_tokens"])
		}
		if !ok {
			in = -1
		}
		out, ok := jsonx.Float(info["output_tokens"])
		if !ok {
			out, ok = jsonx.Float(resp["output_tokens"])
		}
		if !ok {
			out = -1
		}
		times, _ := jsonx.Floats(info["output_token_times"])
		if len(times) == 0 {
			times, _ = jsonx.Floats(resp["output_token_times"])
		}
		r := model.Request{InputLen: int(in), OutputLen: int(out), TTFT: math.NaN(), TPOT: math.NaN(), Latency: end - start, Start: start}
		if len(times) > 1 {
			r.TTFT = times[0] - start
			for i := 1; i < len(times); i++ {
				r.ITL = append(r.ITL, times[i]-times[i-1])
			}
		}
		if e := jsonx.Object(o["error"]); e != nil {
			r.Error = strings.TrimSpace(jsonx.Str(e["error_type"]) + ": " + jsonx.Str(e["error_msg"]))
		} else if o["error"] != nil {
			r.Error = fmt.Sprint(jsonx.Plain(o["error"]))
		}
		part.Requests = append(part.Requests, r)
	}
	sort.SliceStable(part.Requests, func(i, j int) bool { return part.Requests[i].Start < part.Requests[j].Start })
	return part
}

// IsInferencePerfPrometheus sniffs a prometheus report: inference-perf's lifecycle layout with
// an empty load_summary and the server's gauges (queue length, KV-cache use).
func IsInferencePerfPrometheus(f *format.File) bool {
	lead := f.Lead()
	if len(lead) == 0 || lead[0] != '{' || !f.HeadQuotes("load_summary") || !bytes.Contains(lead, []byte(`"successes"`)) {
		return false
	}
	return bytes.Contains(lead, []byte(`"queue_len"`)) || bytes.Contains(lead, []byte(`"kv_cache_usage_percentage"`)) ||
		bytes.Contains(lead, []byte(`"num_preemptions_total"`))
}

// InferencePerfPrometheusApplies attaches stage N's prometheus report to stage N's run, the
// summary's to every run of the folder.
func InferencePerfPrometheusApplies(file, result string) bool {
	m := inferencePerfStage.FindStringSubmatch(path.Base(file))
	if m == nil {
		return true
	}
	r := inferencePerfStage.FindStringSubmatch(path.Base(result))
	return r == nil || r[1] == m[1]
}

// ReadInferencePerfPrometheus reads a prometheus report into server-metrics evidence (seconds
// to ms); its window is the PromQL query's, which need not be the stage's.
func ReadInferencePerfPrometheus(f *format.File) (format.Parsed, error) {
	v, err := jsonx.NewDecoder(f.Data).Decode()
	if err != nil {
		return format.Parsed{}, err
	}
	succ := jsonx.Object(jsonx.Object(v)["successes"])
	sm := &model.ServerMetrics{Source: "inference-perf prometheus report", Window: "all stages", Requests: model.Unknown, Rate: model.Unknown,
		Latency: map[string]model.Stats{}, Gauges: map[string]model.Num{}}
	if m := inferencePerfStage.FindStringSubmatch(path.Base(f.Name)); m != nil {
		sm.Window = "stage " + m[1]
	}
	if x, ok := jsonx.Float(succ["count"]); ok {
		sm.Requests = model.Num(x)
	}
	if x, ok := jsonx.Float(succ["rate"]); ok {
		sm.Rate = model.Num(x)
	}
	for key, metric := range map[string]string{"request_latency": model.E2EL, "time_to_first_token": model.TTFT, "time_per_output_token": model.TPOT} {
		st := model.Stats{}
		for k, x := range jsonx.Object(succ[key]) {
			if f, ok := jsonx.Float(x); ok {
				st[k] = model.Num(secondsToMs(f))
			}
		}
		if len(st) > 0 {
			sm.Latency[metric] = st
		}
	}
	for _, k := range []string{"queue_len", "kv_cache_usage_percentage", "prefix_cache_hit_percent", "num_preemptions_total", "num_requests_swapped", "prompt_len", "output_len"} {
		if x, ok := jsonx.Float(jsonx.Object(succ[k])["mean"]); ok {
			sm.Gauges[k] = model.Num(x)
		}
	}
	var warnings []model.Warning
	if sm.Window != "all stages" {
		warnings = append(warnings, model.Warn(model.WarnServerMetricsWindow))
	}
	return format.Parsed{Evidence: &model.Evidence{ServerMetrics: sm, Format: sm.Source}, Warnings: warnings}, nil
}

// IsInferencePerfConfig sniffs inference-perf's config.yaml: a YAML file of its top-level
// sections (load plus server, api or data).
func IsInferencePerfConfig(f *format.File) bool {
	if !f.NameEnds(".yaml", ".yml") || f.Base() == "bundle.yaml" || f.Base() == "bundle.yml" {
		return false
	}
	has := func(key string) bool {
		return bytes.HasPrefix(f.Lead(), []byte(key+":")) || bytes.Contains(f.Lead(), []byte("\n"+key+":"))
	}
	return has("load") && (has("server") || has("api") || has("data"))
}

// ReadInferencePerfConfig reads config.yaml into a part that completes every run of the folder:
// the model and the server, the API, the load (its type, stages, workers) and the data.
func ReadInferencePerfConfig(f *format.File) (format.Parsed, error) {
	var cfg struct {
		API struct {
			Type      string `yaml:"type"`
			Streaming *bool  `yaml:"streaming"`
		} `yaml:"api"`
		Data struct {
			Type string `yaml:"type"`
		} `yaml:"data"`
		Load struct {
			Type                 string           `yaml:"type"`
			Stages               []map[string]any `yaml:"stages"`
			NumWorkers           any              `yaml:"num_workers"`
			WorkerMaxConcurrency any              `yaml:"worker_max_concurrency"`
		} `yaml:"load"`
		Server struct {
			Type      string `yaml:"type"`
			ModelName string `yaml:"model_name"`
			BaseURL   string `yaml:"base_url"`
			IgnoreEOS *bool  `yaml:"ignore_eos"`
		} `yaml:"server"`
	}
	if err := yaml.Unmarshal(f.Data, &cfg); err != nil {
		return format.Parsed{}, fmt.Errorf("config.yaml: %w", err)
	}
	fill := func(run *model.Run) {
		if run.Model == "" {
			run.Model = cfg.Server.ModelName
		}
		if run.Backend == "" {
			run.Backend = cfg.Server.Type
		}
		for k, v := range map[string]string{"api_type": cfg.API.Type, "data_type": cfg.Data.Type, "load_type": cfg.Load.Type} {
			if v != "" {
				setExtra(run, k, v)
			}
		}
		if cfg.API.Streaming != nil {
			setExtra(run, "streaming", *cfg.API.Streaming)
		}
		if cfg.Server.IgnoreEOS != nil {
			setExtra(run, "ignore_eos", *cfg.Server.IgnoreEOS)
		}
		if cfg.Load.NumWorkers != nil {
			setExtra(run, "num_workers", cfg.Load.NumWorkers)
		}
		if cfg.Load.WorkerMaxConcurrency != nil {
			setExtra(run, "worker_max_concurrency", cfg.Load.WorkerMaxConcurrency)
		}
		if len(cfg.Load.Stages) > 0 {
			setExtra(run, "load_stages", len(cfg.Load.Stages))
		}
	}
	return format.Parsed{Part: &format.Part{Tool: toolInferencePerf, Fill: fill, All: true, What: "inference-perf's config.yaml"}}, nil
}

// secondsToMs converts at ns precision, without float noise in the digits below it.
func secondsToMs(s float64) float64 { return math.Round(s*1e9) / 1e6 }
