package demo

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"
)

// TestEmbeddedMatchesGenerator keeps samples/ and the generator from drifting apart.
func TestEmbeddedMatchesGenerator(t *testing.T) {
	dir := t.TempDir()
	if err := Generate(dir); err != nil {
		t.Fatal(err)
	}
	fresh := os.DirFS(dir)
	emb := Samples()
	files := func(fsys fs.FS) []string {
		var out []string
		err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				out = append(out, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fa, ea := files(fresh), files(emb)
	if !slices.Equal(fa, ea) {
		t.Fatalf("file lists differ; run go generate ./demo\nfresh: %v\nembedded: %v", fa, ea)
	}
	for _, p := range fa {
		a, _ := fs.ReadFile(fresh, p)
		b, _ := fs.ReadFile(emb, p)
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from a fresh generation; run go generate ./demo", p)
		}
	}
}

type result struct {
	MedianTTFT float64     `json:"median_ttft_ms"`
	MedianTPOT float64     `json:"median_tpot_ms"`
	InputLens  []int       `json:"input_lens"`
	ITLs       [][]float64 `json:"itls"`
	Completed  int         `json:"completed"`
}

// loadArm reads the result of every run of an arm, checking each run folder is complete.
func loadArm(t *testing.T, arm string) []result {
	t.Helper()
	fsys := Samples()
	if _, err := fs.Stat(fsys, path.Join(arm, "bundle.yaml")); err != nil {
		t.Fatalf("%s: %v", arm, err)
	}
	runs, err := fs.Glob(fsys, arm+"/run-*")
	if err != nil || len(runs) == 0 {
		t.Fatalf("%s: no runs (%v)", arm, err)
	}
	var out []result
	for i := range runs {
		rd := path.Join(arm, "run-"+string(rune('1'+i)))
		for _, f := range []string{"server.log", "gpu.csv"} {
			if _, err := fs.Stat(fsys, path.Join(rd, f)); err != nil {
				t.Errorf("%s: %v", rd, err)
			}
		}
		if i == 0 {
			raw, err := fs.ReadFile(fsys, path.Join(rd, "trace.json"))
			if err != nil || !json.Valid(raw) {
				t.Errorf("%s/trace.json missing or invalid (%v)", rd, err)
			}
		}
		res, _ := fs.Glob(fsys, rd+"/vllm-infqps-concurrency16-Llama-3.1-8B-Instruct-*.json")
		if len(res) != 1 {
			t.Fatalf("%s: want one result file, have %v", rd, res)
		}
		raw, _ := fs.ReadFile(fsys, res[0])
		if bytes.HasSuffix(raw, []byte("\n")) || bytes.Count(raw, []byte("\n")) != 0 {
			t.Errorf("%s: json.dump writes one line without a trailing newline", res[0])
		}
		// Python may write the bare tokens NaN / Infinity; none are expected here, but
		// tolerate them the way an importer must.
		text := strings.NewReplacer("-Infinity", "null", "Infinity", "null", "NaN", "null").Replace(string(raw))
		var r result
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			t.Fatalf("%s: %v", res[0], err)
		}
		if r.Completed != numPrompts || len(r.InputLens) != numPrompts || len(r.ITLs) != numPrompts {
			t.Errorf("%s: want %d requests", res[0], numPrompts)
		}
		out = append(out, r)
	}
	return out
}

func medianOf(rs []result, f func(result) float64) float64 {
	var xs []float64
	for _, r := range rs {
		xs = append(xs, f(r))
	}
	return npMedian(xs)
}

func tpot(r result) float64 { return r.MedianTPOT }
func ttft(r result) float64 { return r.MedianTTFT }

func TestArmProperties(t *testing.T) {
	base := loadArm(t, "baseline")
	if len(base) != 5 {
		t.Fatalf("baseline has %d runs", len(base))
	}
	bTPOT, bTTFT := medianOf(base, tpot), medianOf(base, ttft)
	rel := func(c, b float64) float64 { return (c - b) / b }

	est := loadArm(t, "established")
	if d := rel(medianOf(est, tpot), bTPOT); d > -0.07 || d < -0.12 {
		t.Errorf("established TPOT change %.3f, want about -9%%", d)
	}
	if d := rel(medianOf(est, ttft), bTTFT); d > 0.01 || d < -0.01 {
		t.Errorf("established TTFT change %.3f, want about 0", d)
	}
	zero := loadArm(t, "zero")
	for _, f := range []func(result) float64{tpot, ttft} {
		if d := rel(medianOf(zero, f), medianOf(base, f)); d > 0.01 || d < -0.01 {
			t.Errorf("zero arm moved by %.3f", d)
		}
	}
	off := loadArm(t, "offset")
	if d := rel(medianOf(off, ttft), bTTFT); d > -0.05 {
		t.Errorf("offset TTFT change %.3f, want about -8%%", d)
	}
	if d := rel(medianOf(off, tpot), bTPOT); d < 0.02 {
		t.Errorf("offset TPOT change %.3f, want about +4%%", d)
	}
	drift := loadArm(t, "drift")
	if slices.Equal(drift[0].InputLens, base[0].InputLens) {
		t.Error("drift arm has the baseline's request set")
	}
	if !slices.Equal(est[0].InputLens, base[0].InputLens) || !slices.Equal(est[4].InputLens, base[2].InputLens) {
		t.Error("same seed must give the same request set")
	}
	if few := loadArm(t, "few-repeats"); len(few) != 2 {
		t.Errorf("few-repeats has %d runs, want 2", len(few))
	}
	for _, arm := range []string{"fallback", "driver-change"} {
		if rs := loadArm(t, arm); len(rs) != 5 {
			t.Errorf("%s has %d runs", arm, len(rs))
		}
	}
}

func TestLogsAndManifests(t *testing.T) {
	fsys := Samples()
	read := func(p string) string {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if l := read("fallback/run-1/server.log"); !strings.Contains(l, "'attention_backend': 'FLASHINFER'") ||
		!strings.Contains(l, "Reasons: {FLASHINFER:") || !strings.Contains(l, "Using FLASH_ATTN attention backend out of potential backends") {
		t.Error("fallback log lacks target, reason or resolved line")
	}
	if l := read("established/run-1/server.log"); !strings.Contains(l, "(EngineCore_DP0 pid=") ||
		!strings.Contains(l, "[cuda.py:352] Using AttentionBackendEnum.FLASHINFER backend.") {
		t.Error("established log lacks the new-era backend line")
	}
	if l := read("driver-change/run-1/server.log"); !strings.Contains(l, " selector.py:141] Using Flashinfer backend.") ||
		strings.Contains(l, "[") && strings.Contains(l, "] Using Flashinfer") && strings.Contains(l, "[selector") {
		t.Error("driver-change log is not in the old era format")
	}
	if m := read("few-repeats/bundle.yaml"); !strings.Contains(m, "warmup_iters: 0") {
		t.Error("few-repeats must record no warm-up")
	}
	if m := read("driver-change/bundle.yaml"); !strings.Contains(m, `driver_version: "560.35.03"`) {
		t.Error("driver-change manifest lacks its driver")
	}
	if c := read("offset/run-1/gpu.csv"); !strings.HasPrefix(c, "timestamp, index, name, utilization.gpu [%]") {
		t.Error("gpu.csv header")
	}
}
