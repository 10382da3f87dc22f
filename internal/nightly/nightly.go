// Package nightly generates a nightly benchmark series as a CI job leaves it, for the history
// tests of the command line and the app (issue 27's check).
package nightly

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// A generated nightly series, as a CI job leaves it: one folder per night with the `vllm bench
// serve --save-result` JSON (per-request arrays), the server log and a bundle.yaml naming the
// driver. Its story (nights counted from 0, first night 2026-11-01):
//
//	night  8: a lone outlier (every stage 35 % slower, back the next night)
//	night 14: driver 550.54.15 → 560.35.03, nothing moves
//	night 20: vLLM 0.13.0 → 0.13.1, prefill-only gain (TTFT −12 %)
//	night 28: vLLM 0.13.1 → 0.14.0, FLASH_ATTN no longer valid: falls back to TRITON_ATTN,
//	          decode +10 % (TPOT, ITL), E2E up, throughput down
//
// and a second series, steady-a100 (named by bundle.yaml's series: key), steady and noisy.

// Nights is how many nights the story has.
const Nights = 40

type night struct {
	date     time.Time
	engine   string
	driver   string
	resolved string
	fallback bool
	ttft     float64 // ms, the night's level
	tpot     float64 // ms
}

// nightlyStory is the nightly-h100 series' nights.
func nightlyStory(nights int) []night {
	rng := rand.New(rand.NewPCG(27, 1))
	start := time.Date(2026, 11, 1, 2, 0, 0, 0, time.UTC)
	var out []night
	for n := range nights {
		nt := night{date: start.AddDate(0, 0, n), engine: "0.13.0", driver: "550.54.15", resolved: "FLASH_ATTN", ttft: 50, tpot: 12}
		if n >= 14 {
			nt.driver = "560.35.03"
		}
		if n >= 20 {
			nt.engine, nt.ttft = "0.13.1", 44
		}
		if n >= 28 {
			nt.engine, nt.resolved, nt.fallback, nt.tpot = "0.14.0", "TRITON_ATTN", true, 13.2
		}
		noise := 1 + 0.01*rng.NormFloat64()
		nt.ttft *= noise
		nt.tpot *= 1 + 0.01*rng.NormFloat64()
		if n == 8 {
			nt.ttft, nt.tpot = nt.ttft*1.35, nt.tpot*1.35
		}
		out = append(out, nt)
	}
	return out
}

// steadyStory is a steady series with 2.5 % night-to-night noise.
func steadyStory(nights int) []night {
	rng := rand.New(rand.NewPCG(28, 1))
	start := time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)
	var out []night
	for n := range nights {
		out = append(out, night{date: start.AddDate(0, 0, n), engine: "0.13.0", driver: "550.54.15", resolved: "FLASH_ATTN",
			ttft: 70 * (1 + 0.025*rng.NormFloat64()), tpot: 20 * (1 + 0.025*rng.NormFloat64())})
	}
	return out
}

// Write writes nights [from, to) of both series under dir, as <series>/<date>/.
func Write(dir string, from, to int) error { return WriteOnly(dir, "", from, to) }

// WriteOnly writes nights [from, to) of one series (every series when series is "").
func WriteOnly(dir, series string, from, to int) error {
	for _, s := range []struct {
		name, manifest string
		nights         []night
	}{
		{"nightly-h100", "label: nightly-h100\nrole: other\n", nightlyStory(to)},
		{"steady-a100", "label: a100-nightly\nrole: other\nseries: {name: steady-a100}\n", steadyStory(to)},
	} {
		if series != "" && s.name != series {
			continue
		}
		for n, nt := range s.nights {
			if n < from {
				continue
			}
			folder := filepath.Join(dir, s.name, nt.date.Format("2006-01-02"))
			if err := os.MkdirAll(folder, 0o755); err != nil {
				return err
			}
			manifest := s.manifest + fmt.Sprintf("stack_fingerprint:\n  driver_version: %q\n  base_stack_version: \"CUDA 12.9, torch 2.9.0\"\n", nt.driver) +
				"hardware_sku: \"NVIDIA H100 80GB HBM3 x1\"\nnode: {machine: ci-h100-03}\n" +
				"workload: {model_name: meta-llama/Llama-3.1-8B-Instruct, dataset: random, input_len: 1024, output_len: 64, seed: 1234, max_concurrency: 16}\n"
			end := nt.date.Add(6 * time.Minute)
			files := map[string]string{
				"bundle.yaml": manifest,
				"server.log":  nightLog(nt),
				fmt.Sprintf("vllm-infqps-concurrency16-Llama-3.1-8B-Instruct-%s.json", end.Format("20060102-150405")): nightResult(nt, end, uint64(n)+seedOfName(s.name)),
			}
			for name, text := range files {
				if err := os.WriteFile(filepath.Join(folder, name), []byte(text), 0o644); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func seedOfName(s string) uint64 {
	var h uint64 = 1469598103934665603
	for _, c := range s {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

const nightModel = "meta-llama/Llama-3.1-8B-Instruct"

// nightLog is the night's vLLM server log: version, the args asking for FLASH_ATTN, and the
// backend it resolved (with the selector's reasons when it fell back).
func nightLog(nt night) string {
	ts := nt.date.Format("01-02 15:04:05")
	api, core := "(APIServer pid=31544)", "(EngineCore_DP0 pid=31714)"
	var b strings.Builder
	line := func(tag, file, msg string) { fmt.Fprintf(&b, "%s INFO %s [%s] %s\n", tag, ts, file, msg) }
	b.WriteString("INFO " + ts + " [__init__.py:216] Automatically detected platform cuda.\n")
	line(api, "api_server.py:1839", "vLLM API server version "+nt.engine)
	line(api, "utils.py:233", "non-default args: {'model_tag': '"+nightModel+"', 'model': '"+nightModel+"', 'max_num_seqs': 64, 'attention_backend': 'FLASH_ATTN'}")
	line(api, "model.py:1510", "Using max model len 131072")
	line(core, "core.py:77", "Initializing a V1 LLM engine (v"+nt.engine+") with config: model='"+nightModel+"', dtype=torch.bfloat16, max_seq_len=131072, tensor_parallel_size=1, quantization=None, enforce_eager=False, kv_cache_dtype=auto, device_config=cuda, seed=0, enable_prefix_caching=True, enable_chunked_prefill=True")
	line(core, "gpu_model_runner.py:2602", "Starting to load model "+nightModel+"...")
	if nt.fallback {
		fmt.Fprintf(&b, "%s DEBUG %s [selector.py:162] Some attention backends are not valid for cuda with AttentionSelectorConfig(head_size=128, dtype=torch.bfloat16, kv_cache_dtype=auto, block_size=16, use_mla=False, has_sink=False, use_sparse=False). Reasons: {FLASH_ATTN: [FlashAttention 3 kernels are not built for this vLLM wheel]}.\n", core, ts)
		line(core, "cuda.py:366", "Using TRITON_ATTN attention backend out of potential backends: ['TRITON_ATTN', 'FLEX_ATTENTION'].")
	} else {
		line(core, "cuda.py:352", "Using AttentionBackendEnum."+nt.resolved+" backend.")
		line(core, "flash_attn.py:60", "Using FlashAttention version 3")
	}
	line(core, "gpu_model_runner.py:2653", "Model loading took 14.9889 GiB and 3.214508 seconds")
	line(core, "kv_cache_utils.py:1087", "GPU KV cache size: 444,576 tokens")
	line(api, "api_server.py:1912", "Starting vLLM API server 0 on http://0.0.0.0:8000")
	b.WriteString(api + " INFO:     Application startup complete.\n")
	return b.String()
}

// nightResult is the night's `vllm bench serve` result: 40 requests of 1024 → 64 tokens at
// concurrency 16, per-request TTFTs and gaps around the night's levels.
func nightResult(nt night, end time.Time, seed uint64) string {
	rng := rand.New(rand.NewPCG(seed, 7))
	const n, out = 40, 64
	var ttfts, lat, tpots, pooled []float64
	itls := make([][]float64, n)
	ins, outs := make([]int, n), make([]int, n)
	for i := range n {
		ins[i], outs[i] = 1024, out
		ttft := nt.ttft / 1e3 * (1 + 0.04*rng.NormFloat64())
		total := ttft
		for range out - 1 {
			g := nt.tpot / 1e3 * (1 + 0.05*rng.NormFloat64())
			itls[i] = append(itls[i], g)
			pooled = append(pooled, g)
			total += g
		}
		ttfts, lat = append(ttfts, ttft), append(lat, total)
		tpots = append(tpots, (total-ttft)/(out-1))
	}
	var sumLat float64
	for _, l := range lat {
		sumLat += l
	}
	duration := sumLat / 16 * 1.05
	res := map[string]any{
		"date": end.Format("20060102-150405"), "endpoint_type": "vllm", "backend": "vllm", "label": nil,
		"model_id": nightModel, "tokenizer_id": nightModel, "num_prompts": n, "request_rate": "inf", "burstiness": 1.0,
		"max_concurrency": 16, "duration": duration, "completed": n, "failed": 0,
		"total_input_tokens": n * 1024, "total_output_tokens": n * out, "request_throughput": n / duration,
		"request_goodput": nil, "output_throughput": float64(n*out) / duration, "total_token_throughput": float64(n*(1024+out)) / duration,
		"input_lens": ins, "output_lens": outs, "ttfts": ttfts, "itls": itls,
		"generated_texts": make([]string, n), "errors": make([]string, n),
	}
	for name, xs := range map[string][]float64{"ttft": ttfts, "tpot": tpots, "itl": pooled, "e2el": lat} {
		res["mean_"+name+"_ms"] = meanOf(xs) * 1e3
		res["median_"+name+"_ms"] = quantile(xs, 0.5) * 1e3
		res["std_"+name+"_ms"] = stdOf(xs) * 1e3
		res["p99_"+name+"_ms"] = quantile(xs, 0.99) * 1e3
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	return string(b)
}

func meanOf(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

func stdOf(xs []float64) float64 {
	m, s := meanOf(xs), 0.0
	for _, x := range xs {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(xs)))
}

func quantile(xs []float64, q float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	pos := q * float64(len(s)-1)
	lo := int(pos)
	if lo+1 >= len(s) {
		return s[lo]
	}
	return s[lo] + (pos-float64(lo))*(s[lo+1]-s[lo])
}
