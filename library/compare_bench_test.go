package library

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/internal/cputime"
	"benchlens/model"
	"benchlens/store"
)

// bigArmsLibrary stores two arms of 5 runs x 20,000 requests x 256 output tokens (25 M gaps
// in all), built directly as records so the setup does not dominate the benchmark.
func bigArmsLibrary(b *testing.B) *store.Store {
	st, err := store.Open(filepath.Join(b.TempDir(), "big.db"))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for arm, tpot := range map[string]float64{"base": 0.012, "cand": 0.011} {
		for r := range 5 {
			run := model.NewRun("vllm")
			run.Label, run.Model = arm, "m"
			run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 2}}
			run.OutputThroughput = model.Num(1 / tpot)
			run.Requests = make([]model.Request, 20000)
			for i := range run.Requests {
				gaps := make([]float64, 255)
				for g := range gaps {
					gaps[g] = tpot * (1 + 0.05*rng.NormFloat64())
				}
				run.Requests[i] = model.Request{InputLen: 512 + (i*37)%1024, OutputLen: 256, TTFT: 0.05 + 0.01*rng.Float64(),
					TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: gaps}
			}
			run.Measured = measuredAsStored(run) // as import stores it
			name := fmt.Sprintf("%s-%d.json", arm, r)
			f := &model.SourceFile{Name: name, Size: int64(len(name)), SHA256: name, Kind: model.KindResult, Data: []byte(name)}
			if _, err := st.AddRun(store.NewRun{Run: run, Fingerprint: name, Files: []store.Attached{{File: f, Role: "result"}}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return st
}

// BenchmarkCompareBigArms loads both arms from the library (25 M gaps) and compares them,
// buckets included.
func BenchmarkCompareBigArms(b *testing.B) {
	st := bigArmsLibrary(b)
	defer st.Close()
	for b.Loop() {
		rec, err := Compare(st, "base", "cand", compare.DefaultSettings)
		if err != nil {
			b.Fatal(err)
		}
		if !rec.Perf[model.TPOT].Better {
			b.Fatal("the candidate's faster decode was not found")
		}
	}
}

// sweepLibrary stores two arms that ran 8 concurrency points × 5 repeats × 2,000 requests
// (128 output tokens: 20 M gaps in all).
func sweepLibrary(b *testing.B) *store.Store {
	return sweepOf(b, []float64{1, 2, 4, 8, 16, 32, 64, 128}, 5, 2000)
}

// sweepOf stores two arms that ran each concurrency of points, repeats times, requests
// requests of 128 output tokens each.
func sweepOf(b *testing.B, points []float64, repeats, requests int) *store.Store {
	st, err := store.Open(filepath.Join(b.TempDir(), "sweep.db"))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for arm, tpot := range map[string]float64{"base": 0.012, "cand": 0.011} {
		for _, c := range points {
			for r := range repeats {
				run := model.NewRun("vllm")
				run.Label, run.Model = arm, "m"
				run.MaxConcurrency, run.RequestRate = model.Num(c), model.Num(math.Inf(1))
				run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 2}}
				run.OutputThroughput = model.Num(c / tpot)
				run.Requests = make([]model.Request, requests)
				for i := range run.Requests {
					gaps := make([]float64, 127)
					for g := range gaps {
						gaps[g] = tpot * (1 + c/256) * (1 + 0.05*rng.NormFloat64())
					}
					run.Requests[i] = model.Request{InputLen: 512 + (i*37)%1024, OutputLen: 128, TTFT: 0.05 + 0.01*rng.Float64(),
						TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: gaps}
				}
				run.Measured = measuredAsStored(run) // as import stores it
				name := fmt.Sprintf("%s-%g-%d.json", arm, c, r)
				f := &model.SourceFile{Name: name, Size: int64(len(name)), SHA256: name, Kind: model.KindResult, Data: []byte(name)}
				if _, err := st.AddRun(store.NewRun{Run: run, Fingerprint: name, Files: []store.Attached{{File: f, Role: "result"}}}); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	return st
}

// BenchmarkCompareSweep loads two sweeps of 8 points × 5 repeats × 2,000 requests from the
// library and compares them point by point, loading included.
func BenchmarkCompareSweep(b *testing.B) {
	benchmarkSweep(b, sweepLibrary(b), 8)
}

// BenchmarkCompareSweepOneRun compares two sweeps of 36 points that ran once each, 100
// requests a point, as a lab's FP16/FP8 sweep (aurotripathy/vllm-bench) did: every point and
// input bucket is compared request by request (a rank test and a bootstrap interval each),
// which made such a compare take 2.3 s.
func BenchmarkCompareSweepOneRun(b *testing.B) {
	points := make([]float64, 36)
	for i := range points {
		points[i] = float64(i + 1)
	}
	benchmarkSweep(b, sweepOf(b, points, 1, 100), 36)
}

// benchmarkSweep compares the sweeps of st, points load points each, loading included, and
// reports the CPU time too: on a shared machine the wall time says more about the neighbours.
func benchmarkSweep(b *testing.B, st *store.Store, points int) {
	defer st.Close()
	report := cputime.PerOp(b)
	for b.Loop() {
		rec, err := Compare(st, "base", "cand", compare.DefaultSettings)
		if err != nil {
			b.Fatal(err)
		}
		if len(rec.LoadPoints) != points || rec.Status == "" {
			b.Fatalf("%d load points", len(rec.LoadPoints))
		}
	}
	report()
}
