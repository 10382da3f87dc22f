package utilisation

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers/position"
	"benchlens/model"
)

// sample is one expected point: device index in Devices, sample index, T and busy (NaN for
// a missing value).
type sample struct {
	dev, i  int
	t, busy float64
}

type golden struct {
	file     string
	tool     string
	ids      []string
	names    []string // "" entries are not checked when nil
	counts   []int    // samples per device
	start    string
	samples  []sample
	memory   []sample // busy field holds the expected memory %
	noMemory bool
	warns    []string // substrings that must appear among the warnings
	noWarns  bool
}

var nan = math.NaN()

var goldens = []golden{
	{
		file: "dmon_default.txt", tool: ToolDmon,
		ids: []string{"0", "1"}, counts: []int{4, 5},
		samples: []sample{{0, 0, 0, 0}, {0, 1, 1, 97}, {1, 2, 2, nan}, {0, 3, 3, 96}, {1, 4, 4, 3}},
		memory:  []sample{{0, 1, 1, 41}, {1, 2, 2, nan}},
		warns:   []string{"samples assumed 1 s apart", "skipped 1 row: row with a different number of fields than its header (line 14)"},
	},
	{
		file: "dmon_all_groups_dt.txt", tool: ToolDmon,
		ids: []string{"0", "1"}, counts: []int{3, 3}, start: "2025-03-25T22:31:57",
		samples: []sample{{0, 0, 0, 91}, {1, 0, 0, 88}, {0, 2, 4, 92}, {1, 1, 2, 90}},
		memory:  []sample{{1, 2, 4, 33}},
		noWarns: true,
	},
	{
		file: "dmon_u_ot_midnight.txt", tool: ToolDmon,
		ids: []string{"0"}, counts: []int{6},
		samples: []sample{{0, 0, 0, 92}, {0, 2, 2, 6}, {0, 3, 3, 93}, {0, 5, 5, 91}},
		warns:   []string{"prints no date", "past midnight 1 time"},
	},
	{
		file: "dmon_old_driver_od.txt", tool: ToolDmon,
		ids: []string{"0"}, counts: []int{3},
		samples: []sample{{0, 0, 0, 78}, {0, 2, 2, 79}},
		memory:  []sample{{0, 1, 1, 31}},
		warns:   []string{"only the date", "assumed 1 s apart"},
	},
	{
		file: "dmon_p_only.txt", tool: ToolDmon,
		ids: []string{"0"}, counts: []int{2}, noMemory: true,
		samples: []sample{{0, 0, 0, nan}, {0, 1, 1, nan}},
		warns:   []string{"no sm column"},
	},
	{
		file: "query_units.csv", tool: ToolQuery,
		ids: []string{"0", "1"}, names: []string{"NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-80GB"},
		counts: []int{3, 2}, start: "2025-03-25T22:31:57.123",
		samples: []sample{{0, 0, 0, 97}, {1, 0, 0.002, 95}, {0, 1, 1.001, nan}, {0, 2, 2.002, 98}, {1, 1, 1.003, 96}},
		memory:  []sample{{0, 1, 1.001, nan}, {1, 1, 1.003, 41}},
		warns:   []string{"skipped 1 row: row with too few fields (line 7)"},
	},
	{
		file: "query_nounits.csv", tool: ToolQuery,
		ids: []string{"0"}, counts: []int{4},
		samples: []sample{{0, 0, 0, 88}, {0, 1, 1, 5}, {0, 3, 3, 7}},
		warns:   []string{"assumed 1 s apart"},
	},
	{
		file: "query_noheader.csv", tool: ToolQuery,
		ids: []string{"0", "1"}, names: []string{"NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3"},
		counts: []int{3, 3}, start: "2025-12-31T23:59:58.501",
		samples: []sample{{0, 0, 0, 93}, {1, 1, 0.503, nan}, {0, 2, 1.502, 92}, {1, 2, 1.504, 90}},
		memory:  []sample{{0, 1, 0.501, 41}},
		warns:   []string{"columns inferred from the values (timestamp=1, index=2, name=3, utilization.gpu=4, utilization.memory=5)"},
	},
	{
		file: "query_noheader_nounits_cmd.csv", tool: ToolQuery,
		ids: []string{"0", "1"}, counts: []int{2, 2},
		samples: []sample{{0, 0, 0, 64}, {1, 0, 0, 61}, {0, 1, 0.5, 66}, {1, 1, 0.5, 60}},
		memory:  []sample{{1, 1, 0.5, 18}},
		warns:   []string{"echoed --query-gpu list", "spaced 0.5 s apart as nvidia-smi -lms 500"},
	},
	{
		file: "dcgmi_dev.txt", tool: ToolDCGM,
		ids: []string{"0", "1"}, counts: []int{3, 3},
		samples: []sample{{0, 0, 0, 97}, {1, 0, 0, nan}, {0, 1, 0.5, 98}, {1, 2, 1, 11}},
		memory:  []sample{{0, 2, 1, 3}, {1, 0, 0, nan}},
		warns:   []string{"spaced 0.5 s apart as dcgmi -d 500", "entity is not a GPU (Switch) (line 8)"},
	},
	{
		file: "dcgmi_prof.txt", tool: ToolDCGM,
		ids: []string{"0"}, counts: []int{3},
		samples: []sample{{0, 0, 0, 91.2}, {0, 2, 2, 5.1}},
		memory:  []sample{{0, 1, 1, 42}},
		warns:   []string{"busy is GRACT ×100", "assumed 1 s apart"},
	},
	{
		file: "npu_watch_classic.txt", tool: ToolNPUWatch,
		ids: []string{"0", "1"}, counts: []int{4, 3},
		samples: []sample{{0, 0, 0, 0}, {0, 1, 1, 87}, {0, 2, 2, nan}, {0, 3, 3, 90}, {1, 2, 2, 86}},
		memory:  []sample{{0, 1, 1, 41}, {0, 2, 2, nan}},
		warns:   []string{"assumed 1 s apart", "skipped 1 row"},
	},
	{
		file: "npu_watch_new.txt", tool: ToolNPUWatch,
		ids: []string{"2"}, counts: []int{3},
		samples: []sample{{0, 0, 0, 93}, {0, 1, 2, 94}, {0, 2, 4, 8}},
		memory:  []sample{{0, 2, 4, 4}},
		warns:   []string{"spaced 2 s apart as npu-smi -d 2"},
	},
	{
		file: "npu_watch_reduced.txt", tool: ToolNPUWatch,
		ids: []string{"0-0", "0-1"}, counts: []int{2, 2}, noMemory: true,
		samples: []sample{{0, 0, 0, 55}, {1, 0, 0, 57}, {0, 1, 1, 60}, {1, 1, 1, 58}},
	},
	{
		file: "npu_info_910b.txt", tool: ToolNPUInfo,
		ids: []string{"0", "1", "2", "3"}, names: []string{"910B3", "910B3", "910B3", "910B3"},
		counts: []int{1, 1, 1, 1}, noMemory: true,
		samples: []sample{{0, 0, 0, 91}, {1, 0, 0, 88}, {2, 0, 0, 0}, {3, 0, 0, nan}},
		warns:   []string{"snapshot"},
	},
	{
		file: "npu_info_a3_watch.txt", tool: ToolNPUInfo,
		ids: []string{"0-0", "0-1"}, names: []string{"Ascend910", "Ascend910"}, counts: []int{2, 2},
		samples: []sample{{0, 0, 0, 76}, {1, 0, 0, 72}, {0, 1, 2, 4}, {1, 1, 2, 5}},
		warns:   []string{"spaced 2 s apart as watch -n 2"},
	},
	{
		file: "rocm_legacy.txt", tool: ToolROCm,
		ids: []string{"0", "1"}, counts: []int{2, 2}, noMemory: true,
		samples: []sample{{0, 0, 0, 0}, {1, 0, 0, 98}, {1, 1, 1, 96}},
		warns:   []string{"spaced 1 s apart as watch -n 1"},
	},
	{
		file: "rocm_6x.txt", tool: ToolROCm,
		ids: []string{"0", "1", "2"}, counts: []int{1, 1, 1},
		samples: []sample{{0, 0, 0, 93}, {1, 0, 0, nan}, {2, 0, 0, 95}},
		warns:   []string{"assumed 1 s apart"},
	},
	{
		file: "rocm_showuse.txt", tool: ToolROCm,
		ids: []string{"0", "1"}, counts: []int{2, 2},
		samples: []sample{{0, 0, 0, 96}, {1, 0, 0, 94}, {0, 1, 1, 7}, {1, 1, 1, nan}},
		memory:  []sample{{0, 0, 0, 38}, {1, 1, 1, 1}},
	},
	{
		file: "rocm.csv", tool: ToolROCmCSV,
		ids: []string{"0", "1"}, names: []string{"AMD Instinct MI300X", "AMD Instinct MI300X"}, counts: []int{2, 2},
		samples: []sample{{0, 0, 0, 97}, {1, 0, 0, 95}, {0, 1, 1, 8}, {1, 1, 1, nan}},
		memory:  []sample{{0, 0, 0, 41}, {1, 1, 1, nan}},
		warns:   []string{"skipped 1 row: row with a different number of fields than its header (line 7)"},
	},
	{
		file: "rocm.json", tool: ToolROCmJSON,
		ids: []string{"0", "1"}, names: []string{"AMD Instinct MI250X", "AMD Instinct MI250X"}, counts: []int{2, 2},
		samples: []sample{{0, 0, 0, 92}, {1, 0, 0, 90}, {0, 1, 1, 4}, {1, 1, 1, 3}},
		memory:  []sample{{0, 1, 1, 1}, {1, 1, 1, nan}},
	},
	{
		file: "../../../demo/samples/baseline/run-1/gpu.csv", tool: ToolQuery,
		ids: []string{"0"}, names: []string{"NVIDIA H100 80GB HBM3"}, counts: []int{14}, start: "2026-01-12T09:41:41.836",
		samples: []sample{{0, 0, 0, 96}, {0, 1, 0.501, 93}, {0, 13, 6.521, 94}},
		memory:  []sample{{0, 0, 0, 44}},
		noWarns: true,
	},
	{
		file: "../../../demo/samples/offset/run-1/gpu.csv", tool: ToolQuery,
		ids: []string{"0"}, counts: []int{14}, start: "2026-01-13T14:11:53.375",
		samples: []sample{{0, 0, 0, 88}, {0, 1, 0.501, 10}, {0, 13, 6.526, 15}},
		noWarns: true,
	},
}

func same(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return a == b
}

func TestParseGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(g.file)))+"/"+filepath.Base(g.file), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", g.file))
			if err != nil {
				t.Fatal(err)
			}
			if !Sniff(g.file, data) {
				t.Errorf("Sniff = false")
			}
			ev, warns, err := Parse(g.file, data)
			if err != nil {
				t.Fatalf("Parse: %v (warnings %q)", err, warns)
			}
			if ev.Tool != g.tool {
				t.Errorf("tool %q, want %q", ev.Tool, g.tool)
			}
			var ids []string
			for _, d := range ev.Devices {
				ids = append(ids, d.ID)
			}
			if strings.Join(ids, ",") != strings.Join(g.ids, ",") {
				t.Fatalf("ids %q, want %q", ids, g.ids)
			}
			for i, d := range ev.Devices {
				if g.names != nil && d.Name != g.names[i] {
					t.Errorf("device %s name %q, want %q", d.ID, d.Name, g.names[i])
				}
				if len(d.T) != g.counts[i] || len(d.Busy) != g.counts[i] {
					t.Errorf("device %s: %d times, %d busy, want %d", d.ID, len(d.T), len(d.Busy), g.counts[i])
				}
				if d.Memory != nil && len(d.Memory) != len(d.T) {
					t.Errorf("device %s: %d memory values for %d samples", d.ID, len(d.Memory), len(d.T))
				}
				if g.noMemory && d.Memory != nil {
					t.Errorf("device %s: memory %v, want none", d.ID, d.Memory)
				}
				if d.Start != g.start {
					t.Errorf("device %s start %q, want %q", d.ID, d.Start, g.start)
				}
			}
			for _, s := range g.samples {
				d := ev.Devices[s.dev]
				if s.i >= len(d.T) {
					t.Errorf("device %s has no sample %d", d.ID, s.i)
					continue
				}
				if !same(d.T[s.i], s.t) || !same(d.Busy[s.i], s.busy) {
					t.Errorf("device %s sample %d = (t %g, busy %g), want (t %g, busy %g)", d.ID, s.i, d.T[s.i], d.Busy[s.i], s.t, s.busy)
				}
			}
			for _, s := range g.memory {
				d := ev.Devices[s.dev]
				if s.i >= len(d.Memory) {
					t.Errorf("device %s has no memory sample %d", d.ID, s.i)
					continue
				}
				if !same(d.T[s.i], s.t) || !same(d.Memory[s.i], s.busy) {
					t.Errorf("device %s memory %d = (t %g, %g), want (t %g, %g)", d.ID, s.i, d.T[s.i], d.Memory[s.i], s.t, s.busy)
				}
			}
			all := strings.Join(warns, "\n")
			for _, w := range g.warns {
				if !strings.Contains(all, w) {
					t.Errorf("no warning containing %q in:\n%s", w, all)
				}
			}
			if g.noWarns && len(warns) > 0 {
				t.Errorf("unexpected warnings: %q", warns)
			}
		})
	}
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
		if Sniff("x", []byte(s)) {
			t.Errorf("Sniff accepted %q", s)
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

var _ = model.ShapeLow
