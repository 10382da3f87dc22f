package importers

import (
	"bytes"
	"errors"
	"strings"

	"benchlens/importers/environment"
	"benchlens/importers/format"
	"benchlens/importers/nsys"
	"benchlens/importers/result"
	"benchlens/importers/serverlog"
	"benchlens/importers/trace"
	"benchlens/importers/utilisation"
	"benchlens/model"
)

// Formats is the registry: every kind of file benchlens recognises, asked in this order. A
// row stands before a broader one that would claim its files: profiler traces before the JSON
// results (a 100 MB trace is not worth decoding as a result), results before logs (a vLLM log
// written as JSON lines is JSON that holds no result), server logs before the utilisation
// tools (a log's lines can pass for an nvidia-smi query row; no utilisation tool prints a
// log's markers).
var Formats = []Format{
	{Name: "bundle.yaml manifest", Kind: model.KindManifest, Sniff: isManifest, Parse: readManifest},
	{Name: "empty file", Kind: model.KindOther, Sniff: isEmpty, Parse: readEmpty},

	// Per-request SQLite files of the benchmark clients, before the Nsight Systems export's
	// row (its sniff looks for its own tables, these for theirs).
	{Name: "EvalScope perf per-request SQLite (benchmark_data.db)", Kind: model.KindResult, Sniff: result.IsEvalScopeDB, Parse: result.ReadEvalScopeDB},
	{Name: "AISBench numpy store of time points (db_data/*.db)", Kind: model.KindOther, Sniff: result.IsAISBenchNumpyStore, Parse: format.Unread(result.AISBenchNumpyStoreWhy)},
	{Name: "Nsight Systems report (.nsys-rep)", Kind: model.KindOther, Sniff: nsys.IsReport, Parse: format.Unread(nsys.ReportWhy)},
	{Name: "Nsight Systems SQLite export", Kind: model.KindTrace, Sniff: nsys.IsExport, Parse: nsys.ReadExport},
	{Name: "PyTorch profiler / Kineto trace (JSON, gzip)", Kind: model.KindTrace, Sniff: traceLayout(trace.Kineto), Parse: readTrace},
	{Name: "Chrome-trace event array (torch_npu trace_view.json)", Kind: model.KindTrace, Sniff: traceLayout(trace.EventArray), Parse: readTrace, Capture: torchNPU},
	{Name: "Ascend kernel_details.csv / msprof op_summary", Kind: model.KindTrace, Sniff: traceLayout(trace.KernelDetails), Parse: readTrace, Capture: torchNPU},
	{Name: "Ascend op_statistic.csv", Kind: model.KindTrace, Sniff: traceLayout(trace.OpStatistic), Parse: readTrace, Capture: torchNPU},
	{Name: "Ascend step_trace_time.csv", Kind: model.KindTrace, Sniff: traceLayout(trace.StepTrace), Parse: readTrace, Capture: torchNPU},
	{Name: "torch_npu operator_details.csv", Kind: model.KindTrace, Sniff: traceLayout(trace.OperatorDetails), Parse: readTrace, Capture: torchNPU},
	{Name: "torch_npu api_statistic.csv", Kind: model.KindTrace, Sniff: traceLayout(trace.APIStatistic), Parse: readTrace, Capture: torchNPU},
	{Name: "torch_npu communication.json", Kind: model.KindTrace, Sniff: traceLayout(trace.Communication), Parse: readTrace, Capture: torchNPU},
	{Name: "torch_npu profiler_info_<rank>.json", Kind: model.KindTrace, Sniff: traceLayout(trace.ProfilerInfo), Parse: readTrace, Capture: torchNPU},

	{Name: "nsys stats report (CSV or console text)", Kind: model.KindTrace, Sniff: nsys.IsStats, Parse: nsys.ReadStatsFile, Capture: nsysStats},

	{Name: "MLPerf LoadGen summary (mlperf_log_summary.txt)", Kind: model.KindResult, Sniff: result.IsMLPerfSummary, Parse: result.ReadMLPerfSummary},
	{Name: "MLPerf LoadGen detail log (mlperf_log_detail.txt)", Kind: model.KindResult, Sniff: result.IsMLPerfDetail, Parse: result.ReadMLPerfDetail},
	{Name: "MLPerf LoadGen accuracy log (mlperf_log_accuracy.json)", Kind: model.KindOther, Sniff: result.IsMLPerfAccuracy, Parse: format.Unread(result.MLPerfAccuracyWhy)},
	{Name: "MLPerf system description (systems/<system>.json)", Kind: model.KindEnvironment, Sniff: result.IsMLPerfSystem, Parse: result.ReadMLPerfSystem, Applies: result.MLPerfSystemApplies},
	{Name: "inference-perf prometheus report (server metrics)", Kind: model.KindServerMetrics, Sniff: result.IsInferencePerfPrometheus, Parse: result.ReadInferencePerfPrometheus, Applies: result.InferencePerfPrometheusApplies},
	{Name: "inference-perf config.yaml", Kind: model.KindResult, Sniff: result.IsInferencePerfConfig, Parse: result.ReadInferencePerfConfig},
	{Name: "MindIE Benchmark output", Kind: model.KindOther, Sniff: result.IsMindIEBenchmark, Parse: format.Refuse(result.MindIEWhy)},
	{Name: "AISBench performances/<model>/<dataset>.json", Kind: model.KindResult, Sniff: result.IsAISBenchJSON, Parse: result.ReadAISBenchJSON},
	{Name: "AISBench performances/<model>/<dataset>.csv", Kind: model.KindResult, Sniff: result.IsAISBenchCSV, Parse: result.ReadAISBenchCSV},
	{Name: "AISBench performances/<model>/<dataset>_details.jsonl", Kind: model.KindResult, Sniff: result.IsAISBenchDetails, Parse: result.ReadAISBenchDetails},
	{Name: "EvalScope perf benchmark_summary.json", Kind: model.KindResult, Sniff: result.IsEvalScopeSummary, Parse: result.ReadEvalScopeSummary},
	{Name: "EvalScope perf benchmark_percentile.json", Kind: model.KindResult, Sniff: result.IsEvalScopePercentile, Parse: result.ReadEvalScopePercentile},
	{Name: "EvalScope perf benchmark_args.json", Kind: model.KindResult, Sniff: result.IsEvalScopeArgs, Parse: result.ReadEvalScopeArgs},
	{Name: "EvalScope perf sweep table (performance_summary.txt)", Kind: model.KindOther, Sniff: result.IsEvalScopeSweepSummary, Parse: format.Unread(result.EvalScopeSweepSummaryWhy)},
	{Name: "AIPerf roll-up table over runs (CSV)", Kind: model.KindOther, Sniff: result.IsRollupCSV, Parse: result.ReadRollupCSV},
	{Name: "genai-perf / AIPerf summary CSV", Kind: model.KindResult, Sniff: result.IsSummaryCSV, Parse: result.ReadSummaryCSV},
	{Name: "UTF-16 text", Kind: model.KindOther, Sniff: isUTF16, Parse: readUTF16},
	{Name: "benchmark result JSON (vLLM, SGLang, llmperf, genai-perf, AIPerf, GuideLLM)", Kind: model.KindResult, Sniff: result.IsJSON, Parse: result.ReadJSON, Plan: result.PlanJSON},

	// An environment dump may open with vLLM's import log lines (vllm-ascend's collect_env
	// does): its row stands before the server log's, and its sniff is exact.
	{Name: "environment dump (collect_env, check_env, nvidia-smi topo -m / -q, pip list / freeze)", Kind: model.KindEnvironment, Sniff: environment.Is, Parse: environment.Read},

	{Name: "vLLM / vllm-ascend / SGLang server log", Kind: model.KindLog, Sniff: isServerLog, Parse: readLog},

	{Name: "nvidia-smi dmon", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolDmon), Parse: readUtilisation},
	{Name: "nvidia-smi --query-gpu CSV", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolQuery), Parse: readUtilisation},
	{Name: "dcgmi dmon", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolDCGM), Parse: readUtilisation},
	{Name: "npu-smi info watch", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolNPUWatch), Parse: readUtilisation},
	{Name: "npu-smi info table", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolNPUInfo), Parse: readUtilisation},
	{Name: "rocm-smi", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolROCm), Parse: readUtilisation},
	{Name: "rocm-smi --csv", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolROCmCSV), Parse: readUtilisation},
	{Name: "rocm-smi --json", Kind: model.KindUtilisation, Sniff: utilTool(utilisation.ToolROCmJSON), Parse: readUtilisation},

	{Name: "phase list (which results were warm-up runs: windows.jsonl, phases.json, …)", Kind: model.KindPhases, Sniff: isPhaseList, Parse: readPhases},

	{Name: "server log (by its .log name)", Kind: model.KindLog, Sniff: namedLog, Parse: readLog},
}

func isManifest(f *format.File) bool {
	base := f.Base()
	return base == "bundle.yaml" || base == "bundle.yml"
}

func readManifest(f *format.File) (format.Parsed, error) {
	m, err := ParseManifest(f.Name, f.Data)
	return format.Parsed{Manifest: m}, err
}

func isEmpty(f *format.File) bool { return len(f.Lead()) == 0 }

// readEmpty refuses an empty file named like a result: a result gone wrong, not an attachment.
func readEmpty(f *format.File) (format.Parsed, error) {
	if result.NamedLikeResult(f) {
		return format.Parsed{}, errors.New("empty file")
	}
	return format.Parsed{}, nil
}

func isUTF16(f *format.File) bool {
	return bytes.HasPrefix(f.Data, []byte("\xff\xfe")) || bytes.HasPrefix(f.Data, []byte("\xfe\xff"))
}

func readUTF16(f *format.File) (format.Parsed, error) {
	if result.NamedLikeResult(f) {
		return format.Parsed{}, errors.New("UTF-16 text: save it as UTF-8")
	}
	return format.Parsed{}, nil
}

func traceLayout(l trace.Layout) func(*format.File) bool {
	return func(f *format.File) bool {
		return f.Sniffed("trace.Detect", func() any { return trace.Detect(f.Data) }).(trace.Layout) == l
	}
}

func readTrace(f *format.File) (format.Parsed, error) {
	t, err := trace.Parse(f.Name, f.Data, f.MaxBytes)
	if err != nil {
		return format.Parsed{}, err
	}
	return format.Parsed{Evidence: &model.Evidence{Trace: t, Format: t.Source, Facts: trace.Facts(t)}}, nil
}

// nsysStats is one `nsys stats -o BASE` run: its BASE_<report>.csv files are one trace.
var nsysStats = &Capture{Name: "nsys stats reports", Key: nsys.StatsKey, Read: nsys.ReadStats}

// torchNPU is torch_npu's export: the files of one rank's ASCEND_PROFILER_OUTPUT (and its
// profiler_info) are one trace with one set of figures.
var torchNPU = &Capture{Name: "torch_npu profiler export", Key: trace.CaptureKey, Read: readTorchNPU}

func readTorchNPU(files []*format.File) (format.Parsed, error) {
	cf := make([]trace.CaptureFile, len(files))
	for i, f := range files {
		cf[i] = trace.CaptureFile{Name: f.Name, Data: f.Data}
	}
	t, warnings, err := trace.ReadCapture(cf, files[0].MaxBytes)
	if err != nil {
		return format.Parsed{Warnings: model.Notes(warnings)}, err
	}
	name := t.Source
	if len(t.Files) > 1 {
		name = "torch_npu export"
	}
	return format.Parsed{Evidence: &model.Evidence{Trace: t, Format: name, Facts: trace.Facts(t)}, Warnings: model.Notes(warnings)}, nil
}

func isServerLog(f *format.File) bool { return serverlog.Sniff(f.Lead()) }

// namedLog takes a text file named .log that no format claimed for a server log, which then
// says what it found in it (often nothing).
func namedLog(f *format.File) bool { return strings.HasSuffix(strings.ToLower(f.Name), ".log") }

func readLog(f *format.File) (format.Parsed, error) {
	l, err := serverlog.Parse(f.Name, f.Data)
	if err != nil {
		return format.Parsed{}, err
	}
	name := strings.TrimSpace(l.Engine + " server log")
	if l.Client != nil {
		name = strings.TrimSpace(l.Engine + " benchmark client console")
	}
	return format.Parsed{Evidence: &model.Evidence{Log: l, Format: name}}, nil
}

func utilTool(tool string) func(*format.File) bool {
	return func(f *format.File) bool { return utilisation.Detect(f.Lead()) == tool }
}

func readUtilisation(f *format.File) (format.Parsed, error) {
	u, warnings, err := utilisation.Parse(f.Name, f.Data)
	if err != nil {
		return format.Parsed{}, err
	}
	return format.Parsed{Evidence: &model.Evidence{Utilisation: u, Format: u.Tool, Facts: utilisation.Facts(u)}, Warnings: model.Notes(warnings)}, nil
}
