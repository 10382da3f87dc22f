package environment

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers/position"
	"benchlens/model"
)

// Detect is exact: no server log, utilisation trace or result the project keeps is taken
// for an environment dump (the registry asks this row before the server log's).
func TestDetectClaimsNoOtherFormat(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../serverlog/testdata/*.log", "../../library/testdata/reallogs/*", "../utilisation/testdata/*.*",
		"../result/testdata/*/*", "../../testdata/fixtures/results/*", "../../demo/samples/*/run-1/*"} {
		names, _ := filepath.Glob(pattern)
		files = append(files, names...)
	}
	if len(files) < 30 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		if info, err := os.Stat(f); err != nil || info.IsDir() || strings.HasSuffix(f, ".md") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if tool := Detect(data); tool != "" {
			t.Errorf("%s taken for %s", f, tool)
		}
	}
}

// Every dump is told by its own tool, and the one that opens with vLLM's plugin log lines
// (04) is a collect_env, not a log.
func TestDetectNamesTheTool(t *testing.T) {
	want := map[string]string{
		"01_vllm-collect-env_v0.6.3_8xH100.txt":                         ToolCollectEnv,
		"04_vllm-ascend-collect-env_2025-03_8x910B2.txt":                ToolCollectEnv,
		"06_sglang-check-env_v0.5.13_8xH100.txt":                        ToolCheckEnv,
		"nvidia-smi-topo-m_470_4xV100.txt":                              ToolTopo,
		"nvidia-smi-q_550.54.15_2xH100.txt":                             ToolSMIQuery,
		"pip-list_vllm-0.8.5_cu124.txt":                                 ToolPipList,
		"pip-freeze_vllm-ascend-0.9.1.txt":                              ToolPipFreeze,
		"vllm-ascend-collect-env_v0.11.0rc1_2026_nofence_4x910B4-1.txt": ToolCollectEnv,
	}
	for _, name := range inputs(t) {
		w, ok := want[filepath.Base(name)]
		if !ok {
			continue
		}
		data, _ := os.ReadFile(name)
		if got := Detect(data); got != w {
			t.Errorf("%s: detected %q, want %q", name, got, w)
		}
		delete(want, filepath.Base(name))
	}
	if len(want) > 0 {
		t.Errorf("not found: %v", want)
	}
	for _, s := range []string{"torch==2.5.1\n", "Python: 3.10\nPyTorch: 2.1\n", "GPU0\tGPU1\n", "numpy==1\nsome text\ntorch==2\nvllm==0.6\n"} {
		if got := Detect([]byte(s)); got != "" {
			t.Errorf("%q detected as %q", s, got)
		}
	}
}

// A dump's facts point at the lines that state them: the line's text holds the value.
func TestFactsQuoteTheirLines(t *testing.T) {
	for _, name := range inputs(t) {
		data, _ := os.ReadFile(name)
		ev, _, err := Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(data), "\n")
		for k, f := range ev.Facts {
			if k == model.FactDeviceCount || k == model.FactDeviceMemory || k == model.FactInterconnect {
				continue // derived from the lines listed
			}
			if f.N < 1 || f.N > len(lines) {
				t.Errorf("%s: %s at line %d of %d", name, k, f.N, len(lines))
				continue
			}
			v := strings.TrimSuffix(f.Text, " MB")
			if k == model.FactCUDA && strings.Contains(lines[f.N-1], "+cu") {
				v = "+cu" + strings.ReplaceAll(v, ".", "") // check_env: CUDA from torch's local version
			}
			if !strings.Contains(lines[f.N-1], v) {
				t.Errorf("%s: %s = %q, but line %d is %q", name, k, f.Text, f.N, lines[f.N-1])
			}
		}
	}
}

// The container's CUDA_DRIVER_VERSION (file 01: 535.104.05) is not the host's driver.
func TestDriverIsTheHostsNotTheImages(t *testing.T) {
	data, err := os.ReadFile("../../testdata/fixtures/turn3-env/01_vllm-collect-env_v0.6.3_8xH100.txt")
	if err != nil {
		t.Fatal(err)
	}
	ev, _, _ := Parse("01", data)
	if got := ev.Facts[model.FactDriver]; got.Text != "550.90.12" || got.N != 27 {
		t.Errorf("driver %+v, want 550.90.12 at line 27", got)
	}
}

// Bytes no text holds refuse the file at their offset; a dump stating nothing is kept with a
// warning.
func TestBadInput(t *testing.T) {
	_, _, err := Parse("x", []byte("PyTorch version: 2.1\nIs debug build: False\n\x00"))
	var pe *position.Error
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Offset != 43 {
		t.Errorf("NUL: %v", err)
	}
	ev, warnings, err := Parse("x", []byte("PyTorch version: N/A\nIs debug build: N/A\n"))
	if err != nil || ev == nil || len(warnings) != 1 || !strings.Contains(warnings[0].English(), "states none") {
		t.Errorf("empty dump: %v %v %v", ev, warnings, err)
	}
	if _, _, err := Parse("x", []byte("hello\n")); err == nil {
		t.Error("a file of no known dump was read")
	}
}
