package nsys

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"benchlens/importers/format"
	"benchlens/importers/position"
)

// FuzzParse fuzzes the stats report reader (CSV and console text), seeded with the cases of
// testdata cut to their first lines; the SQLite reader leaves parsing to SQLite.
func FuzzParse(f *testing.F) {
	names, _ := filepath.Glob("testdata/stats-*/*")
	names = append(names, kernSum)
	for _, n := range names {
		if filepath.Base(n) == "expected.json" {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data[:min(len(data), 2<<10)])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := &format.File{Name: "f_cuda_api_sum.csv", Data: data}
		sniffed := IsStats(file)
		p, err := ReadStatsFile(file)
		if err != nil {
			var pe *position.Error
			if !errors.As(err, &pe) || pe.File != "f_cuda_api_sum.csv" {
				t.Fatalf("error without the file: %v", err)
			}
			if sniffed && pe.Line == 0 {
				t.Fatalf("a sniffed report's error without its line: %v", err)
			}
			return
		}
		ev := p.Evidence.Trace
		if ev.Kernels < 0 || ev.Launches.Count < 0 || ev.Syncs.Count < 0 || ev.DeviceTimeUs < 0 {
			t.Fatalf("%+v", ev)
		}
	})
}
