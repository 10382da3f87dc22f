package result

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers/format"
	"benchlens/model"
)

// labSeeds are the AISBench and EvalScope testdata files whose names end in one of suffixes.
func labSeeds(f *testing.F, suffixes ...string) {
	for _, dir := range []string{"testdata/aisbench", "testdata/evalscope", "testdata/mindie"} {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			for _, s := range suffixes {
				if strings.HasSuffix(p, s) {
					if data, err := os.ReadFile(p); err == nil {
						f.Add(data)
					}
				}
			}
			return nil
		})
	}
}

// FuzzLabJSON feeds AISBench's and EvalScope's JSON readers (run metrics, statistics,
// percentiles, args, details lines) any bytes: an error at worst, never a panic, and a run's
// counts are never negative when the file's are not.
func FuzzLabJSON(f *testing.F) {
	labSeeds(f, ".json", ".jsonl", ".csv")
	for _, s := range []string{
		`{"Benchmark Duration": {"total": "1 ms"}, "Total Requests": {"total": "x token/s"}}`,
		`{"Benchmark Duration": {"stable": null}, "Success Requests": 3}`,
		"Performance Parameters,Stage,Average\nE2EL,total,1 h\n",
		"Performance Parameters,Stage,P0,P100,Pxx\nTTFT,stable,1 ms,2 ms\n",
		`[{"Percentiles": "50%", "TTFT (s)": "1"}, {"Percentiles": "max"}]`,
		`{"data_abbr": "a", "time_points": [1, 0], "output_tokens": -5, "success": true}`,
		`{"data_abbr": "a", "time_points": {"__db_ref__": 1}, "db_name": "../../x", "success": true}`,
		`{"Time taken for tests (s)": -1, "Succeed requests": 1e308, "Average input tokens per request": 1e308}`,
	} {
		f.Add([]byte(s))
	}
	readers := []func(*format.File) (format.Parsed, error){ReadAISBenchJSON, ReadAISBenchCSV, ReadAISBenchDetails,
		ReadEvalScopeSummary, ReadEvalScopePercentile, ReadEvalScopeArgs}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, read := range readers {
			p, err := read(&format.File{Name: "performances/m/d.json", Data: data})
			if err != nil {
				continue
			}
			if p.Part != nil {
				if p.Part.Resolve != nil {
					p.Part.Resolve(map[string][]byte{})
				}
				if p.Part.Fill != nil {
					p.Part.Fill(model.NewRun(p.Part.Tool))
				}
			}
		}
	})
}

// FuzzNumpy feeds the .npy reader of AISBench's time points any bytes.
func FuzzNumpy(f *testing.F) {
	f.Add([]byte("\x93NUMPY\x01\x00\x76\x00{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }" + strings.Repeat(" ", 51) + "\n" + strings.Repeat("\x00", 16)))
	f.Add([]byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f{'descr': '>i4', 'shape': (3,)}"))
	f.Add([]byte("\x93NUMPY\x01\x00\x30\x00{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"))
	// A shape whose byte count overflows an int once passed the length check.
	f.Add([]byte("\x93NUMPY\x01\x00\x4c\x00{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		arr, err := readNpy(data)
		if err == nil && len(arr)*4 > len(data) {
			t.Fatalf("%d values from %d bytes", len(arr), len(data))
		}
	})
}

// FuzzEvalScopeDB feeds the per-request SQLite reader EvalScope's databases with bytes
// changed: SQLite refuses what is broken, the reader reports it, nothing panics.
func FuzzEvalScopeDB(f *testing.F) {
	labSeeds(f, "benchmark_data.db")
	f.Fuzz(func(t *testing.T, data []byte) {
		file := &format.File{Name: "benchmark_data.db", Data: data}
		if !IsEvalScopeDB(file) {
			return
		}
		_, _ = ReadEvalScopeDB(file)
	})
}

// TestNumpyShapes reads the store's arrays and refuses the shapes that do not fit their bytes.
func TestNumpyShapes(t *testing.T) {
	header := func(descr, shape string) string {
		h := "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + shape + "), }\n"
		return "\x93NUMPY\x01\x00" + string([]byte{byte(len(h)), 0}) + h
	}
	for _, c := range []struct {
		name, data string
		want       []float64
		err        bool
	}{
		{"two float64", header("<f8", "2,") + "\x00\x00\x00\x00\x00\x00\xf0\x3f\x00\x00\x00\x00\x00\x00\x00\x40", []float64{1, 2}, false},
		{"int32", header("<i4", "1,") + "\x07\x00\x00\x00", []float64{7}, false},
		{"overflowing shape", header("<f8", "2305843009213693952,"), nil, true},
		{"shape beyond int", header("<f8", "99999999999999999999,"), nil, true},
		{"cut short", header("<f8", "3,") + "\x00\x00", nil, true},
		{"not npy", "SQLite format 3", nil, true},
	} {
		got, err := readNpy([]byte(c.data))
		if (err != nil) != c.err || len(got) != len(c.want) {
			t.Errorf("%s: %v, %v", c.name, got, err)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
			}
		}
	}
}
