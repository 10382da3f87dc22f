package result

import (
	"errors"

	"benchlens/importers/format"
)

// parseFile reads a file as the registry's result rows do (importers.Formats: the roll-up CSV,
// the summary CSV, then JSON). A file of none of them gives nothing and no error.
func parseFile(name string, data []byte) (format.Parsed, error) {
	f := &format.File{Name: name, Data: data}
	rows := []struct {
		sniff func(*format.File) bool
		read  func(*format.File) (format.Parsed, error)
	}{{IsMLPerfSummary, ReadMLPerfSummary}, {IsMLPerfDetail, ReadMLPerfDetail}, {IsMLPerfSystem, ReadMLPerfSystem},
		{IsInferencePerfPrometheus, ReadInferencePerfPrometheus}, {IsInferencePerfConfig, ReadInferencePerfConfig},
		{IsMindIEBenchmark, func(*format.File) (format.Parsed, error) { return format.Parsed{}, errors.New(MindIEWhy) }},
		{IsAISBenchJSON, ReadAISBenchJSON}, {IsAISBenchCSV, ReadAISBenchCSV}, {IsAISBenchDetails, ReadAISBenchDetails},
		{IsEvalScopeSummary, ReadEvalScopeSummary}, {IsEvalScopePercentile, ReadEvalScopePercentile}, {IsEvalScopeArgs, ReadEvalScopeArgs},
		{IsEvalScopeDB, ReadEvalScopeDB}, {IsAISBenchNumpyStore, func(*format.File) (format.Parsed, error) { return format.Parsed{Why: AISBenchNumpyStoreWhy}, nil }},
		{IsEvalScopeSweepSummary, func(*format.File) (format.Parsed, error) { return format.Parsed{Why: EvalScopeSweepSummaryWhy}, nil }},
		{IsRollupCSV, ReadRollupCSV}, {IsSummaryCSV, ReadSummaryCSV}, {IsJSON, ReadJSON}}
	for _, row := range rows {
		if len(f.Lead()) > 0 && row.sniff(f) {
			p, err := row.read(f)
			if errors.Is(err, format.ErrUnrecognized) {
				continue
			}
			for _, r := range p.Runs {
				r.Warnings = append(r.Warnings, p.Warnings...)
			}
			return p, err
		}
	}
	return format.Parsed{}, nil
}
