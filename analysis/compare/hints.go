package compare

import (
	"slices"
	"strconv"

	"benchlens/model"
)

// The checklist's "next time" hints, each by its key: its English wording, whose %s take the
// hint's arguments in order (model.Hint). The words for every key live in analysis/report,
// which a test holds to HintKeys.
const (
	HintRepeatSame       = "repeat both arms with the same %s"
	HintDeclare          = "if %s is the change under test, declare it in the candidate's bundle.yaml: %s"
	HintWriteInto        = "write %s into bundle.yaml"
	HintMoreRepeats      = "record %s more repeat(s) of the %s"
	HintMinP             = "with %s and %s runs the smallest possible p is %s >= alpha %s: no difference can be significant"
	HintAtLeast          = "record at least %s runs per arm"
	HintOneRun           = "one run per arm: compared request by request, which cannot control run-to-run error"
	HintWarmup           = "record workload.warmup_iters and discard the warm-up requests"
	HintPower            = "%s+%s runs detect %s; for %s %% run %s per arm"
	HintSampled          = "keep every request's record (GuideLLM: no --output-sampling) to compare request by request"
	HintClock            = "check the benchmark's clock and the file's encoding"
	HintServerLog        = "attach each run's server log so the resolved backend can be read"
	HintFallback         = "fix the guard that made the server fall back, then measure again"
	HintContradicted     = "the profiler trace shows other attention kernels than the log's backend: check which process the log and the trace come from"
	HintSamePath         = "the candidate runs the same attention path: look for the gain elsewhere"
	HintKernelsDiffer    = "measure the path the log claims, or find why the server ran other kernels"
	HintDecodeTrace      = "capture a profiler trace of a few decode steps in each arm"
	HintEachStage        = "report each stage: the end-to-end number hides the mismatch"
	HintNoBetter         = "no stage is significantly better"
	HintNoBetterAnywhere = "no stage is significantly better at any load point"
	HintSamePoint        = "run both arms at the same load and request shape"
	HintHostTrace        = "capture a trace that records host calls in each arm: a torch profiler (Kineto) trace, or Ascend's trace_view.json"
	HintKineto           = "capture a torch profiler (Kineto) trace of a few steps in each arm"
	HintRemoveOverhead   = "remove the added copies, launches or syncs"
	HintUtilTrace        = "attach a utilisation trace (nvidia-smi, npu-smi) and a profiler trace per arm"
)

// HintKeys lists every hint key above; a test finds one without words.
var HintKeys = []string{HintRepeatSame, HintDeclare, HintWriteInto, HintMoreRepeats, HintMinP, HintAtLeast,
	HintOneRun, HintWarmup, HintPower, HintSampled, HintClock, HintServerLog, HintFallback, HintContradicted,
	HintSamePath, HintKernelsDiffer, HintDecodeTrace, HintEachStage, HintNoBetter, HintNoBetterAnywhere,
	HintSamePoint, HintHostTrace, HintKineto, HintRemoveOverhead, HintUtilTrace}

// hint is a hint with its arguments, numbers written plainly.
func hint(key string, args ...any) model.Hint {
	h := model.Hint{Key: key}
	for _, a := range args {
		switch a := a.(type) {
		case string:
			h.Args = append(h.Args, a)
		case int:
			h.Args = append(h.Args, strconv.Itoa(a))
		case float64:
			h.Args = append(h.Args, strconv.FormatFloat(a, 'g', 3, 64))
		}
	}
	return h
}

// advise adds advice: one line of the record, the hints it says as data.
func (m *Measurement) advise(hs ...model.Hint) {
	line := model.HintsEnglish(hs)
	if !slices.Contains(m.Advice, line) {
		m.Advice = append(m.Advice, line)
	}
	for _, h := range hs {
		if !slices.ContainsFunc(m.Hints, func(x model.Hint) bool { return x.Key == h.Key && slices.Equal(x.Args, h.Args) }) {
			m.Hints = append(m.Hints, h)
		}
	}
}

// advice is the measurement's advice as hints: its data, else (a record saved before hints
// were data) each line as a hint of its own English text.
func (m Measurement) advice() []model.Hint {
	if len(m.Hints) > 0 {
		return m.Hints
	}
	var out []model.Hint
	for _, a := range m.Advice {
		out = append(out, model.Hint{Key: a})
	}
	return out
}

// setHints gives a check its hints: as data, and as the record's English line.
func (c *Check) setHints(hs ...model.Hint) {
	c.Hints = hs
	c.Hint = model.HintsEnglish(hs)
}
