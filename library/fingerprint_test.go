package library

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/model"
	"benchlens/store"
)

// appendResult joins vLLM results as --append-result writes them: "\n" before each object
// after the first, no final newline.
func appendResult(t *testing.T, dates ...string) string {
	t.Helper()
	one, err := os.ReadFile(filepath.Join(fixtures, "07_result-short-rate1.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, d := range dates {
		lines = append(lines, strings.Replace(strings.TrimSpace(string(one)), "20260427-110601", d, 1))
	}
	return strings.Join(lines, "\n")
}

// reimportBundles are bundles whose runs an older benchlens may hold: a vLLM detailed result,
// a JSONL of several runs, an llmperf summary with its individual responses.
func reimportBundles(t *testing.T) map[string]string {
	t.Helper()
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(fixtures, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	return map[string]string{
		"vllm detailed": writeTree(t, map[string]string{"r.json": read("05_Meta-Llama-3-8B-Instruct_tp1_len2000.json")}),
		"jsonl":         writeTree(t, map[string]string{"sweep.jsonl": appendResult(t, "20260427-110601", "20260427-120601", "20260427-130601")}),
		"llmperf pair": writeTree(t, map[string]string{
			"01-ai-Yi-1-5-34B-Chat_550_150_summary.json":              read("03_01-ai-Yi-1-5-34B-Chat_550_150_summary.json"),
			"01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json": read("12_01-ai-Yi-1-5-34B-Chat_550_150_individual_responses.json"),
		}),
	}
}

// olderBinary turns a library into one an older benchlens wrote: fingerprints of another
// scheme and, with reparsed, headers its parser made differently (here: the date).
func olderBinary(t *testing.T, st *store.Store, reparsed bool) {
	t.Helper()
	stmts := []string{`UPDATE runs SET fingerprint = lower(hex(randomblob(32)))`}
	if reparsed {
		stmts = append(stmts, `UPDATE runs SET date = 'older', header = json_set(header, '$.date', 'older')`)
	}
	for _, s := range stmts {
		if _, err := st.DB().Exec(s); err != nil {
			t.Fatal(err)
		}
	}
}

// A library written by an older benchlens recognises its runs when the same files come again,
// whether its fingerprints only or also its parse of the files differ from this version's.
func TestReimportAfterUpgrade(t *testing.T) {
	for name, bundle := range reimportBundles(t) {
		for _, reparsed := range []bool{false, true} {
			st := openStore(t)
			first := Import(st, []string{bundle}, Options{})
			if len(first.Errors) > 0 || len(first.Added) == 0 {
				t.Fatalf("%s: first import: %d added, %v", name, len(first.Added), first.Errors)
			}
			if name == "jsonl" && len(first.Added) != 3 || name != "jsonl" && len(first.Added) != 1 {
				t.Errorf("%s: %d runs added", name, len(first.Added))
			}
			olderBinary(t, st, reparsed)
			before := tableCounts(t, st)
			again := Import(st, []string{bundle}, Options{})
			if len(again.Added) != 0 || len(again.Existing) != len(first.Added) || len(again.Errors) > 0 {
				t.Errorf("%s (reparsed %v): re-import added %d, %d existing, %v", name, reparsed, len(again.Added), len(again.Existing), again.Errors)
			}
			if after := tableCounts(t, st); after != before {
				t.Errorf("%s (reparsed %v): tables changed: %v -> %v", name, reparsed, before, after)
			}
			var stale int
			st.DB().QueryRow(`SELECT count(*) FROM runs WHERE fingerprint NOT LIKE ?`, fingerprintScheme+"%").Scan(&stale)
			if stale > 0 {
				t.Errorf("%s (reparsed %v): %d runs keep a fingerprint of the older scheme", name, reparsed, stale)
			}
		}
	}
}

// A grown --append-result file brings its old runs back (found by what they measured, though
// the file's hash changed) and one new run, which is added.
func TestGrownAppendResultAfterUpgrade(t *testing.T) {
	st := openStore(t)
	old := writeTree(t, map[string]string{"bench.jsonl": appendResult(t, "20260427-110601", "20260427-120601")})
	if rep := Import(st, []string{old}, Options{}); len(rep.Added) != 2 || len(rep.Errors) > 0 {
		t.Fatalf("first import: %d added, %v", len(rep.Added), rep.Errors)
	}
	olderBinary(t, st, false)
	grown := writeTree(t, map[string]string{"bench.jsonl": appendResult(t, "20260427-110601", "20260427-120601", "20260427-130601")})
	rep := Import(st, []string{grown}, Options{})
	if len(rep.Added) != 1 || len(rep.Existing) != 2 || len(rep.Errors) > 0 {
		t.Fatalf("grown file: %d added, %d existing, %v", len(rep.Added), len(rep.Existing), rep.Errors)
	}
	r, err := st.Run(rep.Added[0])
	if err != nil || !strings.HasPrefix(r.Date, "2026-04-27T13:06") {
		t.Errorf("added run %v, %v: want the 13:06 run", r, err)
	}
}

// A field added to model.Run changes no fingerprint: only the listed measured fields count.
func TestFingerprintIgnoresUnlistedFields(t *testing.T) {
	st := openStore(t)
	rep := Import(st, []string{reimportBundles(t)["vllm detailed"]}, Options{})
	if len(rep.Added) != 1 {
		t.Fatalf("import: %v", rep.Errors)
	}
	r, _ := st.Run(rep.Added[0])
	want := Fingerprint(r, "sha", 0)
	r.IdentifiedBy, r.Era, r.Warnings, r.Extra = "another signal", "another era", []model.Warning{model.Note("new")}, nil
	if got := Fingerprint(r, "sha", 0); got != want {
		t.Errorf("fingerprint changed with fields outside the identity")
	}
	r.Requests[0].TTFT += 0.001
	if got := Fingerprint(r, "sha", 0); got == want {
		t.Errorf("fingerprint unchanged by a different measurement")
	}
}
