// Package importers turns what lab runs leave behind into typed records, without a database.
//
// A bundle (a file, a folder, a .zip or a .tar.gz) is read by ReadBundle into entries, streamed
// and bounded by Limits so a hostile archive is refused by the bytes it actually yields.
// Assemble offers each entry to the registry, Formats: one table of every kind of file
// benchlens recognises by content, asked in order, the first row whose Sniff says yes reading
// the file. Benchmark results of every tool and era (package result) become model.Run values
// at once; bundle.yaml manifests are merged nearest-wins; evidence — server logs (serverlog),
// utilisation traces (utilisation), profiler traces (trace), environment dumps (environment) —
// is read by ReadEvidence once
// the file has found its runs, so a file beside no run is never parsed. Assemble joins a
// bundle's results with the files beside and above them, one Item per run.
//
// A folder of many files is listed (ListBundle: its small files unread until Load) and
// planned (PlanBundle): each file is read and parsed once to group the runs as Assemble
// would, keeping of each run only what the grouping reads, and the results are read again a
// window at a time to be stored (Plan.Fill), so that an import holds the plan and a window,
// not every run of the folder with its records and bytes.
//
// Every error names its file and, where known, its line or byte offset (position.Error); a
// file nothing reads is reported with a reason (Skip), never dropped silently.
//
// # Adding a format
//
// A new format is one file and one row. Write the reader in the package of its stage (a
// result in result, evidence in serverlog, utilisation or trace, or a package of its own for
// a new kind of evidence), with two functions of the registry's signatures from package
// format:
//
//	func IsMLPerfSummary(f *format.File) bool                      // Sniff: name and first bytes only
//	func ReadMLPerfSummary(f *format.File) (format.Parsed, error)  // Parse: the whole file
//
// then add its row to Formats, before any broader row that would claim its files:
//
//	{Name: "MLPerf LoadGen summary", Kind: model.KindResult, Sniff: result.IsMLPerfSummary, Parse: result.ReadMLPerfSummary},
//
// What the row's Kind makes of the file:
//
//   - model.KindResult: Parse returns the runs (format.Parsed.Runs), or per-request records
//     for a summary in another file of the folder (Parsed.Part, paired by tool and stem). A
//     file that Sniff let through but is not the format after all returns
//     format.ErrUnrecognized, and the next row is asked.
//   - Evidence, any kind but result, manifest and other (model.KindLog, KindUtilisation,
//     KindTrace, or a new model.Kind* constant with its field in model.Evidence): Parse fills
//     Parsed.Evidence. It runs only for a file attached to a run, after Assemble; Sniff alone
//     decides the format, so it must be exact. library stores what Parse returns beside the
//     file; the analysis reads it from there.
//   - model.KindOther: a file recognised only to be kept unread, with a line saying what it
//     is and what to do (Parse: format.Unread("an Nsight Systems report: export it with
//     nsys export --type sqlite")), or refused (format.Refuse(why), or any error: the import
//     reports the file as rejected). A result format's Parse may say the same for one file
//     (Parsed.Why: an AIPerf roll-up over runs).
//
// Warnings (Parsed.Warnings) go to every run of the file, or to its evidence: each a
// model.Warning, a code of model.WarningCodes with its arguments (model.Warn), worded in every
// language at the edge; a reader's note not given a code yet is model.Note. Errors need
// not name the file: the registry adds it; a line or byte offset is the reader's to give
// (position.Error).
//
// A capture written as several files of one folder that make sense only together (torch_npu's
// ASCEND_PROFILER_OUTPUT) gives each of its evidence rows the same *Capture: its Key names the
// capture from a file's path, and its Read gets all the files of one capture beside a run and
// returns one piece of evidence, stored with the first file.
//
// Each reader has golden tests: inputs in its package's testdata with the expected JSON beside
// them (go test -update rewrites them; read the diff), and a file of every new format goes
// through cmd/benchlens's import-and-show golden as a user would import it.
package importers
