package store

import (
	"maps"
	"math"
	"testing"

	"benchlens/model"
)

// BenchmarkListedDecode is one run's listed fields out of its stored JSON (a nightly vLLM
// run's header, summary and recomputed statistics): the per-run cost of listing 100,000 runs.
func BenchmarkListedDecode(b *testing.B) {
	run := sampleRun("vllm")
	run.Era, run.Precision, run.Model, run.Date = "G (vLLM >=0.10)", "BF16", "meta-llama/Llama-3.1-8B-Instruct", "20260101-020000"
	run.NumPrompts, run.Completed, run.Failed, run.MaxConcurrency = 40, 40, 0, 16
	run.DurationS, run.OutputThroughput, run.TotalTokenThroughput = 2.1111216478225177, 1298.8806996318046, 20614.633952945347
	run.Definitions = map[string]string{model.ITL: "pooled over every gap between streamed chunks of successful requests",
		model.TPOT: "per request: (latency - ttft) / (output_len - 1), requests with output_len > 1"}
	stats := map[string]model.Stats{}
	for _, m := range model.Latencies {
		stats[m] = model.Stats{"mean": 804.2368182181015, "median": 804.4932161832137, "p99": 815.6643196964342, "std": 5.135153527416296}
	}
	run.Summary, run.Recomputed = stats, stats
	cols, err := EncodeRun(run)
	if err != nil {
		b.Fatal(err)
	}
	c := listedCols{id: 1, label: "base", header: cols.header, summary: cols.summary, rec: cols.recomputed, manifest: "{}"}
	for b.Loop() {
		if _, err := c.decode(nil); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMediansListing: a Medians listing keeps of each latency's statistics only the medians,
// and says of every metric what the whole listing says (Stats.Median, Run.Used), whether the
// run is listed from its packed listing or from its JSON columns.
func TestMediansListing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		stats model.Stats
		want  model.Stats // of the Medians listing
	}{
		{"median", model.Stats{"mean": 3, "median": 2, "p99": 9}, model.Stats{"median": 2}},
		{"p50", model.Stats{"mean": 3, "p50": 2, "p99": 9}, model.Stats{"p50": 2}},
		{"both", model.Stats{"median": model.Unknown, "p50": 2, "p90": 5}, model.Stats{"median": model.Unknown, "p50": 2}},
		{"no median", model.Stats{"mean": 3, "p99": 9}, model.Stats{"median": model.Unknown}},
		{"empty", model.Stats{}, model.Stats{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := sampleRun("vllm")
			run.Summary = map[string]model.Stats{model.TTFT: tc.stats, model.TPOT: {"median": 7}}
			run.Recomputed = map[string]model.Stats{model.ITL: tc.stats}
			cols, err := EncodeRun(run)
			if err != nil {
				t.Fatal(err)
			}
			c := listedCols{id: 1, label: "base", header: cols.header, summary: cols.summary, rec: cols.recomputed, manifest: "{}"}
			whole, err := c.decode(nil)
			if err != nil {
				t.Fatal(err)
			}
			packed := c
			if packed.listing, err = listingOf(cols.header, cols.summary, cols.recomputed, cols.point); err != nil {
				t.Fatal(err)
			}
			for from, c := range map[string]listedCols{"json": c, "listing": packed} {
				got, err := c.decodeWith(&listingReader{medians: true}, nil)
				if err != nil {
					t.Fatal(from, err)
				}
				if !sameStats(got.Summary[model.TTFT], tc.want) || !sameStats(got.Recomputed[model.ITL], tc.want) {
					t.Errorf("%s: TTFT %v, ITL %v; want %v", from, got.Summary[model.TTFT], got.Recomputed[model.ITL], tc.want)
				}
				if !sameStats(got.Summary[model.TPOT], model.Stats{"median": 7}) {
					t.Errorf("%s: TPOT %v", from, got.Summary[model.TPOT])
				}
				for _, m := range model.Latencies {
					gv, gok := got.Stats(m).Median()
					wv, wok := whole.Stats(m).Median()
					if got.Used(m) != whole.Used(m) || gok != wok || (gok && gv != wv) {
						t.Errorf("%s %s: used %q, median %v %v; the whole listing's %q, %v %v", from, m, got.Used(m), gv, gok, whole.Used(m), wv, wok)
					}
				}
			}
		})
	}
}

// sameStats: the same statistics, an unknown one equal to an unknown one.
func sameStats(a, b model.Stats) bool {
	return (a == nil) == (b == nil) && maps.EqualFunc(a, b, func(x, y model.Num) bool { return x == y || math.IsNaN(float64(x)) && math.IsNaN(float64(y)) })
}

// A brief listing keeps of each run's listing only what it decodes (briefLen): the run, or
// the damage, it reads out of that part is the one it reads out of the whole listing.
func TestBriefLenKeepsWhatABriefListingReads(t *testing.T) {
	run := sampleRun("vllm")
	run.Date, run.Precision, run.Phase = "2026-01-01", "FP8", model.PhaseWarmup
	run.Sampled, run.ToolWarmup = &model.Sample{Records: 5, Population: 50}, &model.Warmup{Requests: 3}
	run.Definitions = map[string]string{model.ITL: "pooled"}
	cols, err := EncodeRun(run)
	if err != nil {
		t.Fatal(err)
	}
	whole := cols.listing
	brief := briefLen(whole)
	for _, tc := range []struct {
		name    string
		listing []byte
		want    int // briefLen
	}{
		{"whole", whole, brief},
		{"cut after the brief part", whole[:brief], brief},
		{"cut inside the brief part", whole[:brief-3], brief - 3},
		{"another version", append([]byte{listingVersion + 1}, whole[1:]...), len(whole)},
		{"empty", []byte{}, 0},
		{"a text longer than the listing", append([]byte{listingVersion, 0xff, 0x7f}, whole[1:]...), len(whole) + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := briefLen(tc.listing)
			if n != tc.want {
				t.Errorf("briefLen = %d, want %d", n, tc.want)
			}
			read := func(listing []byte) string {
				c := listedCols{id: 1, label: "base", listing: listing, manifest: "{}"}
				r, err := c.decodeWith(&listingReader{brief: true}, nil)
				if err != nil {
					return err.Error()
				}
				return asJSON(t, r)
			}
			if got, want := read(tc.listing[:n]), read(tc.listing); got != want {
				t.Errorf("the brief part reads\n%s\nthe whole listing\n%s", got, want)
			}
		})
	}
	if brief >= len(whole) || brief < 2 {
		t.Errorf("the brief part of a listing of %d bytes is %d", len(whole), brief)
	}
}
