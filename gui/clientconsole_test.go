package gui

import (
	"strings"
	"testing"

	"path/filepath"

	"benchlens/library"
	"benchlens/model"
)

// A real lab folder of TPU attempts (../cmd/benchlens/testdata/labruns/tpu-attempts): each
// run's Summary draws no Engine row from its client consoles ("vllm on , dtype ," was drawn
// once per console) and no backend asked; its Evidence names the consoles as the client's and
// none of the failed attempts' server logs; the sidebar draws no backend for it (a lone "?"
// was drawn). Run A, then run B, each read off the canvas.
func TestRunViewOfClientConsoles(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	rep := library.Import(u.st, []string{"../cmd/benchlens/testdata/labruns/tpu-attempts"}, library.Options{})
	if len(rep.Errors) > 0 || len(rep.Added) != 5 {
		t.Fatalf("import: added %v, errors %v", rep.Added, rep.Errors)
	}
	ui(u.libraryChanged)
	clickRow(t, u, "tpu-attempts (")
	eventually(t, "the arm's runs drawn", func() bool { return strings.Contains(drawnText(u.library.content), "#1 ") })
	if text := get(func() string { return drawnText(u.library.content) }); !strings.Contains(text, "1 req/s · ≈1024 in · 04-26 20:07 #2") || strings.Contains(text, "?") {
		t.Errorf("a run of no server log is drawn with a backend:\n%s", text)
	}
	ui(func() { u.showView(viewRun) })
	for _, id := range []int64{rep.Added[0], rep.Added[4]} {
		ui(func() { u.run.show(id) })
		eventually(t, "the run's evidence", func() bool {
			return u.run.current == id && strings.Contains(u.run.evidence.Text, "benchmark client console")
		})
		var summary, evidence string
		ui(func() {
			u.run.tabs.SelectIndex(0)
			summary = drawnText(u.run.summary)
			u.run.tabs.SelectIndex(3) // drawn at the tab's width once it is shown
			evidence = drawnText(u.run.evidence)
			u.run.tabs.SelectIndex(0)
		})
		if strings.Contains(summary, "Engine") || strings.Contains(summary, "dtype ,") {
			t.Errorf("run %d's summary draws an engine from client consoles:\n%s", id, summary)
		}
		for _, never := range []string{"FLASH_ATTN", "server failed", "20260426-190650", "20260426-191618"} {
			if strings.Contains(summary+evidence, never) {
				t.Errorf("run %d draws %q:\n%s\n%s", id, never, summary, evidence)
			}
		}
		if !strings.Contains(evidence, "nothing in it is the server's") {
			t.Errorf("run %d's evidence does not say its consoles are the client's:\n%s", id, evidence)
		}
	}
}

// The Engine row says only what the log says.
func TestEngineText(t *testing.T) {
	for _, c := range []struct {
		log  model.LogEvidence
		want string
	}{
		{model.LogEvidence{Engine: "vllm", Version: "0.11.0", Platform: "cuda", Dtype: "bfloat16", Eager: "cuda_graph"}, "vllm 0.11.0, platform cuda, dtype bfloat16, cuda_graph"},
		{model.LogEvidence{Engine: "vllm", Platform: "tpu"}, "vllm, platform tpu"},
		{model.LogEvidence{Engine: "vllm"}, ""},
		{model.LogEvidence{Engine: "vllm", Client: &model.Line{N: 14, Text: "Namespace(subparser='bench')"}}, ""},
		{model.LogEvidence{}, ""},
	} {
		if got := engineText(&c.log); got != c.want {
			t.Errorf("engineText(%+v) = %q, want %q", c.log, got, c.want)
		}
	}
}
