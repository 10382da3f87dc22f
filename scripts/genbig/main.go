// Command genbig writes one large, synthetic vLLM benchmark result file, as
// `vllm bench serve --save-result --save-detailed` (vLLM >= 0.10) would write
// it, for import benchmarks.
//
// The output is deterministic: a fixed PCG seed drives every random choice,
// so the same flags always give the same bytes.
//
// Realism notes:
//   - Timestamps are simulated as integer nanoseconds of a monotonic clock and
//     turned into seconds the way Python's time.perf_counter() does
//     (float64(ns)/1e9). TTFTs and inter-token gaps are differences of those
//     floats, so they carry the same ~17 significant digits of rounding noise
//     as real files (0.011045120999824576).
//   - Floats are written like Python's repr (shortest round-trip digits,
//     exponent form only below 1e-4 or from 1e16 up), strings like json.dump
//     with ensure_ascii=True, separators ", " and ": ", one line, no trailing
//     newline.
//   - The summary statistics are computed from the arrays the way vLLM does
//     with numpy: pairwise summation, population std, linear-interpolated
//     percentile, over successful requests only.
//   - Key order follows vllm/benchmarks/serve.py (>= 0.10): header keys,
//     summary keys, the per-request arrays, max_output_tokens_per_s,
//     max_concurrent_requests, then the latency statistics. -stats-first moves
//     max_* and the statistics before the arrays instead.
//
// Usage:
//
//	go run ./scripts/genbig -out big.json [-requests 20000] [-output-len 256]
//	go run ./scripts/genbig -count 10000 -requests 20 -out DIR
//
// -count N writes N files (run-00001.json, …) into the folder -out, the i-th with seed+i, for
// the import of a folder of many small results.
package main

import (
	"benchlens/internal/numpy"
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

type request struct {
	inputLen  int
	outputLen int
	failed    bool
	startNs   int64 // monotonic ns
	endNs     int64 // last chunk ns
	ttft      float64
	itls      []float64
	text      string
	err       string
}

func main() {
	var (
		nReq        = flag.Int("requests", 20000, "number of requests (num_prompts)")
		outLen      = flag.Int("output-len", 256, "output tokens per successful request (ignore_eos)")
		inLen       = flag.Int("input-len", 1024, "mean input (prompt) tokens")
		concurrency = flag.Int("concurrency", 256, "max_concurrency")
		textLen     = flag.Int("text-len", 266, "approximate length in characters of each generated_text")
		failEvery   = flag.Int("fail-every", 2000, "about one request in N fails (0 = no failures)")
		statsFirst  = flag.Bool("stats-first", false, "write max_* and the latency statistics before the per-request arrays")
		out         = flag.String("out", "", "output file (required)")
		seed        = flag.Uint64("seed", 20250325, "PCG seed")
		count       = flag.Int("count", 0, "write this many files, each of its own seed, into the folder -out")
	)
	flag.Parse()
	if *out == "" || *nReq <= 0 || *outLen <= 0 || *concurrency <= 0 || *count < 0 {
		fmt.Fprintln(os.Stderr, "usage: genbig -out FILE [-requests N] [-output-len N] | genbig -count N -out DIR")
		os.Exit(2)
	}
	one := func(path string, seed uint64) error {
		rng := rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15))
		reqs := simulate(rng, *nReq, *outLen, *inLen, *concurrency, *textLen, *failEvery)
		return writeFile(path, reqs, *concurrency, *statsFirst)
	}
	if *count == 0 {
		if err := one(*out, *seed); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for i := range *count {
		if err := one(filepath.Join(*out, fmt.Sprintf("run-%05d.json", i+1)), *seed+uint64(i)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// writeFile writes one result file.
func writeFile(path string, reqs []request, conc int, statsFirst bool) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	if err := write(w, reqs, conc, statsFirst); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// perf converts monotonic nanoseconds to seconds like Python's perf_counter.
func perf(ns int64) float64 { return float64(ns) / 1e9 }

// clockBase is the simulated perf_counter() value at benchmark start.
const clockBase int64 = 81234_567891234

var words = []string{
	"the", "of", "and", "to", "in", "a", "is", "that", "for", "it", "as", "was", "with", "be",
	"by", "on", "not", "he", "this", "are", "or", "his", "from", "at", "which", "but", "have",
	"an", "had", "they", "you", "were", "their", "one", "all", "we", "can", "her", "has",
	"there", "been", "if", "more", "when", "will", "would", "who", "so", "no", "model",
	"token", "latency", "throughput", "request", "server", "batch", "cache", "memory",
	"beauty's", "rose", "creatures", "fairest", "increase", "thereby", "decease", "tender",
	"heir", "bear", "memory:", "contracted", "bright", "eyes", "feed'st", "light's", "flame",
}

var errorTexts = []string{
	"Traceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/vllm/benchmarks/lib/endpoint_request_func.py\", line 158, in async_request_openai_completions\n    async for chunk_bytes in response.content.iter_any():\n  File \"/usr/local/lib/python3.12/dist-packages/aiohttp/streams.py\", line 52, in __anext__\n    rv = await self.read_func()\naiohttp.client_exceptions.ClientPayloadError: Response payload is not completed: <TransferEncodingError: 400, message='Not enough data for satisfy transfer length header.'>\n",
	"Bad Request",
	"Traceback (most recent call last):\n  File \"/usr/local/lib/python3.12/dist-packages/vllm/benchmarks/lib/endpoint_request_func.py\", line 131, in async_request_openai_completions\n    async with session.post(url=api_url, json=payload, headers=headers) as response:\naiohttp.client_exceptions.ServerDisconnectedError: Server disconnected\n",
}

func genText(rng *rand.Rand, target int) string {
	if target <= 0 {
		return ""
	}
	n := target/2 + rng.IntN(target+1) // mean ~ target
	b := make([]byte, 0, n+16)
	for len(b) < n {
		if len(b) > 0 {
			switch r := rng.IntN(40); {
			case r == 0:
				b = append(b, ".\n\n"...)
			case r < 3:
				b = append(b, ", "...)
			default:
				b = append(b, ' ')
			}
		}
		b = append(b, words[rng.IntN(len(words))]...)
	}
	return string(b)
}

// lognorm returns exp(N(0, sigma)).
func lognorm(rng *rand.Rand, sigma float64) float64 { return math.Exp(rng.NormFloat64() * sigma) }

func simulate(rng *rand.Rand, n, outLen, inLen, conc, textLen, failEvery int) []request {
	reqs := make([]request, n)
	slots := make([]int64, min(conc, n)) // time (ns from start) each slot frees up
	for i := range slots {
		slots[i] = 0
	}
	lo, hi := inLen*9/10, inLen*11/10
	for i := range reqs {
		r := &reqs[i]
		r.inputLen = lo + rng.IntN(hi-lo+1)
		// earliest free slot (linear scan, conc is small)
		s := 0
		for j := 1; j < len(slots); j++ {
			if slots[j] < slots[s] {
				s = j
			}
		}
		start := slots[s] + 20_000 + int64(rng.IntN(180_000)) // dispatch overhead 20-200 us
		r.startNs = clockBase + start
		// prefill: ~15 us per prompt token, plus queueing behind other prefills
		prefill := float64(r.inputLen)*15_000*lognorm(rng, 0.05) + 8e6
		queue := rng.ExpFloat64() * 25e6
		if i < conc { // the first wave all arrives at once
			queue += float64(i) * 1.1e6
		}
		t := start + int64(prefill+queue)
		if failEvery > 0 && rng.IntN(failEvery) == 0 {
			r.failed = true
			r.err = errorTexts[rng.IntN(len(errorTexts))]
			r.ttft = 0.0
			r.itls = []float64{}
			r.endNs = clockBase + t
			slots[s] = t
			continue
		}
		r.outputLen = outLen
		r.ttft = perf(clockBase+t) - perf(r.startNs)
		r.itls = make([]float64, outLen-1)
		prev := clockBase + t
		for k := range r.itls {
			g := 13.2e6 * lognorm(rng, 0.07)
			switch u := rng.Float64(); {
			case u < 0.02: // stalled behind another request's prefill
				g += 10e6 + rng.Float64()*50e6
			case u < 0.025: // two chunks flushed back to back
				g = 20e3 + rng.Float64()*200e3
			}
			cur := prev + int64(g)
			r.itls[k] = perf(cur) - perf(prev)
			prev = cur
		}
		r.endNs = prev
		r.text = genText(rng, textLen)
		slots[s] = prev - clockBase
	}
	return reqs
}

// ---- numpy-compatible statistics -------------------------------------------

// sorted returns a sorted copy.
func sorted(a []float64) []float64 {
	s := append([]float64(nil), a...)
	sort.Float64s(s)
	return s
}

func npMedian(s []float64) float64 { // s sorted
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// npPercentile is numpy's default 'linear' method, including its _lerp.
func npPercentile(s []float64, p float64) float64 { // s sorted
	n := len(s)
	q := p / 100
	vi := float64(n-1) * q
	prev := math.Floor(vi)
	gamma := vi - prev
	i0 := int(prev)
	i1 := i0 + 1
	if i0 < 0 {
		i0 = 0
	}
	if i0 > n-1 {
		i0 = n - 1
	}
	if i1 > n-1 {
		i1 = n - 1
	}
	a, b := s[i0], s[i1]
	d := b - a
	if gamma >= 0.5 {
		return b - d*(1-gamma)
	}
	return a + d*gamma
}

type stats struct{ mean, median, std, p99 float64 }

// vllmStats follows vLLM: np.mean(x or 0)*1000 and so on.
func vllmStats(x []float64) stats {
	if len(x) == 0 {
		x = []float64{0}
	}
	s := sorted(x)
	return stats{numpy.Mean(x) * 1000, npMedian(s) * 1000, numpy.Std(x) * 1000, npPercentile(s, 99) * 1000}
}

// ---- JSON writing (Python json.dump style) ----------------------------------

type jw struct {
	w   *bufio.Writer
	buf []byte
	n   int // keys written so far
	err error
}

func (j *jw) raw(s string) {
	if j.err == nil {
		_, j.err = j.w.WriteString(s)
	}
}

func (j *jw) bytes(b []byte) {
	if j.err == nil {
		_, j.err = j.w.Write(b)
	}
}

func (j *jw) key(k string) {
	if j.n > 0 {
		j.raw(", ")
	}
	j.n++
	j.buf = appendPyString(j.buf[:0], k)
	j.bytes(j.buf)
	j.raw(": ")
}

// appendPyFloat formats like Python's float.__repr__ (and json.dump for
// non-finite values with allow_nan=True).
func appendPyFloat(b []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, 1):
		return append(b, "Infinity"...)
	case math.IsInf(v, -1):
		return append(b, "-Infinity"...)
	}
	if v == 0 {
		if math.Signbit(v) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	a := math.Abs(v)
	if a >= 1e-4 && a < 1e16 {
		start := len(b)
		b = strconv.AppendFloat(b, v, 'f', -1, 64)
		for _, c := range b[start:] {
			if c == '.' {
				return b
			}
		}
		return append(b, ".0"...)
	}
	// exponent form: Go's 'e' with shortest digits gives "1.5e-05", "1e+16",
	// which is what Python prints.
	return strconv.AppendFloat(b, v, 'e', -1, 64)
}

const hexDigits = "0123456789abcdef"

// appendPyString writes a JSON string like json.dumps with ensure_ascii=True.
func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				if c < 0x20 || c == 0x7f { // json ESCAPE_ASCII: anything outside " "..."~"
					b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
				} else {
					b = append(b, c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		emit := func(u rune) {
			b = append(b, '\\', 'u', hexDigits[u>>12&15], hexDigits[u>>8&15], hexDigits[u>>4&15], hexDigits[u&15])
		}
		if r >= 0x10000 {
			r1, r2 := utf16.EncodeRune(r)
			emit(r1)
			emit(r2)
		} else {
			emit(r)
		}
	}
	return append(b, '"')
}

func (j *jw) str(k, v string) {
	j.key(k)
	j.buf = appendPyString(j.buf[:0], v)
	j.bytes(j.buf)
}

func (j *jw) int(k string, v int) {
	j.key(k)
	j.buf = strconv.AppendInt(j.buf[:0], int64(v), 10)
	j.bytes(j.buf)
}

func (j *jw) float(k string, v float64) {
	j.key(k)
	j.buf = appendPyFloat(j.buf[:0], v)
	j.bytes(j.buf)
}

func (j *jw) null(k string) {
	j.key(k)
	j.raw("null")
}

func write(w *bufio.Writer, reqs []request, conc int, statsFirst bool) error {
	// ---- metrics, as vllm/benchmarks/serve.py calculate_metrics ----
	var (
		completed, failed     int
		totalIn, totalOut     int
		ttfts, tpots, allITLs []float64
	)
	nGaps := 0
	for i := range reqs {
		nGaps += len(reqs[i].itls)
	}
	allITLs = make([]float64, 0, nGaps)
	var minStart, maxEnd float64 = math.Inf(1), math.Inf(-1)
	for i := range reqs {
		r := &reqs[i]
		if r.failed {
			failed++
			continue
		}
		completed++
		totalIn += r.inputLen
		totalOut += r.outputLen
		latency := perf(r.endNs) - perf(r.startNs)
		if r.outputLen > 1 {
			tpots = append(tpots, (latency-r.ttft)/float64(r.outputLen-1))
		}
		ttfts = append(ttfts, r.ttft)
		allITLs = append(allITLs, r.itls...)
		minStart = min(minStart, perf(r.startNs))
		maxEnd = max(maxEnd, perf(r.startNs)+latency)
	}
	var lastEnd int64
	for i := range reqs {
		lastEnd = max(lastEnd, reqs[i].endNs)
	}
	duration := perf(lastEnd+2_345_678) - perf(clockBase) // perf_counter() after gather

	// peak output tokens per 1 s bucket and peak concurrent requests
	maxTokPerS, maxConcReq := 0.0, 0
	if completed > 0 {
		nb := int(math.Ceil(maxEnd-minStart)) + 1
		tok := make([]float64, nb)
		cr := make([]float64, nb)
		for i := range reqs {
			r := &reqs[i]
			if r.failed {
				continue
			}
			st := perf(r.startNs)
			cur := st + r.ttft
			if b := int(cur - minStart); b >= 0 && b < nb {
				tok[b]++
			}
			for _, g := range r.itls {
				cur += g
				if b := int(cur - minStart); b >= 0 && b < nb {
					tok[b]++
				}
			}
			latency := perf(r.endNs) - st
			for s := int(st - minStart); s <= int(st+latency-minStart); s++ {
				cr[s]++
			}
		}
		for b := range tok {
			maxTokPerS = max(maxTokPerS, tok[b])
			maxConcReq = max(maxConcReq, int(cr[b]))
		}
	}
	sT, sP, sI := vllmStats(ttfts), vllmStats(tpots), vllmStats(allITLs)

	// ---- write ----
	j := &jw{w: w, buf: make([]byte, 0, 64<<10)}
	model := "meta-llama/Llama-3.1-8B-Instruct"
	j.raw("{")
	j.str("date", time.Date(2025, 9, 4, 20, 33, 17, 0, time.UTC).Format("20060102-150405"))
	j.str("endpoint_type", "openai")
	j.str("backend", "openai")
	j.null("label")
	j.str("model_id", model)
	j.str("tokenizer_id", model)
	j.int("num_prompts", len(reqs))
	j.str("request_rate", "inf")
	j.float("burstiness", 1.0)
	j.int("max_concurrency", conc)
	j.float("duration", duration)
	j.int("completed", completed)
	j.int("failed", failed)
	j.int("total_input_tokens", totalIn)
	j.int("total_output_tokens", totalOut)
	j.float("request_throughput", float64(completed)/duration)
	j.null("request_goodput")
	j.float("output_throughput", float64(totalOut)/duration)
	j.float("total_token_throughput", float64(totalIn+totalOut)/duration)

	tail := func() {
		j.float("max_output_tokens_per_s", maxTokPerS)
		j.int("max_concurrent_requests", maxConcReq)
	}
	statKeys := func() {
		for _, m := range []struct {
			name string
			s    stats
		}{{"ttft", sT}, {"tpot", sP}, {"itl", sI}} {
			j.float("mean_"+m.name+"_ms", m.s.mean)
			j.float("median_"+m.name+"_ms", m.s.median)
			j.float("std_"+m.name+"_ms", m.s.std)
			j.float("p99_"+m.name+"_ms", m.s.p99)
		}
	}
	if statsFirst {
		tail()
		statKeys()
	}

	// per-request arrays
	arr := func(k string, elem func(b []byte, r *request) []byte) {
		j.key(k)
		j.raw("[")
		for i := range reqs {
			b := j.buf[:0]
			if i > 0 {
				b = append(b, ", "...)
			}
			j.buf = elem(b, &reqs[i])
			j.bytes(j.buf)
		}
		j.raw("]")
	}
	arr("input_lens", func(b []byte, r *request) []byte { return strconv.AppendInt(b, int64(r.inputLen), 10) })
	arr("output_lens", func(b []byte, r *request) []byte { return strconv.AppendInt(b, int64(r.outputLen), 10) })
	arr("ttfts", func(b []byte, r *request) []byte { return appendPyFloat(b, r.ttft) })
	arr("itls", func(b []byte, r *request) []byte {
		b = append(b, '[')
		for k, g := range r.itls {
			if k > 0 {
				b = append(b, ", "...)
			}
			b = appendPyFloat(b, g)
		}
		return append(b, ']')
	})
	arr("generated_texts", func(b []byte, r *request) []byte { return appendPyString(b, r.text) })
	arr("errors", func(b []byte, r *request) []byte { return appendPyString(b, r.err) })

	if !statsFirst {
		tail()
		statKeys()
	}
	j.raw("}")
	return j.err
}
