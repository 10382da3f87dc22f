package trace

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"testing"
)

// seedEvents is how many elements of each array a fuzz seed keeps.
const seedEvents = 2

// maxSeedBytes bounds a fuzz seed: the fuzzer minimises every new interesting input it derives
// from a seed, and minimising tens of kilobytes takes its whole minute each time.
const maxSeedBytes = 2 << 10

// fuzzSeed cuts a real trace down to a few events of the same shape: the first lines of a CSV,
// the first elements of each top-level JSON array (the trace's own, or traceEvents and
// deviceProperties), gzipped again when the input was gzipped.
func fuzzSeed(data []byte) []byte {
	if zr, err := gzip.NewReader(bytes.NewReader(data)); err == nil {
		plain, err := io.ReadAll(zr)
		if err != nil {
			return data
		}
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(fuzzSeed(plain))
		zw.Close()
		return buf.Bytes()
	}
	var events []json.RawMessage
	if json.Unmarshal(data, &events) == nil {
		out, _ := json.Marshal(events[:min(len(events), seedEvents)])
		return out
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) == nil {
		for k, v := range obj {
			if json.Unmarshal(v, &events) == nil {
				obj[k], _ = json.Marshal(events[:min(len(events), seedEvents)])
			}
		}
		out, _ := json.Marshal(obj)
		return out
	}
	lines := bytes.SplitAfterN(data, []byte("\n"), seedEvents+2)
	return bytes.Join(lines[:min(len(lines), seedEvents+1)], nil)
}

// TestFuzzParseStallsOnBigSeeds: FuzzParse stopped at 13 executions with its worker busy, because
// it was minimising an input grown from a 38 KB seed; every seed now stays small.
func TestFuzzParseStallsOnBigSeeds(t *testing.T) {
	all := seeds()
	if len(all) < 8 {
		t.Fatalf("%d seeds, want the fixtures and testdata", len(all))
	}
	for i, s := range all {
		if len(s) > maxSeedBytes {
			t.Errorf("seed %d is %d bytes, want at most %d", i, len(s), maxSeedBytes)
		}
	}
}
