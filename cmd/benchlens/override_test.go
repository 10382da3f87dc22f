package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"benchlens/analysis/report"
	"benchlens/store"
)

// The analyst's status stands first everywhere: `comparisons` (its STATUS column and JSON),
// the Markdown and the workbook's Load points title, each with the proposal beside it.
func TestAnalystStatusFirst(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "lib.db")
	bl(t, "--db", db, "demo")
	if _, stderr, code := bl(t, "--db", db, "compare", "--baseline", "sweep-baseline", "--candidate", "sweep-candidate", "--save"); code != 0 {
		t.Fatalf("compare --save: %d %s", code, stderr)
	}
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Annotate(store.Annotation{ComparisonID: 1, Author: "ana", StatusOverride: "zero", OverrideReason: "the c=64 loss cancels the gain"}); err != nil {
		t.Fatal(err)
	}
	st.Close()

	out, _, _ := bl(t, "--db", db, "comparisons")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "STATUS") || !strings.HasSuffix(lines[0], "PROPOSED") ||
		!strings.Contains(lines[1], "zero (analyst)  established") {
		t.Errorf("comparisons:\n%s", out)
	}
	out, _, _ = bl(t, "--db", db, "comparisons", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("comparisons --json: %v %s", err, out)
	}
	if list[0]["status"] != "zero" || list[0]["proposed_status"] != "established" || list[0]["override_reason"] != "the c=64 loss cancels the gain" {
		t.Errorf("comparisons --json: status %v, proposed %v, reason %v", list[0]["status"], list[0]["proposed_status"], list[0]["override_reason"])
	}

	md := filepath.Join(dir, "x.md")
	book := filepath.Join(dir, "x.xlsx")
	for _, args := range [][]string{{"--md", md}, {"--xlsx", book}} {
		if _, stderr, code := bl(t, append([]string{"--db", db, "export"}, args...)...); code != 0 {
			t.Fatalf("export %v: %d %s", args, code, stderr)
		}
	}
	if text, err := os.ReadFile(md); err != nil || !strings.Contains(string(text), "**Verdict: zero** (analyst override of the proposed `established`: the c=64 loss cancels the gain)") {
		t.Errorf("Markdown: %v\n%s", err, text)
	}
	f, err := excelize.OpenFile(book)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows(report.SheetLoadPoints)
	title := ""
	for _, r := range rows {
		if len(r) > 0 && strings.HasPrefix(r[0], "#1 ") {
			title = r[0]
		}
	}
	if !strings.Contains(title, ": zero (analyst; proposed: established)") {
		t.Errorf("Load points title %q", title)
	}
}
