package nsys

import (
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"benchlens/importers/format"
	"benchlens/internal/goldenfile"
	"benchlens/model"
)

// kernSum is the real cuda_gpu_kern_sum.csv of more-formats.md G2 (file 01).
const kernSum = "../../testdata/fixtures/turn3/gpu_01_dsocr_decode_summary_cuda_gpu_kern_sum.csv"

// statsFiles reads a stats case's files; stats-2024.5 takes the real kernel summary beside them.
func statsFiles(t *testing.T, dir string) []*format.File {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	sort.Strings(names)
	var files []*format.File
	for _, n := range names {
		if strings.HasSuffix(n, "expected.json") {
			continue
		}
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, &format.File{Name: filepath.ToSlash(n), Data: data})
	}
	if filepath.Base(dir) == "stats-2024.5" {
		data, err := os.ReadFile(kernSum)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, &format.File{Name: filepath.ToSlash(filepath.Join(dir, "summary_cuda_gpu_kern_sum.csv")), Data: data})
	}
	return files
}

// TestStatsGolden reads each stats case's reports together (one nsys stats run) and compares
// the evidence with its expected.json; the real kernel summary alone is fixture-kern-sum.
func TestStatsGolden(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/stats-*")
	dirs = append(dirs, "testdata/fixture-kern-sum")
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var files []*format.File
			if filepath.Base(dir) == "fixture-kern-sum" {
				data, err := os.ReadFile(kernSum)
				if err != nil {
					t.Fatal(err)
				}
				files = []*format.File{{Name: filepath.Base(kernSum), Data: data}}
			} else {
				files = statsFiles(t, dir)
			}
			for _, f := range files {
				if !IsStats(f) {
					t.Errorf("%s: not sniffed as an nsys stats report", f.Name)
				}
			}
			p, err := ReadStats(files)
			g := struct {
				Trace    *model.TraceEvidence `json:"trace,omitempty"`
				Warnings []model.Warning      `json:"warnings"`
				Error    string               `json:"error,omitempty"`
			}{Warnings: p.Warnings}
			if err != nil {
				g.Error = err.Error()
			} else {
				g.Trace = p.Evidence.Trace
			}
			goldenfile.JSON(t, filepath.Join(dir, "expected.json"), g)
		})
	}
}

// The real kernel summary's own figures (SOURCES.md): 46 kernels, Σ Total Time 179 072 697 ns,
// Σ Instances 78 016, the top row cuBLAS gemvx 61 602 133 ns in 16 448 instances. The GEMV/GEMM
// rows (two gemvx, gemmk1, cutlass wmma, splitKreduce) are 89 730 009 ns, 50.1 % (SOURCES.md
// rounds it to "≈54 %"), FlashAttention's split-KV pair 6 722 145 ns; the rest is PyTorch's
// copy, elementwise and reduce kernels, sampling's top-k and sort.
func TestKernSumFigures(t *testing.T) {
	data, err := os.ReadFile(kernSum)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadStatsFile(&format.File{Name: "summary_cuda_gpu_kern_sum.csv", Data: data})
	if err != nil {
		t.Fatal(err)
	}
	ev := p.Evidence.Trace
	if ev.Kernels != 78016 || math.Abs(ev.DeviceTimeUs-179072.697) > 1e-6 || ev.BusyFraction.Known() {
		t.Errorf("kernels %d, device time %v us, busy %v", ev.Kernels, ev.DeviceTimeUs, ev.BusyFraction)
	}
	if ev.TopOps[0].Name != "internal::gemvx::kernel" || ev.TopOps[0].Count != 16448+2304 {
		t.Errorf("top %+v", ev.TopOps[0])
	}
	share := map[string]float64{}
	for _, f := range ev.Families {
		share[f.Family] = f.Share
	}
	if !near(share["gemm"], 89730009.0/179072697) || !near(share["attention"], 6722145.0/179072697) || share["elementwise"] < 0.38 {
		t.Errorf("families %v", share)
	}
	if len(ev.KernelBackends) != 1 || ev.KernelBackends[0].Backend != "FLASH_ATTN" {
		t.Errorf("kernel backends %+v", ev.KernelBackends)
	}
	if ev.Launches.Count != 0 || ev.RecordsHostCalls() || len(p.Warnings) != 2 {
		t.Errorf("launches %+v, warnings %q", ev.Launches, p.Warnings)
	}
}

// The old report names and headers (nsys 2021.3 on stdout) give the same figures, the
// osrtsum table under them left out, sizes read in KiB.
func TestStatsOldGeneration(t *testing.T) {
	p, err := ReadStats(statsFiles(t, "testdata/stats-2021.3-stdout"))
	if err != nil {
		t.Fatal(err)
	}
	ev := p.Evidence.Trace
	if ev.Launches.Count != 48960 || ev.Syncs.Count != 90 || ev.Kernels != 2880+11520+2880+11520+17280+2880 {
		t.Errorf("launches %d syncs %d kernels %d", ev.Launches.Count, ev.Syncs.Count, ev.Kernels)
	}
	if c := ev.Copies["HtoD"]; c.Count != 90 || c.Bytes != int64(math.Round(2104.641*1024)) {
		t.Errorf("HtoD %+v", c)
	}
	if strings.Join(ev.Files, ",") != "cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum" {
		t.Errorf("reports %v", ev.Files)
	}
}

// The console layout: thousands separators, osrt_sum skipped, CUDA graph launches, FlashInfer.
func TestStatsConsole(t *testing.T) {
	p, err := ReadStats(statsFiles(t, "testdata/stats-console-2023.4"))
	if err != nil {
		t.Fatal(err)
	}
	ev := p.Evidence.Trace
	if ev.Launches.Count != 26400 || ev.GraphLaunches.Count != 800 || ev.Syncs.Count != 1000 || ev.Kernels != 250400 {
		t.Errorf("launches %d graph %d syncs %d kernels %d", ev.Launches.Count, ev.GraphLaunches.Count, ev.Syncs.Count, ev.Kernels)
	}
	if len(ev.KernelBackends) == 0 || ev.KernelBackends[0].Backend != "FLASHINFER" {
		t.Errorf("kernel backends %+v", ev.KernelBackends)
	}
	if c := ev.Copies["HtoD"]; c.Count != 1600 || c.Bytes != 6554000 {
		t.Errorf("HtoD %+v", c)
	}
}

func TestStatsKey(t *testing.T) {
	for p, want := range map[string]string{
		"b/run1/summary_cuda_gpu_kern_sum.csv": "b/run1/summary",
		"b/run1/summary_cuda_api_sum.csv":      "b/run1/summary",
		"b/run1/cuda_api_sum.csv":              "b/run1/",
		"b/run1/x_gpukernsum.csv":              "b/run1/x",
		"b/run1/kernels.csv":                   "",
		"b/run1/summary_osrt_sum.csv":          "",
	} {
		if got := StatsKey(p); got != want {
			t.Errorf("StatsKey(%s) = %q, want %q", p, got, want)
		}
	}
}

// An osrt_sum CSV has cuda_api_sum's columns: named so, it is no CUDA report.
func TestOSRuntimeIsNoCUDAReport(t *testing.T) {
	data := []byte("Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n61.9,8104553871,412,1.0,1.0,1,1,0.0,poll\n")
	p, err := ReadStatsFile(&format.File{Name: "x_osrt_sum.csv", Data: data})
	if err == nil && p.Evidence.Trace.RecordsHostCalls() {
		t.Errorf("osrt_sum read as host CUDA calls: %+v", p.Evidence.Trace)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }
