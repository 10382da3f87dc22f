package demo

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"benchlens/internal/numpy"
)

// Story constants shared by every arm.
const (
	modelID     = "meta-llama/Llama-3.1-8B-Instruct"
	modelBase   = "Llama-3.1-8B-Instruct"
	gpuName     = "NVIDIA H100 80GB HBM3"
	numPrompts  = 120
	outputLen   = 64
	rangeRatio  = 0.5
	concurrency = 16
	maxNumSeqs  = 64
	coldStart   = 2 // requests per run that hit a cold server (the warm-up)
)

// arm describes one demo arm (one folder under samples/).
type arm struct {
	label, role, change, notes string
	runs                       int
	target, resolved           string
	fallback                   bool // target requested but the guard failed
	oldEra                     bool // vLLM 0.6.3 server log and era-E result keys
	ttftF, tpotF               float64
	inputLen                   int
	seed                       uint64
	warmup                     int
	intermittent               bool
	machine                    string
	numa, slot                 int
	driver, stack, engine      string
	start                      time.Time // server start of run-1
	trace                      traceKind
	// A sweep arm is one folder per load point: dir is the folder under samples/ ("" means
	// the label), conc the --max-concurrency (0 means concurrency), prompts the requests per
	// run (0 means numPrompts) and structured a change written as {what, fields, path}.
	dir           string
	conc, prompts int
	structured    bool
}

func (a arm) folder() string { return cmp.Or(a.dir, a.label) }

func (a arm) concurrency() int { return cmp.Or(a.conc, concurrency) }

func (a arm) numPrompts() int { return cmp.Or(a.prompts, numPrompts) }

const (
	newEngine = "0.12.0"
	oldEngine = "0.6.3.post1"
)

func arms() []arm {
	day := func(d, h, m int) time.Time { return time.Date(2026, 1, d, h, m, 0, 0, time.UTC) }
	base := arm{
		role: "candidate", runs: 5, target: "FLASHINFER", resolved: "FLASHINFER",
		ttftF: 1, tpotF: 1, inputLen: 1024, seed: 1234, warmup: 2,
		machine: "lab-h100-01", numa: 0, slot: 3,
		driver: "550.54.15", stack: "CUDA 12.9, torch 2.9.0", engine: "vLLM " + newEngine,
		trace: traceFI,
	}
	with := func(f func(a *arm)) arm { a := base; f(&a); return a }
	return append([]arm{
		with(func(a *arm) {
			a.label, a.role, a.target, a.resolved = "baseline", "baseline", "FLASH_ATTN", "FLASH_ATTN"
			a.change = "attention backend FLASH_ATTN (reference)"
			a.notes = "Reference arm: FLASH_ATTN (FlashAttention 3) for prefill and decode."
			a.start, a.trace = day(12, 9, 40), traceFA
		}),
		with(func(a *arm) {
			a.label, a.change, a.tpotF = "established", "attention backend FLASH_ATTN -> FLASHINFER", 0.90
			a.notes = "FlashInfer decode kernel is faster; TTFT unchanged, TPOT about 9% lower; same copies, launches and syncs."
			a.start = day(12, 11, 5)
		}),
		with(func(a *arm) {
			a.label, a.change, a.ttftF, a.tpotF = "zero", "attention backend FLASH_ATTN -> FLASHINFER (build 2)", 0.993, 1.001
			a.notes = "Path changed and hit, but no stage moves beyond noise: attention is not the bottleneck here."
			a.start, a.trace = day(13, 9, 30), traceFIZero
		}),
		with(func(a *arm) {
			a.label, a.change, a.ttftF, a.tpotF = "offset", "attention backend FLASH_ATTN -> FLASHINFER with host-side block-table routing", 0.92, 1.055
			a.notes = "Prefill kernel faster (TTFT about 8% lower) but a host round trip per layer adds copies, launches and syncs; TPOT about 4% worse."
			a.start, a.trace, a.intermittent = day(13, 14, 10), traceFIOffset, true
		}),
		with(func(a *arm) {
			a.label, a.change, a.structured, a.ttftF, a.tpotF = "offset-ops", "attention backend FLASH_ATTN -> FLASHINFER with a per-layer block-table gather", true, 1.0, 1.03
			a.notes = "The FlashInfer attention kernels take about 40% less device time than FLASH_ATTN's, but a per-layer block-table gather adds copies, launches, a sync and more device time than attention saved: no stage is faster and the device time per step grew."
			a.start, a.trace, a.intermittent = day(13, 16, 40), traceFIEaten, true
		}),
		with(func(a *arm) {
			a.label, a.change, a.ttftF, a.tpotF = "fallback", "attention backend FLASH_ATTN -> FLASHINFER (requested with --attention-backend)", 0.97, 0.97
			a.resolved, a.fallback, a.trace = "FLASH_ATTN", true, traceFA
			a.notes = "Image lacks the FlashInfer package: the server falls back to FLASH_ATTN. About 3% faster anyway (newer cuBLAS in this image)."
			a.start = day(14, 10, 0)
		}),
		with(func(a *arm) {
			a.label, a.change, a.ttftF, a.tpotF = "driver-change", "attention backend FLASH_ATTN -> FLASHINFER on the older image", 0.94, 0.94
			a.oldEra, a.machine, a.numa, a.slot = true, "lab-h100-03", 1, 6
			a.driver, a.stack, a.engine = "560.35.03", "CUDA 12.1, torch 2.4.0", "vLLM "+oldEngine
			a.notes = "Run on another machine, a newer driver and an older vLLM image (VLLM_ATTENTION_BACKEND=FLASHINFER)."
			a.start = day(14, 15, 20)
		}),
		with(func(a *arm) {
			a.label, a.change, a.tpotF = "drift", "attention backend FLASH_ATTN -> FLASHINFER", 0.92
			a.inputLen, a.seed, a.trace = 512, 4321, traceFIShort
			a.notes = "Launched from an edited script: --random-input-len 512 --seed 4321 (shorter prompts, other request set)."
			a.start = day(15, 9, 15)
		}),
		with(func(a *arm) {
			a.label, a.change, a.tpotF = "few-repeats", "attention backend FLASH_ATTN -> FLASHINFER (quick check)", 0.90
			a.runs, a.warmup = 2, 0
			a.notes = "Quick check: two repeats, no warm-up discarded."
			a.start = day(15, 13, 45)
		}),
	}, sweepArms(base, day(16, 9, 0))...)
}

// sweepArms are a baseline and a candidate that ran concurrency 1, 4, 16 and 64, five repeats
// each. FlashInfer's decode kernel wins at low concurrency; at 64 a host-side block-table copy
// per layer, which grows with the batch, eats the decode gain (offset) while prefill stays faster.
func sweepArms(base arm, start time.Time) []arm {
	var out []arm
	for i, c := range []int{1, 4, 16, 64} {
		load := float64(c)
		b := base
		b.label, b.role, b.target, b.resolved, b.trace = "sweep-baseline", "baseline", "FLASH_ATTN", "FLASH_ATTN", traceFA
		b.change = "attention backend FLASH_ATTN (reference sweep)"
		b.notes = "Reference sweep: FLASH_ATTN at concurrency 1, 4, 16 and 64."
		b.conc, b.prompts = c, 40
		b.dir = fmt.Sprintf("sweep-baseline/concurrency-%d", c)
		b.ttftF, b.tpotF = 1+load/40, 1+load/80
		b.start = start.Add(time.Duration(i) * 30 * time.Minute)
		cd := b
		cd.label, cd.role, cd.target, cd.resolved, cd.trace = "sweep-candidate", "candidate", "FLASHINFER", "FLASHINFER", traceFI
		cd.change, cd.structured = "attention backend FLASH_ATTN -> FLASHINFER", true
		cd.notes = "FlashInfer sweep: faster decode at low concurrency; at 64 a host-side block-table copy per layer grows with the batch."
		cd.dir = fmt.Sprintf("sweep-candidate/concurrency-%d", c)
		cd.tpotF = b.tpotF * 0.90
		if c == 64 {
			cd.ttftF, cd.tpotF, cd.trace, cd.intermittent = b.ttftF*0.92, b.tpotF*1.05, traceFIOffset, true
		}
		cd.start = b.start.Add(3 * time.Hour)
		out = append(out, b, cd)
	}
	return out
}

// Generate deletes dir and writes every demo arm into it, byte for byte the same each time.
func Generate(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	for _, a := range arms() {
		ad := filepath.Join(dir, a.folder())
		if err := writeFile(filepath.Join(ad, "bundle.yaml"), manifest(a)); err != nil {
			return err
		}
		for r := 1; r <= a.runs; r++ {
			run := simulate(a, r)
			rd := filepath.Join(ad, fmt.Sprintf("run-%d", r))
			files := map[string]string{
				run.resultName(): run.resultJSON(),
				"server.log":     serverLog(run),
				"gpu.csv":        gpuCSV(run),
			}
			if r == 1 {
				files["trace.json"] = kinetoTrace(run)
			}
			names := make([]string, 0, len(files))
			for n := range files {
				names = append(names, n)
			}
			slices.Sort(names)
			for _, n := range names {
				if err := writeFile(filepath.Join(rd, n), files[n]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func writeFile(path, text string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(text), 0o644)
}

func seedOf(parts ...string) uint64 {
	h := fnv.New64a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum64()
}

// ---------------------------------------------------------------------------------------
// bundle.yaml

func manifest(a arm) string {
	var b strings.Builder
	q := func(s string) string { return pyString(s) } // a JSON string is a valid YAML string
	fmt.Fprintf(&b, "# benchlens demo bundle: arm %q (generated by demo/gen; do not edit)\n", a.label)
	fmt.Fprintf(&b, "label: %s\n", a.label)
	fmt.Fprintf(&b, "role: %s\n", a.role)
	if a.structured {
		fmt.Fprintf(&b, "change: {what: %s, fields: [], path: attention}\n", q(a.change))
	} else {
		fmt.Fprintf(&b, "change: %s\n", q(a.change))
	}
	fmt.Fprintf(&b, "stack_fingerprint:\n  base_stack_version: %s\n  driver_version: %s\n  engine_version: %s\n",
		q(a.stack), q(a.driver), q(a.engine))
	fmt.Fprintf(&b, "hardware_sku: %s\n", q(gpuName+" x1, NVLink none"))
	fmt.Fprintf(&b, "node:\n  machine: %s\n  numa: %d\n  card_slot: %d\n", a.machine, a.numa, a.slot)
	fmt.Fprintf(&b, "workload:\n  model_name: %s\n  dataset: random\n  input_len: %d\n  output_len: %d\n  range_ratio: %s\n  seed: %d\n  num_prompts: %d\n  max_num_seqs: %d\n  max_concurrency: %d\n  warmup_iters: %d\n",
		modelID, a.inputLen, outputLen, pyFloat(rangeRatio), a.seed, a.numPrompts(), maxNumSeqs, a.concurrency(), a.warmup)
	fmt.Fprintf(&b, "path:\n  target_backend: %s\n", a.target)
	fmt.Fprintf(&b, "notes: %s\n", q(a.notes))
	return b.String()
}

// ---------------------------------------------------------------------------------------
// per-request simulation

type runData struct {
	a          arm
	n          int       // run number
	serverUp   time.Time // server start
	benchStart time.Time
	benchEnd   time.Time
	inputLens  []int
	outputLens []int
	ttfts      []float64   // s
	itls       [][]float64 // s
	starts     []float64   // s since benchStart
	latencies  []float64   // s
	texts      []string
	duration   float64
	rng        *rand.Rand
}

// inputLens draws the request set from the workload seed only, so the same seed gives the
// same lengths in every arm (as vLLM's random dataset does).
func inputLens(inputLen, n int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	lo := int(float64(inputLen) * (1 - rangeRatio))
	hi := int(float64(inputLen) * (1 + rangeRatio))
	out := make([]int, n)
	for i := range out {
		out[i] = lo + rng.IntN(hi-lo+1)
	}
	return out
}

// ns rounds seconds to whole nanoseconds so the arrays stay short and exact.
func ns(s float64) float64 { return math.Round(s*1e9) / 1e9 }

var words = strings.Fields(`the model answers with a short paragraph about serving latency batching and
kernels while the benchmark keeps sending random prompts of varying length to the server so that
prefill and decode overlap in every step of the engine loop`)

func simulate(a arm, n int) *runData {
	rng := rand.New(rand.NewPCG(seedOf(a.folder(), "run"), uint64(n)))
	d := &runData{a: a, n: n, rng: rng}
	d.serverUp = a.start.Add(time.Duration(n-1) * 4 * time.Minute).Add(time.Duration(rng.IntN(20)) * time.Second)
	d.benchStart = d.serverUp.Add(time.Duration(88+rng.IntN(10))*time.Second + time.Duration(rng.IntN(1000))*time.Millisecond)
	d.inputLens = inputLens(a.inputLen, a.numPrompts(), a.seed)
	runTTFT := 1 + 0.006*rng.NormFloat64()
	runTPOT := 1 + 0.006*rng.NormFloat64()

	slots := make([]float64, a.concurrency())
	for i := 0; i < a.numPrompts(); i++ {
		s := 0
		for j := range slots {
			if slots[j] < slots[s] {
				s = j
			}
		}
		start := slots[s] + 0.0004 + 0.0012*rng.Float64()
		queue := 0.015 * rng.Float64()
		prefill := 0.006 + 0.000042*float64(d.inputLens[i])
		ttft := (queue + prefill) * a.ttftF * runTTFT * (1 + 0.03*rng.NormFloat64())
		if i < coldStart {
			ttft *= 3 + 2*rng.Float64()
		}
		ttft = ns(ttft)
		gaps := make([]float64, outputLen-1)
		lat := ttft
		for k := range gaps {
			g := 0.0110 * a.tpotF * runTPOT * (1 + 0.04*rng.NormFloat64())
			if rng.Float64() < 0.05 { // a prefill joined this decode step
				g += (0.012 + 0.020*rng.Float64()) * a.ttftF
			}
			g = ns(g)
			gaps[k] = g
			lat += g
		}
		d.starts = append(d.starts, start)
		d.ttfts = append(d.ttfts, ttft)
		d.itls = append(d.itls, gaps)
		d.latencies = append(d.latencies, lat)
		d.outputLens = append(d.outputLens, outputLen)
		nw := 8 + rng.IntN(10)
		ws := make([]string, nw)
		for k := range ws {
			ws[k] = words[rng.IntN(len(words))]
		}
		d.texts = append(d.texts, " "+strings.Join(ws, " ")+".")
		slots[s] = start + lat
	}
	end := 0.0
	for i := range d.starts {
		end = max(end, d.starts[i]+d.latencies[i])
	}
	d.duration = end + 0.0008 + 0.0005*rng.Float64()
	d.benchEnd = d.benchStart.Add(time.Duration(d.duration * float64(time.Second)))
	return d
}

func (d *runData) resultName() string {
	return fmt.Sprintf("vllm-infqps-concurrency%d-%s-%s.json", d.a.concurrency(), modelBase, d.benchEnd.Format("20060102-150405"))
}

func (d *runData) tpots() []float64 {
	var out []float64
	for i, l := range d.latencies {
		if d.outputLens[i] > 1 {
			out = append(out, (l-d.ttfts[i])/float64(d.outputLens[i]-1))
		}
	}
	return out
}

func (d *runData) pooledITL() []float64 {
	var out []float64
	for _, g := range d.itls {
		out = append(out, g...)
	}
	return out
}

// maxTokensPerS is the peak number of output tokens in one 1-second bucket, and maxInFlight
// the peak number of requests in flight (vLLM >= 0.10.2).
func (d *runData) maxTokensPerS() (float64, int) {
	buckets := map[int]int{}
	type ev struct {
		t float64
		d int
	}
	var evs []ev
	for i, st := range d.starts {
		t := st + d.ttfts[i]
		buckets[int(t)]++
		for _, g := range d.itls[i] {
			t += g
			buckets[int(t)]++
		}
		evs = append(evs, ev{st, 1}, ev{st + d.latencies[i], -1})
	}
	best := 0
	for _, c := range buckets {
		best = max(best, c)
	}
	slices.SortFunc(evs, func(x, y ev) int {
		if x.t != y.t {
			if x.t < y.t {
				return -1
			}
			return 1
		}
		return x.d - y.d
	})
	cur, peak := 0, 0
	for _, e := range evs {
		cur += e.d
		peak = max(peak, cur)
	}
	return float64(best), peak
}

func (d *runData) resultJSON() string {
	o := newPyObj()
	o.str("date", d.benchEnd.Format("20060102-150405"))
	if !d.a.oldEra {
		o.str("endpoint_type", "vllm")
	}
	o.str("backend", "vllm")
	if !d.a.oldEra {
		o.null("label")
	}
	o.str("model_id", modelID)
	o.str("tokenizer_id", modelID)
	if d.a.oldEra {
		o.int("best_of", 1)
	}
	o.int("num_prompts", d.a.numPrompts())
	o.str("request_rate", "inf")
	o.num("burstiness", 1.0)
	o.int("max_concurrency", d.a.concurrency())
	o.num("duration", d.duration)
	o.int("completed", d.a.numPrompts())
	if !d.a.oldEra {
		o.int("failed", 0)
	}
	in, out := 0, 0
	for i := range d.inputLens {
		in += d.inputLens[i]
		out += d.outputLens[i]
	}
	o.int("total_input_tokens", in)
	o.int("total_output_tokens", out)
	o.num("request_throughput", float64(d.a.numPrompts())/d.duration)
	if !d.a.oldEra {
		o.null("request_goodput")
	}
	o.num("output_throughput", float64(out)/d.duration)
	o.num("total_token_throughput", float64(in+out)/d.duration)
	itoa := func(v int) string { return fmt.Sprint(v) }
	o.raw("input_lens", pyList(d.inputLens, itoa))
	o.raw("output_lens", pyList(d.outputLens, itoa))
	o.raw("ttfts", pyList(d.ttfts, pyFloat))
	o.raw("itls", pyList(d.itls, func(g []float64) string { return pyList(g, pyFloat) }))
	o.raw("generated_texts", pyList(d.texts, pyString))
	o.raw("errors", pyList(make([]string, d.a.numPrompts()), pyString))
	if !d.a.oldEra {
		mt, mc := d.maxTokensPerS()
		o.num("max_output_tokens_per_s", mt)
		o.int("max_concurrent_requests", mc)
	}
	for _, m := range []struct {
		name string
		xs   []float64
	}{{"ttft", d.ttfts}, {"tpot", d.tpots()}, {"itl", d.pooledITL()}} {
		o.num("mean_"+m.name+"_ms", numpy.Mean(m.xs)*1000)
		o.num("median_"+m.name+"_ms", npMedian(m.xs)*1000)
		o.num("std_"+m.name+"_ms", numpy.Std(m.xs)*1000)
		o.num("p99_"+m.name+"_ms", npPercentile(m.xs, 99)*1000)
	}
	return o.done()
}

// ---------------------------------------------------------------------------------------
// nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu,utilization.memory,memory.used,power.draw --format=csv -lms 500

func gpuCSV(d *runData) string {
	rng := rand.New(rand.NewPCG(seedOf(d.a.folder(), "gpu"), uint64(d.n)))
	var b strings.Builder
	b.WriteString("timestamp, index, name, utilization.gpu [%], utilization.memory [%], memory.used [MiB], power.draw [W]\n")
	mem := 72931
	if d.a.oldEra {
		mem = 73187
	}
	t := d.benchStart.Add(time.Duration(rng.IntN(400)) * time.Millisecond)
	for i := 0; !t.After(d.benchEnd); i++ {
		var u, mu int
		var p float64
		if d.a.intermittent && i%2 == 1 {
			u, mu, p = 3+rng.IntN(16), 1+rng.IntN(6), 180+60*rng.Float64()
		} else if d.a.intermittent {
			u, mu, p = 86+rng.IntN(11), 30+rng.IntN(10), 540+80*rng.Float64()
		} else {
			u, mu, p = 93+rng.IntN(6), 36+rng.IntN(9), 610+70*rng.Float64()
		}
		fmt.Fprintf(&b, "%s, 0, %s, %d %%, %d %%, %d MiB, %.2f W\n",
			t.Format("2006/01/02 15:04:05.000"), gpuName, u, mu, mem, p)
		t = t.Add(500*time.Millisecond + time.Duration(1+rng.IntN(3))*time.Millisecond)
	}
	return b.String()
}
