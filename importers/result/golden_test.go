package result

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers/format"
	"benchlens/internal/goldenfile"
	"benchlens/model"
)

// TestGolden compares what the readers make of every result file of testdata and of the real
// fixtures (../../testdata/fixtures/results) with testdata/golden/<file>.json (go test
// -update rewrites them), as the evidence readers' goldens do: the runs with every field,
// the first and last per-request records, a part, why a file is no run, or the refusal.
func TestGolden(t *testing.T) {
	for _, src := range []struct{ dir, golden string }{
		{"testdata", ""},
		{filepath.Join("..", "..", "testdata", "fixtures", "results"), "fixtures"},
		// The results among the newer formats' real files (MLPerf LoadGen, inference-perf).
		{filepath.Join("..", "..", "testdata", "fixtures", "turn3"), "turn3"},
	} {
		err := filepath.WalkDir(src.dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && (d.Name() == "golden" || d.Name() == "fuzz" || d.Name() == "gen") {
				return filepath.SkipDir
			}
			if d.IsDir() || d.Name() == "README.md" || d.Name() == "bundle.yaml" || d.Name() == "SOURCES.md" {
				return nil
			}
			if src.golden == "turn3" && !strings.Contains(d.Name(), "mlperf") && !strings.Contains(d.Name(), "inference-perf") {
				return nil // the profiler and device files are the evidence readers'
			}
			rel, _ := filepath.Rel(src.dir, path)
			rel = filepath.ToSlash(rel)
			t.Run(rel, func(t *testing.T) {
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				// The name a bundle entry would have: the folder's own name first.
				p, err := parseFile(rel, data)
				goldenfile.JSON(t, filepath.Join("testdata", "golden", src.golden, rel+".json"), goldenOf(p, err))
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// golden is what a golden file holds.
type golden struct {
	Runs []goldenRun `json:"runs,omitempty"`
	Part *goldenPart `json:"part,omitempty"`
	// PartAlone is the run a part that completes its summary (Fill) makes without one.
	PartAlone *model.Run `json:"part_alone,omitempty"`
	Why       string     `json:"why,omitempty"`
	// Evidence is what a file of the results' families that is evidence says (an MLPerf system
	// description, an inference-perf prometheus report).
	Evidence *model.Evidence `json:"evidence,omitempty"`
	Warnings []model.Warning `json:"warnings,omitempty"`
	Error    string          `json:"error,omitempty"`
}

type goldenRun struct {
	*model.Run
	Requests *goldenRequests `json:"requests,omitempty"`
}

type goldenPart struct {
	Tool     string          `json:"tool"`
	Stem     string          `json:"stem"`
	Warmup   int             `json:"warmup,omitempty"`
	Extra    map[string]any  `json:"extra,omitempty"`
	Requests *goldenRequests `json:"requests,omitempty"`
}

// goldenRequests keeps a golden file small: how many records, the first three and the last.
type goldenRequests struct {
	Count int             `json:"count"`
	First []goldenRequest `json:"first"`
	Last  *goldenRequest  `json:"last,omitempty"`
}

type goldenRequest struct {
	InputLen  int       `json:"input_len"`
	OutputLen int       `json:"output_len"`
	TTFT      model.Num `json:"ttft_s"`
	TPOT      model.Num `json:"tpot_s"`
	Latency   model.Num `json:"latency_s"`
	Start     model.Num `json:"start_s"`
	// The gaps between streamed chunks: how many, the first three and their sum.
	Gaps     int          `json:"gaps"`
	ITLFirst model.Series `json:"itl_first_s,omitempty"`
	ITLSum   model.Num    `json:"itl_sum_s"`
	Error    string       `json:"error,omitempty"`
}

func goldenOf(p format.Parsed, err error) golden {
	g := golden{Why: p.Why, Warnings: p.Warnings, Evidence: p.Evidence}
	if err != nil {
		g.Error = strings.ReplaceAll(err.Error(), `\`, "/")
	}
	for _, r := range p.Runs {
		g.Runs = append(g.Runs, goldenRun{r, requestsOf(r.Requests)})
	}
	if p.Part != nil {
		g.Part = &goldenPart{p.Part.Tool, p.Part.Stem, p.Part.Warmup, p.Part.Extra, requestsOf(p.Part.Requests)}
		if p.Part.Fill != nil {
			g.PartAlone = model.NewRun(p.Part.Tool)
			p.Part.Fill(g.PartAlone)
		}
	}
	return g
}

func requestsOf(reqs []model.Request) *goldenRequests {
	if len(reqs) == 0 {
		return nil
	}
	one := func(r model.Request) goldenRequest {
		sum := 0.0
		for _, g := range r.ITL {
			sum += g
		}
		return goldenRequest{r.InputLen, r.OutputLen, model.Num(r.TTFT), model.Num(r.TPOT), model.Num(r.Latency),
			model.Num(r.Start), len(r.ITL), model.Series(r.ITL[:min(3, len(r.ITL))]), model.Num(sum), r.Error}
	}
	g := &goldenRequests{Count: len(reqs)}
	for _, r := range reqs[:min(3, len(reqs))] {
		g.First = append(g.First, one(r))
	}
	if len(reqs) > 3 {
		last := one(reqs[len(reqs)-1])
		g.Last = &last
	}
	return g
}
