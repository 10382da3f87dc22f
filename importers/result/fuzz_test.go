package result

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzParseFile feeds ParseFile the real fixtures, the testdata files and small odd inputs:
// whatever the bytes, it must return (an error at worst), never panic.
func FuzzParseFile(f *testing.F) {
	fixtures(func(name string, data []byte) { f.Add(name, data) }, "*")
	for _, s := range []string{
		`{"experiments": [{"requests": [{"timestamp": 1, "response_timestamps": [2], "response_outputs": [{"response": "data: {\"choices\": []}"}]}]}]}`,
		`{"benchmarks": [{"type_": "generative_benchmark", "metrics": {"request_totals": null}}]}`,
		`[{"ttft_s": NaN, "end_to_end_latency_s": Infinity, "error_code": 1}]`,
		"Metric,avg,min\n\"1,2\",x\n",
		"Metric,avg,\n\"",         // an unterminated quote once panicked in csv.Reader.FieldPos
		"Metric,avg,\n\"a\nb\",1", // a row name on two lines once escaped the name pattern
		`{"dataset_name": "random", "server_info": {"prefill": [null]}, "itls": [1]}`,
	} {
		f.Add("f.json", []byte(s))
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		_, _ = parseFile(name, data)
	})
}

// fixtures hands add each real fixture and testdata file below 128 KiB whose name matches
// pattern, by base name, as a fuzz seed.
func fixtures(add func(name string, data []byte), pattern string) {
	for _, glob := range []string{
		filepath.Join("..", "..", "testdata", "fixtures", "results", pattern),
		filepath.Join("testdata", "*", pattern),
	} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && len(data) < 1<<17 {
				add(filepath.Base(file), data)
			}
		}
	}
}
