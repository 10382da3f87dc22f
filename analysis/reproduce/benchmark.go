package reproduce

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"benchlens/model"
)

// benchEra picks the benchmark client's era from the tool and format era the importer found.
func benchEra(run *model.Run) (Era, bool) {
	switch run.Tool {
	case "vllm":
		if run.Era == model.EraVLLMG {
			return VLLMBenchServe, true
		}
		return VLLMBenchmarkServing, true
	case "sglang":
		return SGLangBenchServing, true
	case "genai-perf":
		return GenAIPerf, true
	case "aiperf":
		return AIPerf, true
	case "guidellm":
		return GuideLLM, true
	case "llmperf":
		return LLMPerf, true
	}
	return Era{}, false
}

// preConcurrency reports a vLLM result era older than --max-concurrency and --burstiness
// (they arrived with era E, v0.6.4).
func preConcurrency(era model.Era) bool {
	switch era {
	case model.EraVLLMA, model.EraVLLMB, model.EraVLLMC, model.EraVLLMD:
		return true
	}
	return false
}

// writesNoLimit reports a vLLM result era that always writes max_concurrency (E, v0.6.4, on):
// null there means no limit.
func writesNoLimit(era model.Era) bool {
	switch era {
	case model.EraVLLME064, model.EraVLLME065, model.EraVLLMF, model.EraVLLMG:
		return true
	}
	return false
}

// workload is the load a run was measured under, each value as text or a placeholder.
type workload struct {
	model, dataset, input, output, ratio, prompts, seed, concurrency, rate, burstiness, duration string
	unbounded                                                                                    bool // the file says no concurrency limit
	// fromData: the requests were read from a dataset (ShareGPT, a file), not generated to the
	// declared lengths; dataPath is its file or a placeholder, dataType its format or "".
	fromData           bool
	dataPath, dataType string
	outputFixed        bool // the client fixed the output length (model.LoadPoint.OutputFixed)
}

// workloadOf reads the run's load: the result file first, the manifest second; p is the load
// point of the run's repeats (model.PointOf of the first), whose measured lengths stand for them all.
func workloadOf(run *model.Run, p model.LoadPoint) workload {
	m := run.Manifest
	extra := func(k string) string {
		switch v := run.Extra[k].(type) {
		case nil:
			return ""
		case float64:
			return strconv.FormatFloat(v, 'f', -1, 64)
		default:
			return fmt.Sprint(v)
		}
	}
	or := func(what string, vals ...string) string {
		if v := first(vals...); v != "" {
			return v
		}
		return Placeholder(what)
	}
	// The request shape as the client was told it (bundle.yaml, the tool's keys, a saved
	// command line), else what the run measured, kept a placeholder that names the value, so
	// each shape of a sweep gets its own command and none runs with a guess (METHOD.md rule 12).
	c := model.ClientOf(run)
	length := func(what string, declared model.Num, measured model.Num, from string) string {
		switch {
		case m.String("workload", what) != "":
			return m.String("workload", what) // as the manifest wrote it
		case declared.Known():
			return numText(declared)
		case what == "output_len" && p.OutputFixed == "" && measured.Known():
			return Placeholder("output_len, not fixed by the client")
		case measured.Known():
			how := "per-request median"
			if from == model.LengthTotals {
				how = "totals over completed requests"
			}
			return Placeholder(fmt.Sprintf("%s, ≈%s measured (%s)", what, numText(measured), how))
		}
		return Placeholder(what)
	}
	w := workload{
		model:   or("model", run.Model, m.String("workload", "model_name")),
		dataset: or("dataset", m.String("workload", "dataset"), c.Dataset),
		input:   length("input_len", c.InputLen, p.InputLen, p.InputFrom),
		output:  length("output_len", c.OutputLen, p.OutputLen, p.OutputFrom),
		ratio:   or("range_ratio", m.String("workload", "range_ratio"), extra("random_range_ratio")),
		prompts: or("num_prompts", numText(run.NumPrompts), m.String("workload", "num_prompts")),
		seed:    or("seed", m.String("workload", "seed"), c.Seed),
		rate:    or("request_rate", numText(run.RequestRate), m.String("workload", "request_rate")),
	}
	w.duration = numText(c.DurationS)
	w.outputFixed = p.OutputFixed != ""
	if w.fromData = !c.Synthetic(); w.fromData {
		w.dataPath, w.dataType = or("dataset_path", c.DatasetPath), c.DatasetType
	}
	w.concurrency = first(numText(run.MaxConcurrency), m.String("workload", "max_concurrency"))
	if w.concurrency == "" {
		w.unbounded = run.Tool == "vllm" && writesNoLimit(run.Era)
		if !w.unbounded {
			w.concurrency = Placeholder("max_concurrency")
		}
	}
	if b := run.Burstiness; b.Known() && b.F() != 1 {
		w.burstiness = numText(b)
	}
	return w
}

// numText writes a known number as the tools print it ("inf" for an unthrottled rate).
func numText(n model.Num) string {
	if !n.Known() {
		return ""
	}
	f := n.F()
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case f == math.Trunc(f) && math.Abs(f) < 1e15:
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// benchmarkCommand builds the command that re-runs the run's benchmark at its load point.
func benchmarkCommand(r Run, p model.LoadPoint) Command {
	run := r.Run
	c := Command{Runs: []int64{run.ID}, Shape: p.Label()}
	w := workloadOf(run, p)
	era, ok := benchEra(run)
	if !ok {
		c.Tool = run.Tool
		c.Args = []string{Placeholder(run.Tool + " command line")}
		c.Notes = append(c.Notes, fmt.Sprintf("benchlens does not know %s's options: rerun it with model %s, input_len %s, output_len %s, num_prompts %s, seed %s, max_concurrency %s, request_rate %s",
			run.Tool, w.model, w.input, w.output, w.prompts, w.seed, orNone(w.concurrency), w.rate))
		return c
	}
	c.Tool = era.Name
	c.Args = append([]string(nil), era.Program...)
	add := func(concept, value string) {
		if flag, ok := era.Flags[concept]; ok && value != "" {
			c.Args = append(c.Args, flag, value)
		}
	}
	switch era.Name {
	case GuideLLM.Name:
		add(cModel, w.model)
		c.Args = append(c.Args, "--target", Placeholder("server URL"))
		if w.fromData {
			add(cSyntheticData, w.dataPath) // --data takes a file or a hub id as well
		} else {
			add(cSyntheticData, "prompt_tokens="+w.input+",output_tokens="+w.output)
		}
		switch {
		case w.concurrency == "1":
			add(cProfile, "synchronous")
		case w.concurrency != "" && !IsPlaceholder(w.concurrency):
			add(cProfile, "concurrent")
			add(cRequestRate, w.concurrency)
		case w.rate == "inf":
			add(cProfile, "throughput")
		default:
			add(cProfile, "poisson")
			add(cRequestRate, w.rate)
		}
		add(cNumPrompts, w.prompts)
		add(cSeed, w.seed)
		return c
	}

	backend := run.Backend
	if backend == "" {
		backend = Placeholder("backend")
	}
	add(cBackend, backend)
	add(cModel, w.model)
	if w.fromData {
		c.Notes = append(c.Notes, datasetArgs(era, w, add)...)
	} else {
		add(cDataset, w.dataset)
		add(cInputLen, w.input)
		add(cOutputLen, w.output)
		if _, ok := era.Flags[cRangeRatio]; ok {
			add(cRangeRatio, w.ratio)
		} else if w.ratio == "0" || w.ratio == "0.0" {
			add(cInputStd, "0") // fixed lengths: no spread
			add(cOutputStd, "0")
		} else if _, ok := era.Flags[cInputStd]; ok {
			c.Notes = append(c.Notes, "range_ratio "+w.ratio+" has no exact equivalent in "+era.Name+"'s standard deviations")
		}
	}
	if _, ok := era.Flags[cDuration]; ok && w.duration != "" {
		add(cDuration, w.duration) // time-bound: its request count was an outcome
	} else {
		add(cNumPrompts, w.prompts)
	}
	add(cSeed, w.seed)
	old := run.Tool == "vllm" && preConcurrency(run.Era)
	switch {
	case old:
		c.Notes = append(c.Notes, "result era "+string(run.Era)+" predates --max-concurrency and --burstiness; these flags were checked against the v0.6.4-0.9 script: check them with --help of that checkout")
	case w.unbounded:
		c.Notes = append(c.Notes, "no concurrency limit (the file's max_concurrency is null)")
	default:
		add(cConcurrency, w.concurrency)
	}
	if IsPlaceholder(w.rate) && w.concurrency != "" && !IsPlaceholder(w.concurrency) && run.Tool != "vllm" && run.Tool != "sglang" {
		c.Notes = append(c.Notes, "request_rate not recorded: left out, the load is set by the concurrency")
	} else {
		add(cRequestRate, w.rate)
	}
	if !old {
		add(cBurstiness, w.burstiness)
	}
	if w := run.ToolWarmup; w != nil && w.Requests > 0 {
		if _, ok := era.Flags[cWarmup]; ok && !w.InFile {
			add(cWarmup, strconv.Itoa(w.Requests))
		} else {
			c.Notes = append(c.Notes, fmt.Sprintf("the tool set %d warm-up request(s) apart (%s): set the same warm-up", w.Requests, w.Setting))
		}
	}
	switch era.Name {
	case VLLMBenchmarkServing.Name, VLLMBenchServe.Name:
		c.Args = append(c.Args, era.Flags[cSave], "--save-detailed")
	case SGLangBenchServing.Name:
		c.Args = append(c.Args, era.Flags[cSave], "results.jsonl", "--output-details")
	case GenAIPerf.Name, AIPerf.Name:
		c.Args = append(c.Args, "--streaming")
	}
	return c
}

// datasetOutput is the option a named dataset's output length is fixed with (vLLM, SGLang):
// without it the dataset's own completions set each request's length.
var datasetOutput = map[string]string{"sharegpt": cShareGPTOut, "custom": cCustomOut, "hf": cHFOut}

// datasetArgs adds the arguments of a run whose requests were read from a dataset, in the
// era's words: the dataset's name and path (vLLM, SGLang), an input file or a public dataset
// (genai-perf, AIPerf), and its output length where the client fixed it (else the dataset's
// own completions set it, as they did in the run); never the random-length flags, which do
// not apply to it. It returns what the era has no option for.
func datasetArgs(era Era, w workload, add func(concept, value string)) []string {
	if _, ok := era.Flags[cDataset]; ok {
		add(cDataset, w.dataset)
		add(cDatasetPath, w.dataPath)
		concept, ok := datasetOutput[strings.ToLower(w.dataset)]
		_, has := era.Flags[concept]
		switch {
		case ok && has && (w.outputFixed || concept == cCustomOut): // the custom dataset always sets one (256 unless told)
			add(concept, w.output)
		case w.outputFixed:
			return []string{"dataset " + w.dataset + ": the client fixed its output length (" + w.output + "), which " + era.Name + " has no option for with this dataset: set it as the run did"}
		}
		return nil
	}
	if _, ok := era.Flags[cPublicDataset]; ok && IsPlaceholder(w.dataPath) && strings.EqualFold(w.dataset, "sharegpt") {
		add(cPublicDataset, "sharegpt")
	} else {
		add(cInputFile, w.dataPath)
		add(cDatasetType, w.dataType)
	}
	if w.outputFixed {
		add(cOutputLen, w.output)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
