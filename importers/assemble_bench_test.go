package importers

import "testing"

// BenchmarkAssemble identifies and reads every real fixture as one bundle (results, traces,
// logs, utilisation, environment dumps): the registry's cost beside the readers'.
func BenchmarkAssemble(b *testing.B) {
	entries, errs := ReadBundle("../testdata/fixtures", DefaultLimits)
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	for b.Loop() {
		Assemble(entries)
	}
}
