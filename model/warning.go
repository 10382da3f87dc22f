package model

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Warning is what an importer or a comparison noticed and let through, as data: a code of the
// closed set WarningCodes and the arguments its wording takes (as golang.org/x/perf's
// benchmath keeps Warnings apart from their text). The English wording of each code is here
// (English); the front ends word it in their language at the edge (analysis/report), and a
// stored or exported warning keeps its English text beside the code.
type Warning struct {
	Code WarningCode `json:"code" yaml:"code"`
	Args []string    `json:"args,omitempty" yaml:"args,omitempty"`
}

// WarningCode names what a warning says.
type WarningCode string

// Warning codes, in the order a list of warnings shows them: the ones about the data's own
// figures first (AboutData), then how the data was read.
const (
	// about the data (the comparison's checklist lists them)
	WarnImplausible WarningCode = "implausible_values"
	WarnEncoding    WarningCode = "not_utf8"
	WarnToolInvalid WarningCode = "tool_invalid"

	// the tool's own figures
	WarnToolNaN        WarningCode = "tool_nan"
	WarnNoSuccess      WarningCode = "no_success"
	WarnUnitsFromNames WarningCode = "units_from_names"
	WarnNoTimeUnit     WarningCode = "not_time_unit"
	WarnNotNumber      WarningCode = "not_number"
	WarnRowRepeats     WarningCode = "row_repeats"
	WarnWrapperKey     WarningCode = "wrapper_key"

	// per-request records
	WarnSampled        WarningCode = "sampled"
	WarnOutsideWindow  WarningCode = "outside_window"
	WarnNoTimePoints   WarningCode = "no_time_points"
	WarnTimePointsGone WarningCode = "time_points_missing"
	WarnPartUnread     WarningCode = "part_unread"
	WarnNoSummary      WarningCode = "no_summary"
	WarnRecordsAlone   WarningCode = "records_without_summary"

	// MLPerf LoadGen
	WarnLoadGenNote        WarningCode = "loadgen_note"
	WarnLoadGenError       WarningCode = "loadgen_error"
	WarnLoadGenWarning     WarningCode = "loadgen_warning"
	WarnMLPerfInteractive  WarningCode = "mlperf_interactive"
	WarnMLPerfOfflineTimes WarningCode = "mlperf_offline"

	// evidence files
	WarnServerMetricsWindow WarningCode = "server_metrics_window"
	WarnOneDevice           WarningCode = "one_device_assumed"
	WarnCharsReplaced       WarningCode = "chars_replaced"
	WarnNoFacts             WarningCode = "no_facts"
	WarnNsysNoAPI           WarningCode = "nsys_no_api_report"
	WarnNsysTotalsOnly      WarningCode = "nsys_totals_only"
	WarnNsysSyncRecords     WarningCode = "nsys_sync_records"
	WarnNsysStepRanges      WarningCode = "nsys_step_ranges"
	WarnNsysGraphReplay     WarningCode = "nsys_graph_replay"

	// a comparison
	WarnTraceDevices WarningCode = "trace_devices"
	WarnRunSampled   WarningCode = "run_sampled"
	WarnRunGone      WarningCode = "run_gone"
	WarnNote         WarningCode = "note"   // a reader's note in its own English, not given a code yet
	WarnLegacy       WarningCode = "legacy" // stored as text before warnings had codes, in no known wording
)

// warningKinds hold each code's English wording (a format whose %s take the arguments in
// order) and whether it is about the data's own figures, in WarningCodes' order.
var warningKinds = []struct {
	code WarningCode
	text string
	data bool
}{
	{WarnImplausible, "implausible values: %s", true},
	{WarnEncoding, "not valid UTF-8: %s from byte %s: %s strings had characters replaced; save it as UTF-8 (it may be Latin-1)", true},
	{WarnToolInvalid, "the tool judged the run invalid: %s", true},
	{WarnToolNaN, "the tool wrote NaN for %s: left unknown", false},
	{WarnNoSuccess, "no request succeeded: the tool's latency statistics (zeros, not measurements) are left out", false},
	{WarnUnitsFromNames, "non-time metrics are labelled requests/sec (perf_analyzer _add_units bug); units were taken from the metric names", false},
	{WarnNoTimeUnit, "line %s: %s %s in %s, not a time unit; left out", false},
	{WarnNotNumber, "%s (%s): %s is not a number with a unit; left out", false},
	{WarnRowRepeats, "line %s: %s repeats with other values; the first row was kept", false},
	{WarnWrapperKey, "wrapped under key %s but the result says max_concurrency %s; the result's own value is kept", false},
	{WarnSampled, "per-request records are a sample (%s of %s successful requests): the tool's statistics are used, not statistics recomputed from the sample", false},
	{WarnOutsideWindow, "%s warm-up and %s cool-down request records lie outside GuideLLM's measurement window and are left out, as the tool left them out of its statistics", false},
	{WarnNoTimePoints, "%s per-request records without their time points: only the tool's statistics are used", false},
	{WarnTimePointsGone, "AISBench's time points are in %s, which is not in the bundle: the requests' times are unknown and the tool's statistics are used", false},
	{WarnPartUnread, "%s", false},
	{WarnNoSummary, "%s without its summary file", false},
	{WarnRecordsAlone, "per-request records without their summary file", false},
	{WarnLoadGenNote, "LoadGen: %s", false},
	{WarnLoadGenError, "LoadGen error (detail line %s): %s %s", false},
	{WarnLoadGenWarning, "LoadGen warning (detail line %s): %s %s", false},
	{WarnMLPerfInteractive, "MLPerf Interactive scenario: LoadGen prints Scenario : Server (its tighter latency limits are the difference); the folder names it", false},
	{WarnMLPerfOfflineTimes, "MLPerf Offline scenario: no TTFT or TPOT (LoadGen issues every sample in one query and times whole samples only)", false},
	{WarnServerMetricsWindow, "the server's own metrics over the PromQL query's window, which need not be the stage's: server-side evidence, not the run's result", false},
	{WarnOneDevice, "the GPU line names no count and no topology lists the GPUs: taken as one device", false},
	{WarnCharsReplaced, "not valid UTF-8: characters were replaced", false},
	{WarnNoFacts, "%s states none of the facts benchlens reads (driver, stack, devices, NUMA)", false},
	{WarnNsysNoAPI, "no cuda_api_sum report: launches and syncs unmeasured (at most one launch per kernel instance: %s)", false},
	{WarnNsysTotalsOnly, "an nsys stats summary: totals only, no timeline (busy share and idle gaps unmeasured)", false},
	{WarnNsysSyncRecords, "no runtime API rows: the syncs are the SYNCHRONIZATION records", false},
	{WarnNsysStepRanges, "no NVTX range names a step number: the %s %s ranges are taken as the steps", false},
	{WarnNsysGraphReplay, "%s kernels were replayed from CUDA graphs (graphNodeId set): one cudaGraphLaunch launched them", false},
	{WarnTraceDevices, "the profiler traces come from different devices (%s vs %s): their times do not compare", false},
	{WarnRunSampled, "%s run %s: per-request records are a sample (%s of %s successful requests; %s); the tool's statistics are used", false},
	{WarnRunGone, "run %s is no longer in the library (%s): the verdict is as saved; the run's own rows and charts are left out", false},
	{WarnNote, "%s", false},
	{WarnLegacy, "%s", false},
}

// WarningCodes are every warning code, in the order warnings are listed.
var WarningCodes = func() []WarningCode {
	out := make([]WarningCode, len(warningKinds))
	for i, k := range warningKinds {
		out[i] = k.code
	}
	return out
}()

// Warn is a warning with its arguments, each written as fmt's %v does.
func Warn(code WarningCode, args ...any) Warning {
	w := Warning{Code: code}
	for _, a := range args {
		w.Args = append(w.Args, fmt.Sprint(a))
	}
	return w
}

// Note is a reader's note in its own English, which no code words yet.
func Note(text string) Warning { return Warning{Code: WarnNote, Args: []string{text}} }

// Notes are notes, one a text.
func Notes(texts []string) []Warning {
	var out []Warning
	for _, t := range texts {
		out = append(out, Note(t))
	}
	return out
}

// EnglishFormat is the code's English wording, whose %s take the arguments in order ("" for
// a code not in WarningCodes).
func (c WarningCode) EnglishFormat() string {
	if i := slices.Index(WarningCodes, c); i >= 0 {
		return warningKinds[i].text
	}
	return ""
}

// English is the warning in English.
func (w Warning) English() string {
	format := w.Code.EnglishFormat()
	if format == "" {
		return strings.Join(append([]string{string(w.Code)}, w.Args...), ": ")
	}
	args := make([]any, len(w.Args))
	for i, a := range w.Args {
		args[i] = a
	}
	return fmt.Sprintf(format, args...)
}

// String is the warning in English.
func (w Warning) String() string { return w.English() }

// AboutData reports whether the warning is about the data's own figures (values no
// measurement can give, characters lost to a wrong encoding, a run its tool judged invalid):
// a comparison lists those in its checklist.
func (w Warning) AboutData() bool {
	i := slices.Index(WarningCodes, w.Code)
	return i >= 0 && warningKinds[i].data
}

// SortWarnings orders warnings by their code's place in WarningCodes (the data's own first),
// keeping the order of warnings of one code.
func SortWarnings(ws []Warning) {
	slices.SortStableFunc(ws, func(a, b Warning) int { return rank(a.Code) - rank(b.Code) })
}

func rank(c WarningCode) int {
	if i := slices.Index(WarningCodes, c); i >= 0 {
		return i
	}
	return len(WarningCodes)
}

// WarningsEnglish are warnings in English, one a line.
func WarningsEnglish(ws []Warning) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.English()
	}
	return out
}

// legacyWordings match a warning stored as text by an older benchlens to its code: each
// code's English wording, its %s read back as the arguments.
var legacyWordings = func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(warningKinds))
	for i, k := range warningKinds {
		if k.text == "%s" {
			continue
		}
		out[i] = regexp.MustCompile(`^(?s)` + strings.ReplaceAll(regexp.QuoteMeta(k.text), "%s", "(.*?)") + `$`)
	}
	return out
}()

// LegacyWarning is a warning an older benchlens stored as text: the code whose English
// wording it is, with its arguments, else code WarnLegacy with the text.
func LegacyWarning(text string) Warning {
	for i, re := range legacyWordings {
		if re == nil {
			continue
		}
		if m := re.FindStringSubmatch(text); m != nil {
			w := Warning{Code: warningKinds[i].code}
			if len(m) > 1 {
				w.Args = m[1:]
			}
			return w
		}
	}
	return Warning{Code: WarnLegacy, Args: []string{text}}
}

// warningJSON is a warning as stored and exported: its code and arguments, and its English
// text beside them so a record reads without benchlens.
type warningJSON struct {
	Code WarningCode `json:"code" yaml:"code"`
	Args []string    `json:"args,omitempty" yaml:"args,omitempty"`
	Text string      `json:"text,omitempty" yaml:"text,omitempty"`
}

// MarshalJSON writes the code, the arguments and the English text.
func (w Warning) MarshalJSON() ([]byte, error) {
	return json.Marshal(warningJSON{w.Code, w.Args, w.English()})
}

// UnmarshalJSON reads a warning as MarshalJSON writes it, or as the text an older benchlens
// wrote (LegacyWarning).
func (w *Warning) UnmarshalJSON(b []byte) error {
	var text string
	if err := json.Unmarshal(b, &text); err == nil {
		*w = LegacyWarning(text)
		return nil
	}
	var j warningJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*w = j.warning()
	return nil
}

// MarshalYAML writes the code, the arguments and the English text.
func (w Warning) MarshalYAML() (any, error) { return warningJSON{w.Code, w.Args, w.English()}, nil }

// UnmarshalYAML reads a warning as MarshalYAML writes it, or as an older record's text.
func (w *Warning) UnmarshalYAML(unmarshal func(any) error) error {
	var text string
	if err := unmarshal(&text); err == nil {
		*w = LegacyWarning(text)
		return nil
	}
	var j warningJSON
	if err := unmarshal(&j); err != nil {
		return err
	}
	*w = j.warning()
	return nil
}

// warning is the stored form read back: a code this build does not know, or a legacy one,
// is its text, recognised by its wording where it has one.
func (j warningJSON) warning() Warning {
	switch {
	case j.Code == WarnLegacy && len(j.Args) == 1:
		return LegacyWarning(j.Args[0])
	case j.Code.EnglishFormat() == "":
		if j.Text == "" {
			j.Text = strings.Join(append([]string{string(j.Code)}, j.Args...), ": ")
		}
		return LegacyWarning(j.Text)
	}
	return Warning{Code: j.Code, Args: j.Args}
}
