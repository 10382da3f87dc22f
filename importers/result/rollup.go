package result

import (
	"bytes"
	"fmt"

	"benchlens/importers/format"
	"benchlens/importers/jsonx"
)

// rollupWhy is what AIPerf's roll-ups over several runs are not: runs. With --num-profile-runs
// or a parameter sweep AIPerf writes, beside each run's own profile_export_aiperf.json, files
// that summarise the runs (aggregate/…_aggregate.json and .csv: mean, std and confidence
// interval over the runs; sweep_aggregate/…_sweep.json; …_collated.json: the runs' requests
// pooled). Read as a run, each would be one more repeat of the arm, counted twice.
const rollupWhy = ": the runs it summarises are read from their own profile_export_aiperf files"

// aiperfRollup says which roll-up obj is, or "" when it is none.
func aiperfRollup(obj map[string]any) string {
	kind := jsonx.Str(obj["aggregation_type"])
	if md := jsonx.Object(obj["metadata"]); kind == "" && md != nil {
		kind = jsonx.Str(md["aggregation_type"])
	}
	_, combined := obj["combined"]
	_, perRun := obj["per_run"]
	switch {
	case kind == "confidence":
		return "an AIPerf confidence aggregate over several runs (--num-profile-runs)" + rollupWhy
	case kind == "sweep":
		return "an AIPerf sweep aggregate across load points" + rollupWhy
	case kind != "":
		return fmt.Sprintf("an AIPerf aggregate (aggregation_type %q)", kind) + rollupWhy
	case combined && perRun:
		return "an AIPerf collated export (the requests of several runs pooled)" + rollupWhy
	}
	return ""
}

// IsRollupCSV sniffs AIPerf's roll-up tables over runs.
func IsRollupCSV(f *format.File) bool {
	lead := f.Lead()
	if len(lead) > 0 && (lead[0] == '{' || lead[0] == '[') {
		return false // JSON: no table, and no search of all of it for the sweep's Metadata
	}
	return csvRollup(lead) != ""
}

// ReadRollupCSV says which roll-up table the file is; it holds no run of its own.
func ReadRollupCSV(f *format.File) (format.Parsed, error) {
	return format.Parsed{Why: csvRollup(f.Lead())}, nil
}

// csvRollup says whether a CSV is AIPerf's aggregate table (metric,mean,std,… over runs) or
// its sweep table (one row per load point, then sections ending in a Metadata section that
// names the aggregation type).
func csvRollup(text []byte) string {
	switch {
	case bytes.HasPrefix(text, []byte("metric,mean,std,")):
		return "an AIPerf confidence aggregate table over several runs (metric,mean,std,…)" + rollupWhy
	case bytes.Contains(text, []byte("\nAggregation Type,sweep")):
		return "an AIPerf sweep aggregate table across load points (Aggregation Type,sweep)" + rollupWhy
	}
	return ""
}
