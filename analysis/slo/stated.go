package slo

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"benchlens/model"
)

// ToolGoodput is the goodput a tool computed itself and the SLO it says it used: what a run
// without per-request data can offer (issue 28 item 1). Each tool records its SLO its own way:
//
//   - vLLM (benchmark_serving.py, vllm bench serve): --goodput ttft:MS tpot:MS e2el:MS is
//     applied to request_goodput (the ≤0.9 key "request_goodput:") but never written to the
//     file, so the SLO is known only when the lab says it: bundle.yaml's `slo:` (or
//     workload.goodput), or --metadata goodput=… / slo=…;
//   - AIPerf: input_config.slos (0.11; input_config.goodput in earlier versions and in
//     genai-perf's input_config), ms by metric name (time_to_first_token, inter_token_latency,
//     request_latency), with goodput, good_request_count and good_request_fraction; AIPerf's
//     inter_token_latency is per request, (latency − TTFT) / (output tokens − 1): our TPOT;
//   - inference-perf: report.goodput.constraints of its config.yaml (seconds: ttft, tpot, itl,
//     request_latency) with successes.goodput_metrics {goodput_percentage, request_goodput};
//   - GuideLLM: its result files state no SLO (its SLO sliders live in the HTML report only).
type ToolGoodput struct {
	SLO        model.SLO
	Goodput    model.Num // req/s
	Attainment model.Num // 0-1
	From       string    // where the file states the SLO
	// Unmapped names limits the tool set on figures benchlens does not time per request
	// (time_to_second_token, ntpot …): the tool's SLO is then another SLO.
	Unmapped []string
}

// Objective is the tool's SLO in words.
func (t ToolGoodput) Objective() string {
	s := t.SLO.String()
	if len(t.Unmapped) > 0 {
		s = strings.TrimPrefix(s+","+strings.Join(t.Unmapped, ","), ",")
	}
	return s + " (" + t.From + ")"
}

// Stated returns the SLO and goodput a run's files state, and whether they state an SLO.
func Stated(r *model.Run) (ToolGoodput, bool) {
	t := ToolGoodput{Goodput: r.Goodput, Attainment: model.Unknown}
	if text, from := declared(r); text != "" {
		s, err := model.ParseSLO(text)
		if err != nil {
			return ToolGoodput{}, false
		}
		t.SLO, t.From = s, from
		t.Attainment = fraction(t.Goodput, r)
		return t, true
	}
	if ic, ok := r.Extra["input_config"].(map[string]any); ok { // AIPerf, genai-perf
		for _, key := range []string{"slos", "goodput"} {
			if m, path, ok := findMap(ic, key, "input_config"); ok {
				t.SLO, t.Unmapped = limits(m, aiperfNames, 1)
				t.From = "AIPerf " + path
				t.Attainment = aiperfFraction(r)
				if !t.Attainment.Known() {
					t.Attainment = fraction(t.Goodput, r)
				}
				return t, len(t.SLO)+len(t.Unmapped) > 0
			}
		}
	}
	if m, path, ok := findMap(r.Extra, "constraints", ""); ok && strings.Contains(path, "goodput") { // inference-perf
		t.SLO, t.Unmapped = limits(m, inferencePerfNames, 1e3)
		t.From = "inference-perf " + path
		if gm, _, ok := findMap(r.Extra, "goodput_metrics", ""); ok {
			if v, ok := gm["request_goodput"].(float64); ok {
				t.Goodput = model.Num(v)
			}
			if v, ok := gm["goodput_percentage"].(float64); ok {
				t.Attainment = model.Num(v / 100)
			}
		}
		return t, len(t.SLO)+len(t.Unmapped) > 0
	}
	return ToolGoodput{}, false
}

// declared is the SLO a lab wrote beside a vLLM-style file: bundle.yaml's slo: or
// workload.goodput, else --metadata goodput= / slo=.
func declared(r *model.Run) (text, from string) {
	for _, c := range []struct{ text, from string }{
		{r.Manifest.String("slo"), "bundle.yaml slo"},
		{r.Manifest.String("workload", "goodput"), "bundle.yaml workload.goodput"},
		{r.Metadata["goodput"], "--metadata goodput"},
		{r.Metadata["slo"], "--metadata slo"},
	} {
		if strings.TrimSpace(c.text) != "" {
			return c.text, c.from
		}
	}
	return "", ""
}

var (
	aiperfNames        = map[string]string{"time_to_first_token": model.TTFT, "inter_token_latency": model.TPOT, "request_latency": model.E2EL}
	inferencePerfNames = map[string]string{"ttft": model.TTFT, "tpot": model.TPOT, "itl": model.ITL, "request_latency": model.E2EL}
)

// limits maps a tool's {name: limit} to an SLO in ms (scale: the tool's unit in ms), and
// lists the names it cannot map.
func limits(m map[string]any, names map[string]string, scale float64) (model.SLO, []string) {
	var s model.SLO
	var unmapped []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v, ok := m[k].(float64)
		metric, known := names[k]
		switch {
		case !ok:
		case !known:
			unmapped = append(unmapped, fmt.Sprintf("%s<=%g", k, v))
		default:
			s = append(s, model.Limit{Metric: metric, MS: v * scale})
		}
	}
	return s.Sorted(), unmapped
}

// aiperfFraction is AIPerf's good requests over every request (failed ones miss).
func aiperfFraction(r *model.Run) model.Num {
	avg := func(key string) (float64, bool) {
		m, _ := r.Extra[key].(map[string]any)
		v, ok := m["avg"].(float64)
		return v, ok
	}
	if good, ok := avg("good_request_count"); ok && r.Completed.Known() {
		total := r.Completed.F()
		if r.Failed.Known() {
			total += r.Failed.F()
		}
		if total > 0 {
			return model.Num(good / total)
		}
	}
	if f, ok := avg("good_request_fraction"); ok {
		return model.Num(f)
	}
	return model.Unknown
}

// fraction is the attainment a goodput implies: goodput × duration over every request.
func fraction(goodput model.Num, r *model.Run) model.Num {
	total := r.NumPrompts
	if r.Completed.Known() && r.Failed.Known() {
		total = model.Num(r.Completed.F() + r.Failed.F())
	}
	if !goodput.Known() || !r.DurationS.Known() || !(total.F() > 0) {
		return model.Unknown
	}
	return model.Num(min(1, goodput.F()*r.DurationS.F()/total.F()))
}

// findMap finds the first map under key in a nested document, breadth first, with its dotted
// path.
func findMap(doc map[string]any, key, prefix string) (map[string]any, string, bool) {
	type node struct {
		m    map[string]any
		path string
	}
	queue := []node{{doc, prefix}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, k := range slices.Sorted(maps.Keys(n.m)) {
			p := strings.TrimPrefix(n.path+"."+k, ".")
			sub, ok := n.m[k].(map[string]any)
			if !ok {
				continue
			}
			if k == key {
				return sub, p, true
			}
			queue = append(queue, node{sub, p})
		}
	}
	return nil, "", false
}
