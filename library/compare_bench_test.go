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
	st := sweepLibrary(b)
	defer st.Close()
	report := cputime.PerOp(b)
	for b.Loop() {
		rec, err := Compare(st, "base", "cand", compare.DefaultSettings)
		if err != nil {
			b.Fatal(err)
		}
		if len(rec.LoadPoints) != 8 || rec.Status == "" {
			b.Fatalf("%d load points", len(rec.LoadPoints))
		}
	}
	// CPU time too: on a shared machine the wall time says more about the neighbours.
	report()
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
	st := sweepOf(b, points, 1, 100)
	defer st.Close()
	report := cputime.PerOp(b)
	for b.Loop() {
		rec, err := Compare(st, "base", "cand", compare.DefaultSettings)
		if err != nil {
			b.Fatal(err)
		}
		if len(rec.LoadPoints) != 36 {
			b.Fatalf("%d load points", len(rec.LoadPoints))
		}
	}
	report()
}

// manyRunsArms are two arms of 1,000 small runs each (20 requests × 64 output tokens, one
// load point), as a CI folder of nightly results makes them (issue 29 item 3), built in
// memory: the cost under test is per run, not per request.
func manyRunsArms() (compare.Arm, compare.Arm) {
	rng := rand.New(rand.NewPCG(5, 6))
	arm := func(label string, tpot float64, first int64) compare.Arm {
		var runs []compare.RunData
		for r := range 1000 {
			run := model.NewRun("vllm")
			run.ID, run.Label, run.Model = first+int64(r), label, "m"
			run.MaxConcurrency = 8
			run.Manifest = model.Manifest{"workload": map[string]any{"warmup_iters": 2}}
			run.OutputThroughput = model.Num(8 / tpot)
			run.DurationS = 2
			run.Requests = make([]model.Request, 20)
			for i := range run.Requests {
				gaps := make([]float64, 63)
				for g := range gaps {
					gaps[g] = tpot * (1 + 0.05*rng.NormFloat64())
				}
				run.Requests[i] = model.Request{InputLen: 512 + (i*37)%1024, OutputLen: 64, TTFT: 0.05 + 0.01*rng.Float64(),
					TPOT: math.NaN(), Latency: math.NaN(), Start: float64(i) * 0.1, ITL: gaps}
			}
			runs = append(runs, compare.RunData{Run: run})
		}
		return compare.Arm{Label: label, Runs: runs}
	}
	return arm("base", 0.012, 1), arm("cand", 0.011, 1001)
}

// BenchmarkCompareSLO is the cost of judging an SLO (rule 14) on top of a compare: the arms
// are loaded once, then compared without and with ttft<=60,tpot<=12 (the big arms: 25 M gaps;
// the sweep: 8 points, 20 M gaps; many: 1,000 vs 1,000 runs of 20 requests), each run's statistics computed afresh (as the command line
// does) or remembered by the arm (as the app does).
func BenchmarkCompareSLO(b *testing.B) {
	for _, lib := range []struct {
		name string
		open func(*testing.B) *store.Store
	}{{"big", bigArmsLibrary}, {"sweep", sweepLibrary}, {"many", nil}} {
		var base, cand compare.Arm
		if lib.open == nil {
			x, y := manyRunsArms()
			base, cand = compare.NewArm(x.Label, x.Runs), compare.NewArm(y.Label, y.Runs)
		} else {
			st := lib.open(b)
			var err error
			if base, err = LoadArm(st, "base"); err != nil {
				b.Fatal(err)
			}
			if cand, err = LoadArm(st, "cand"); err != nil {
				b.Fatal(err)
			}
			st.Close()
		}
		for _, cached := range []bool{false, true} {
			for _, objective := range []string{"", "ttft<=60,tpot<=12"} {
				set := compare.DefaultSettings
				set.SLO = objective
				name := lib.name + map[bool]string{false: "/fresh", true: "/cached"}[cached] + map[bool]string{false: "/no-slo", true: "/slo"}[objective != ""]
				b.Run(name, func(b *testing.B) {
					if cached { // the arm's memo filled first, as the app's second look at a pair
						compare.Compare(base, cand, set)
					}
					report := cputime.PerOp(b)
					for b.Loop() {
						bb, cc := base, cand
						if !cached { // as the command line compares: every statistic computed again
							bb, cc = compare.Arm{Label: base.Label, Runs: base.Runs}, compare.Arm{Label: cand.Label, Runs: cand.Runs}
						}
						rec := compare.Compare(bb, cc, set)
						if objective != "" && (rec.SLO == nil || len(rec.SLO.Points) == 0) {
							b.Fatal("no SLO section")
						}
					}
					report()
				})
			}
		}
	}
}

// manyRunsLibrary stores two arms of n small runs each (20 requests × 128 output tokens, as a
// lab's nightly repeats are), built directly as records.
func manyRunsLibrary(b *testing.B, n int) *store.Store {
	st, err := store.Open(filepath.Join(b.TempDir(), "many.db"))
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, arm := range []struct {
		label string
		tpot  float64
	}{{"base", 0.012}, {"cand", 0.011}} {
		for r := range n {
			run := model.NewRun("vllm")
			run.Label, run.Model = arm.label, "m"
			run.OutputThroughput = model.Num(1 / arm.tpot * (1 + 0.02*rng.NormFloat64()))
			run.Requests = make([]model.Request, 20)
			for i := range run.Requests {
				gaps := make([]float64, 127)
				for g := range gaps {
					gaps[g] = arm.tpot * (1 + 0.05*rng.NormFloat64())
				}
				run.Requests[i] = model.Request{InputLen: 512 + (i*37)%1024, OutputLen: 128, TTFT: 0.05 + 0.01*rng.Float64(),
					TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: gaps}
			}
			run.Measured = measuredAsStored(run) // as import stores it
			name := fmt.Sprintf("%s-%d.json", arm.label, r)
			f := &model.SourceFile{Name: name, Size: int64(len(name)), SHA256: name, Kind: model.KindResult, Data: []byte(name)}
			if _, err := st.AddRun(store.NewRun{Run: run, Fingerprint: name, Files: []store.Attached{{File: f, Role: "result"}}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	return st
}

// BenchmarkCompareManyRuns loads and compares two arms of 100, 1,000 and 2,500 small runs: the
// cost a compare pays per run, not per request.
func BenchmarkCompareManyRuns(b *testing.B) {
	for _, n := range []int{100, 1000, 2500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			st := manyRunsLibrary(b, n)
			defer st.Close()
			report := cputime.PerOp(b)
			for b.Loop() {
				rec, err := Compare(st, "base", "cand", compare.DefaultSettings)
				if err != nil {
					b.Fatal(err)
				}
				if !rec.Perf[model.TPOT].Better {
					b.Fatal("the candidate's faster decode was not found")
				}
			}
			report()
		})
	}
}
