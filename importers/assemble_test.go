package importers

import (
	"path"
	"testing"

	"benchlens/model"
)

// A genai-perf artifact folder (summary JSON, summary CSV, raw per-request export) is one run.
func TestGenAIPerfArtifactFolderIsOneRun(t *testing.T) {
	entries, errs := ReadBundle("testdata/genaiperf", DefaultLimits)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	items, errs := Assemble(entries)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(items) != 1 {
		t.Fatalf("%d runs, want 1", len(items))
	}
	it := items[0]
	if path.Base(it.Result.Name) != "profile_export_genai_perf.json" || len(it.Parts) != 2 || len(it.Run.Requests) == 0 {
		t.Errorf("result %s, %d parts, %d requests", it.Result.Name, len(it.Parts), len(it.Run.Requests))
	}
}

// The llmperf pair in the fixtures joins into one run with 80 requests.
func TestLLMPerfPairJoins(t *testing.T) {
	var entries []Entry
	for _, name := range []string{"03_01-ai-Yi-1-5-34B-Chat_550_150_summary.json", "12_01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json"} {
		e, errs := ReadBundle("../../shared/fixtures/results/"+name, DefaultLimits)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		e[0].Path = "yi/" + e[0].Path
		entries = append(entries, e...)
	}
	items, errs := Assemble(entries)
	if len(errs) > 0 || len(items) != 1 {
		t.Fatalf("%d runs, errors %v", len(items), errs)
	}
	if it := items[0]; it.Run.Tool != "llmperf" || len(it.Run.Requests) != 80 || len(it.Parts) != 1 || it.Result.Kind != model.KindResult {
		t.Errorf("tool %s, %d requests, %d parts", it.Run.Tool, len(it.Run.Requests), len(it.Parts))
	}
}
