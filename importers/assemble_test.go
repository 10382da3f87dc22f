package importers

import (
	"math"
	"path"
	"testing"

	"benchlens/model"
)

// A genai-perf artifact folder (summary JSON, summary CSV, raw per-request export) is one run.
func TestGenAIPerfArtifactFolderIsOneRun(t *testing.T) {
	entries, errs := ReadBundle("result/testdata/genaiperf", DefaultLimits)
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
		e, errs := ReadBundle("../testdata/fixtures/results/"+name, DefaultLimits)
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

// AIPerf's per-request profile_export.jsonl (record shape of the AIPerf docs, ≈0.2-0.5)
// joins the summary beside it: one run with its requests.
func TestAIPerfRecordsJoinTheSummary(t *testing.T) {
	sum, errs := ReadBundle("../testdata/fixtures/results/06_profile_export_aiperf.json", DefaultLimits)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	recs, errs := ReadBundle("result/testdata/aiperf-records/profile_export.jsonl", DefaultLimits)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	sum[0].Path, recs[0].Path = "run/profile_export_aiperf.json", "run/profile_export.jsonl"
	items, errs := Assemble(append(sum, recs...))
	if len(errs) > 0 || len(items) != 1 {
		t.Fatalf("%d runs, errors %v", len(items), errs)
	}
	reqs := items[0].Run.Requests
	if items[0].Run.Tool != "aiperf" || len(reqs) != 3 || len(items[0].Parts) != 1 {
		t.Fatalf("tool %s, %d requests, %d parts", items[0].Run.Tool, len(reqs), len(items[0].Parts))
	}
	r := reqs[0]
	if r.InputLen != 550 || r.OutputLen != 9 || len(r.ITL) != 8 || math.Abs(r.TTFT-0.255886568) > 1e-12 ||
		math.Abs(r.TPOT-0.0052048325) > 1e-12 || math.Abs(r.Start-1759813207.5329004) > 1e-6 || !r.OK() {
		t.Errorf("record 0: %+v", r)
	}
	if reqs[2].OK() || reqs[2].Error != "RequestCancellationError: Request was cancelled after 0.000 seconds: code 499" || reqs[2].InputLen != 550 {
		t.Errorf("failed record: %+v", reqs[2])
	}
}

// A vllm bench sweep folder: run=N.json files and a summary.json array of the same runs.
func TestSweepFolder(t *testing.T) {
	entries, errs := ReadBundle("result/testdata/vllm-sweep", DefaultLimits)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	items, errs := Assemble(entries)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(items) != 4 { // two run files, and the same two runs again in summary.json
		t.Fatalf("%d runs read, want 4", len(items))
	}
	for _, it := range items {
		if it.Run.Extra["run_number"] == nil || it.Run.Extra["max_num_seqs"] == nil {
			t.Errorf("%s: swept parameters not kept: %v", it.Result.Name, it.Run.Extra)
		}
	}
}
