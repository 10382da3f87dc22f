package nsys

import (
	"database/sql"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"benchlens/analysis/shape"
	"benchlens/importers/format"
	"benchlens/internal/goldenfile"
	"benchlens/model"
)

// fixture is the real export of more-formats.md G3 (file 03): Nsight Systems 2024.5.1.113,
// schema 3.13.2, CloverLeaf on Perlmutter's 4 × A100-SXM4-80GB.
const fixture = "../../testdata/fixtures/turn3/gpu_03_perlmutter-cloverleaf-cuda.sqlite"

// buildExport writes the export an input.sql of testdata describes (gen.py wrote them; see
// its docstring for the version each imitates) and returns its path.
func buildExport(t testing.TB, sqlFile string) string {
	t.Helper()
	script, err := os.ReadFile(sqlFile)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(filepath.Dir(sqlFile))+".sqlite")
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatalf("%s: %v", sqlFile, err)
	}
	return path
}

// exportCases are the exports of the goldens: the real one and gen.py's two imitations.
func exportCases(t *testing.T) map[string]string {
	return map[string]string{
		"fixture-2024.5-cloverleaf": fixture,
		"export-2022.2":             buildExport(t, "testdata/export-2022.2/input.sql"),
		"export-2024.5":             buildExport(t, "testdata/export-2024.5/input.sql"),
	}
}

// goldenTimeline keeps a golden small: each device's shape and first bins.
type goldenTimeline struct {
	Tool    string         `json:"tool"`
	Devices []goldenDevice `json:"devices"`
}

type goldenDevice struct {
	ID      string       `json:"id"`
	Name    string       `json:"name"`
	Samples int          `json:"samples"`
	BinS    float64      `json:"bin_s"`
	First   model.Series `json:"first_busy"`
	Shape   model.Shape  `json:"shape"`
}

// TestGolden compares what each export reads as with testdata/<case>/expected.json (go test
// -update rewrites them).
func TestGolden(t *testing.T) {
	for name, path := range exportCases(t) {
		t.Run(name, func(t *testing.T) {
			ev, facts, warnings, err := ReadExportFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var tl *goldenTimeline
			if ev.Timeline != nil {
				tl = &goldenTimeline{Tool: ev.Timeline.Tool}
				for _, d := range ev.Timeline.Devices {
					g := goldenDevice{ID: d.ID, Name: d.Name, Samples: len(d.T), First: d.Busy[:min(5, len(d.Busy))],
						Shape: shape.ClassifyRun(d, shape.DefaultThresholds)}
					if len(d.T) > 1 {
						g.BinS = d.T[1] - d.T[0]
					}
					tl.Devices = append(tl.Devices, g)
				}
				ev.Timeline = nil
			}
			goldenfile.JSON(t, filepath.Join("testdata", name, "expected.json"), struct {
				Trace    *model.TraceEvidence `json:"trace"`
				Timeline *goldenTimeline      `json:"timeline"`
				Facts    *model.Facts         `json:"facts"`
				Warnings []model.Warning      `json:"warnings"`
			}{ev, tl, facts, warnings})
		})
	}
}

// The real export's figures are its own (SOURCES.md, counted with sqlite3): 1 312 kernels,
// Σ 294.40 ms, par_ranged2d_kernel 331 × 267.06 ms; 254 HtoD copies of 225 065 752 B and 25
// DtoH of 51 200 B; 1 312 cudaLaunchKernel_v7000; the blocking calls: 1 312
// cudaDeviceSynchronize_v3020 and 279 cudaMemcpy_v3020 (a blocking copy is a sync, as in every
// trace); 4 A100-SXM4-80GB, driver 525.105.17 (NvDriverVersion 52510517).
func TestFixtureFigures(t *testing.T) {
	ev, facts, _, err := ReadExportFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	kernelUs := ev.DeviceTimeUs - ev.Copies["HtoD"].TimeUs - ev.Copies["DtoH"].TimeUs
	if ev.Kernels != 1312 || math.Abs(kernelUs-294404.54) > 0.01 || ev.TopOps[0].Name != "clover::par_ranged2d_kernel" ||
		ev.TopOps[0].Count != 331 || math.Abs(ev.TopOps[0].TimeUs-267056.876) > 0.001 {
		t.Errorf("kernels %d, %v us, top %+v", ev.Kernels, kernelUs, ev.TopOps[0])
	}
	if c := ev.Copies["HtoD"]; c.Count != 254 || c.Bytes != 225065752 {
		t.Errorf("HtoD %+v", c)
	}
	if c := ev.Copies["DtoH"]; c.Count != 25 || c.Bytes != 51200 {
		t.Errorf("DtoH %+v", c)
	}
	if ev.Launches.Count != 1312 || ev.Syncs.Count != 1312+279 {
		t.Errorf("launches %+v syncs %+v", ev.Launches, ev.Syncs)
	}
	if facts == nil || facts.HardwareSKU != "4 × NVIDIA A100-SXM4-80GB, 79.2 GiB each" || facts.DriverVersion != "525.105.17" {
		t.Errorf("facts %+v", facts)
	}
	if ev.Device != "NVIDIA A100-SXM4-80GB" || ev.Tool != "Nsight Systems 2024.5.1.113, export schema 3.13.2" {
		t.Errorf("device %q tool %q", ev.Device, ev.Tool)
	}
	if ev.Timeline == nil || len(ev.Timeline.Devices) != 1 || ev.Timeline.Devices[0].ID != "0" {
		t.Errorf("timeline %+v", ev.Timeline)
	}
}

// The 2.x schema lists every runtime call twice under one correlation id: each counts once.
// gen.py's 2022.2 export has 12 steps of 34 launches, 2 copies and a stream sync; its NVTX
// ranges decode_step_0..11 are the steps, the window steps 1-10.
func TestSchema2CountsEachCallOnce(t *testing.T) {
	ev, facts, _, err := ReadExportFile(buildExport(t, "testdata/export-2022.2/input.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if ev.Launches.Count != 12*34 || ev.Syncs.Count != 12 || ev.Kernels != 12*34 || ev.Steps != 12 || ev.WindowSteps != 10 {
		t.Errorf("launches %d syncs %d kernels %d steps %d (window %d)", ev.Launches.Count, ev.Syncs.Count, ev.Kernels, ev.Steps, ev.WindowSteps)
	}
	if ev.Copies["HtoD"].Count != 12 || ev.Copies["DtoH"].Count != 12 || ev.Copies["HtoD"].Bytes != 12*128 {
		t.Errorf("copies %+v", ev.Copies)
	}
	if len(ev.KernelBackends) != 1 || ev.KernelBackends[0].Backend != "XFORMERS" {
		t.Errorf("kernel backends %+v", ev.KernelBackends)
	}
	if facts == nil || facts.DriverVersion != "510.47.03" || facts.HardwareSKU != "1 × NVIDIA A100-SXM4-40GB, 39.6 GiB each" {
		t.Errorf("facts %+v", facts)
	}
}

// The 2024.5 imitation: vLLM decode on two H100s from CUDA graphs (one cudaGraphLaunch per step),
// FlashAttention-2 kernels, "execute_model" ranges (no step number) taken as the steps; the
// host's copies, eager sampling kernels and 60 us between steps leave the GPU idle some 30 % of
// each millisecond bin: intermittent, the host-bound shape.
func TestGraphsFlashAttnAndIdle(t *testing.T) {
	ev, _, warnings, err := ReadExportFile(buildExport(t, "testdata/export-2024.5/input.sql"))
	if err != nil {
		t.Fatal(err)
	}
	if ev.GraphLaunches.Count != 10 || ev.Launches.Count != 20 || ev.Steps != 10 {
		t.Errorf("graph launches %d launches %d steps %d", ev.GraphLaunches.Count, ev.Launches.Count, ev.Steps)
	}
	if len(ev.KernelBackends) == 0 || ev.KernelBackends[0].Backend != "FLASH_ATTN" {
		t.Errorf("kernel backends %+v", ev.KernelBackends)
	}
	if len(warnings) != 2 {
		t.Errorf("warnings %q", warnings)
	}
	if ev.Timeline == nil || len(ev.Timeline.Devices) != 2 {
		t.Fatalf("timeline %+v", ev.Timeline)
	}
	if sh := shape.ClassifyRun(ev.Timeline.Devices[0], shape.DefaultThresholds); sh.Class != model.ShapeIntermittent || sh.MedianBusy < 60 || sh.MedianBusy > 80 {
		t.Errorf("shape %+v", sh)
	}
}

// An SQLite file of another tool is no export: a clear error, not figures of nothing.
func TestNotAnExport(t *testing.T) {
	path := filepath.Join(t.TempDir(), "benchmark_data.db")
	db, _ := sql.Open("sqlite3", path)
	if _, err := db.Exec(`CREATE TABLE result (request TEXT, start_time REAL)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, _ := os.ReadFile(path)
	if IsExport(&format.File{Name: path, Data: data}) {
		t.Error("EvalScope's benchmark_data.db sniffed as an nsys export")
	}
	if _, _, _, err := ReadExportFile(path); err == nil {
		t.Error("no error for an SQLite file with no nsys table")
	}
}

// Reading never writes: the export's bytes and modification time are as they were.
func TestReadOnly(t *testing.T) {
	path := buildExport(t, "testdata/export-2024.5/input.sql")
	before, _ := os.ReadFile(path)
	info, _ := os.Stat(path)
	if _, err := ReadExport(&format.File{Name: "x.sqlite", Data: before}); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ReadExportFile(path); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	info2, _ := os.Stat(path)
	if string(before) != string(after) || !info.ModTime().Equal(info2.ModTime()) {
		t.Error("the export changed")
	}
	if matches, _ := filepath.Glob(filepath.Join(os.TempDir(), "benchlens-nsys-*")); len(matches) > 0 {
		t.Errorf("temporary copies left behind: %v", matches)
	}
}

// An export whose table is not stored in start order gets the same timeline, from SQLite's sort.
func TestUnsortedTable(t *testing.T) {
	sorted := buildExport(t, "testdata/export-2024.5/input.sql")
	want, _, _, err := ReadExportFile(sorted)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite3", sorted)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`CREATE TABLE k2 AS SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start DESC;
		DROP TABLE CUPTI_ACTIVITY_KIND_KERNEL; ALTER TABLE k2 RENAME TO CUPTI_ACTIVITY_KIND_KERNEL`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, _, _, err := ReadExportFile(sorted)
	if err != nil {
		t.Fatal(err)
	}
	if got.BusyFraction != want.BusyFraction || got.Kernels != want.Kernels || len(got.Timeline.Devices) != 2 ||
		!slices.Equal(got.Timeline.Devices[1].Busy, want.Timeline.Devices[1].Busy) || !slices.Equal(gapCounts(got), gapCounts(want)) {
		t.Errorf("unsorted: busy %v vs %v", got.BusyFraction, want.BusyFraction)
	}
}

func gapCounts(ev *model.TraceEvidence) []int {
	var out []int
	for _, g := range ev.IdleGaps {
		out = append(out, g.Count)
	}
	return out
}
