package environment

import (
	"os"
	"strings"
	"testing"

	"benchlens/importers/format"
)

// The npu-smi table a collect_env embeds is read by the utilisation reader's parser, so
// every layout it knows reads here too: an A5 table (NPU ID and Name in their own cells,
// NPU Util(%)), which the environment's own reader once skipped, gives its devices and the
// driver version at their lines.
func TestCollectEnvReadsEveryNPUSMILayout(t *testing.T) {
	base, err := os.ReadFile("testdata/vllm-ascend-collect-env_v0.11.0rc1_2026_nofence_4x910B4-1.txt")
	if err != nil {
		t.Fatal(err)
	}
	a5, err := os.ReadFile("../utilisation/testdata/npu_info_a5.txt")
	if err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(string(base), "\n")
	start, end := -1, -1
	for i, l := range ls {
		switch {
		case strings.HasPrefix(l, "NPU:"):
			start = i
		case strings.HasPrefix(l, "CANN:") && start >= 0:
			end = i
		}
	}
	if start < 0 || end < 0 {
		t.Fatal("no NPU: … CANN: block in the dump")
	}
	doc := strings.Join(ls[:start+1], "\n") + "\n" + strings.TrimRight(string(a5), "\n") + "\n" + strings.Join(ls[end:], "\n")
	p, err := Read(&format.File{Name: "collect_env.txt", Data: []byte(doc)})
	if err != nil {
		t.Fatal(err)
	}
	env := p.Evidence.Environment
	if len(env.Devices) == 0 {
		t.Fatal("no devices read from the A5 table")
	}
	docLines := strings.Split(doc, "\n")
	for _, d := range env.Devices {
		if d.Name == "" || d.Line == 0 || !strings.Contains(docLines[d.Line-1], d.Name) {
			t.Errorf("device %+v: its name is not on its line", d)
		}
		if d.MemoryMB.F() != 98304 {
			t.Errorf("device %s: %v MB, the table says 98 304", d.ID, d.MemoryMB)
		}
	}
	drv := env.Facts["driver_version"]
	if drv.Text == "" || !strings.Contains(docLines[drv.N-1], drv.Text) {
		t.Errorf("driver version %+v is not on its line", drv)
	}
}
