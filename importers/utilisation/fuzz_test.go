package utilisation

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/analysis/shape"
	"benchlens/importers/position"
	"benchlens/model"
)

// seeds are every testdata input plus the demo generator's traces, by name.
func seeds(t testing.TB) map[string][]byte {
	names, _ := filepath.Glob("testdata/*.*")
	out := map[string][]byte{}
	for _, n := range names {
		if strings.HasSuffix(n, ".md") {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = data
	}
	// The real npu-smi info tables (A2 910B3, A3) of the fixtures.
	real, _ := filepath.Glob("../../testdata/fixtures/turn3/npu_*_npusmi_*")
	for _, n := range real {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out["fixture-"+filepath.Base(n)] = data
	}
	for _, arm := range []string{"baseline", "offset"} {
		data, err := os.ReadFile(filepath.Join("../../demo/samples", arm, "run-1/gpu.csv"))
		if err != nil {
			t.Fatal(err)
		}
		out["demo-"+arm+"-gpu.csv"] = data
	}
	return out
}

func FuzzParse(f *testing.F) {
	for _, data := range seeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sniffed := Detect(data) != ""
		ev, warns, err := Parse("f", data)
		if err != nil {
			var e *position.Error
			if !errors.As(err, &e) || e.File != "f" || !strings.HasPrefix(err.Error(), "f: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if !sniffed {
			t.Fatal("Parse succeeded on data Detect refused")
		}
		if ev == nil || len(ev.Devices) == 0 {
			t.Fatalf("no devices and no error (warnings %q)", warns)
		}
		seen := map[string]bool{}
		for _, d := range ev.Devices {
			if d.ID == "" || seen[d.ID] {
				t.Fatalf("empty or repeated device id %q", d.ID)
			}
			seen[d.ID] = true
			if len(d.T) == 0 || len(d.T) != len(d.Busy) || (d.Memory != nil && len(d.Memory) != len(d.T)) {
				t.Fatalf("device %s: %d times, %d busy, %d memory", d.ID, len(d.T), len(d.Busy), len(d.Memory))
			}
			for _, x := range d.T {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("device %s: time %g", d.ID, x)
				}
			}
			sh := shape.ClassifyRun(d, shape.DefaultThresholds)
			if sh.Samples > len(d.Busy) {
				t.Fatalf("shape counts %d samples of %d", sh.Samples, len(d.Busy))
			}
		}
	})
}

// TestDemoShapes checks the demo generator's traces end as the shapes they were made to show.
func TestDemoShapes(t *testing.T) {
	for file, want := range map[string]model.ShapeClass{
		"../../demo/samples/baseline/run-1/gpu.csv": model.ShapeSustainedHigh,
		"../../demo/samples/offset/run-1/gpu.csv":   model.ShapeIntermittent,
	} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ev, _, err := Parse(file, data)
		if err != nil {
			t.Fatal(err)
		}
		if got := shape.ClassifyRun(ev.Devices[0], shape.DefaultThresholds); got.Class != want {
			t.Errorf("%s: %+v, want %s", file, got, want)
		}
	}
}

// dmonLog is about size bytes of `nvidia-smi dmon -o DT` output for 8 GPUs, with a header
// refresh every 100 ticks.
func dmonLog(size int) []byte {
	var b strings.Builder
	header := "#Date       Time        gpu    pwr  gtemp  mtemp     sm    mem    enc    dec    jpg    ofa   mclk   pclk\n" +
		"#YYYYMMDD   HH:MM:SS    Idx      W      C      C      %      %      %      %      %      %    MHz    MHz\n"
	for tick := 0; b.Len() < size; tick++ {
		if tick%100 == 0 {
			b.WriteString(header)
		}
		sod := (8*3600 + tick) % 86400
		for gpu := range 8 {
			sm := (tick*7 + gpu*13) % 101
			fmt.Fprintf(&b, " 20250325   %02d:%02d:%02d  %5d  %5d  %5d  %5d  %5d  %5d      0      0      0      0   2619   1980\n",
				sod/3600, sod/60%60, sod%60, gpu, 300+sm, 50+gpu, 60+gpu, sm, sm/2)
		}
	}
	return []byte(b.String())
}

func BenchmarkParseDmon10MB(b *testing.B) {
	data := dmonLog(10 << 20)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		ev, _, err := Parse("dmon.log", data)
		if err != nil || len(ev.Devices) != 8 {
			b.Fatal(err)
		}
	}
}
