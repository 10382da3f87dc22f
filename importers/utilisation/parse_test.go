package utilisation

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers/position"
	"benchlens/internal/goldenfile"
	"benchlens/model"
)

// TestParse compares the whole evidence and the warnings of every testdata trace and the demo
// traces, or the error of a refused one, with testdata/golden/<file>.json (go test -update
// rewrites them).
func TestParse(t *testing.T) {
	type record struct {
		Evidence *model.UtilEvidence `json:"evidence,omitempty"`
		Warnings []string            `json:"warnings"`
		Error    string              `json:"error,omitempty"`
	}
	for name, data := range seeds(t) {
		t.Run(name, func(t *testing.T) {
			ev, warns, err := Parse(name, data)
			rec := record{Evidence: ev, Warnings: warns}
			if err != nil {
				rec.Error = err.Error()
			} else if Detect(data) == "" {
				t.Errorf("Detect found no tool, yet Parse reads it")
			}
			if ev != nil {
				for _, d := range ev.Devices {
					if len(d.Busy) != len(d.T) || d.Memory != nil && len(d.Memory) != len(d.T) {
						t.Errorf("device %s: %d busy, %d memory values for %d samples", d.ID, len(d.Busy), len(d.Memory), len(d.T))
					}
				}
			}
			goldenfile.JSON(t, filepath.Join("testdata", "golden", name+".json"), rec)
		})
	}
}

var nan = math.NaN()

func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, data string
		want       string // the error text
	}{
		{"results.csv", "Metric,avg,min\nTTFT,1,2\n", "results.csv: not a utilisation trace"},
		{"empty.txt", "", "empty.txt: not a utilisation trace"},
		{"short.csv", "timestamp, index, utilization.gpu [%]\n2025/03/25 22:31:57.123, 0\n", "short.csv: line 2: no usable sample: row with too few fields"},
		{"header.txt", "# gpu     sm    mem\n# Idx      %      %\n", "header.txt: line 1: no samples"},
		{"nounits.csv", "0, 64, 20, 55\n1, 61, 19, 53\n", "nounits.csv: not a utilisation trace"},
		{"nounits-ts.csv", "2025/03/25 22:31:57.123, 0, 64, 20\n", "nounits-ts.csv: line 1: noheader CSV without units"},
		{"cut.json", "{\"card0\":\n {\"GPU use (%)\": \"9\"\n\n", "cut.json: line 2: bad JSON"},
		{"bad.json", "{\"card0\":\n {\"GPU use (%)\": 9,,}}\n", "bad.json: line 2: bad JSON"},
		// `npu-smi info -t usages` without -i (more-formats.md §3.5): its help text is no sample.
		{"usages.txt", "This command must input card id.\nUsage: npu-smi info -t usages -i <card_id> [-c <chip_id>]\n\nOptions:\n  -i      card id\n", "usages.txt: not a utilisation trace"},
	}
	for _, tc := range tests {
		_, _, err := Parse(tc.name, []byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("Parse(%s) error %v, want prefix %q", tc.name, err, tc.want)
			continue
		}
		var e *position.Error
		if !errors.As(err, &e) || e.File != tc.name {
			t.Errorf("Parse(%s): error %T does not name the file", tc.name, err)
		}
	}
}

func TestSniffRejects(t *testing.T) {
	for _, s := range []string{
		"Metric,avg,min,max\nTime To First Token (ms),1,2,3\n",
		"INFO 03-25 22:31:57 [api_server.py:1090] vLLM API server version 0.10.1\n",
		`{"date": "20250325-223157", "backend": "vllm", "request_throughput": 3.2}`,
		"a,b,c\n1,2,3\n",
		"# a comment\nplain text\n",
	} {
		if Detect([]byte(s)) != "" {
			t.Errorf("Detect accepted %q", s)
		}
	}
}

func TestTimeHelpers(t *testing.T) {
	var c clock
	got := []float64{c.seconds(86390), c.seconds(86399), c.seconds(5), c.seconds(4), c.seconds(100)}
	want := []float64{86390, 86399, 86405, 86404, 86500}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("clock %d = %g, want %g", i, got[i], want[i])
		}
	}
	if s, ok := parseHMS("22:31:57.250"); !ok || s != 22*3600+31*60+57.25 {
		t.Errorf("parseHMS = %g %v", s, ok)
	}
	for _, bad := range []string{"24:00:00", "22:31", "22:31:5x", "22:31:57."} {
		if _, ok := parseHMS(bad); ok {
			t.Errorf("parseHMS(%q) accepted", bad)
		}
	}
	for in, want := range map[string]float64{"97 %": 97, "95.12 W": 95.12, "41.0°C": 41, "1600Mhz": 1600, "[N/A]": nan, "[Not Supported]": nan, "-": nan, "N/A": nan} {
		if v, ok := value(in); !ok || !same(v, want) {
			t.Errorf("value(%q) = %g %v, want %g", in, v, ok, want)
		}
	}
	for _, bad := range []string{"abc", "12 34", "%"} {
		if _, ok := value(bad); ok {
			t.Errorf("value(%q) accepted", bad)
		}
	}
	if naturalCmp("2", "10") >= 0 || naturalCmp("0-1", "0-10") >= 0 || naturalCmp("GPU-I 1", "0") <= 0 {
		t.Error("naturalCmp order")
	}
}
