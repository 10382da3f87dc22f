package report

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// A comparison with families gets a Families sheet after Evidence: one row per family with its
// per-step figures, the targeted family marked, and a native stacked bar of both arms.
func TestXLSXFamilies(t *testing.T) {
	entries := testEntries(t)
	entries[0].Record.Families = &compare.Families{Per: "step",
		Rows: []compare.FamilyRow{
			{Family: "attention", Baseline: compare.FamilyFigs{Count: 6, TimeUs: 2046.6, Share: 0.19}, Candidate: compare.FamilyFigs{Count: 6, TimeUs: 1209.1, Share: 0.11},
				DeltaUs: model.Num(-837.5), DeltaPct: model.Num(-40.9)},
			{Family: "gemm", Baseline: compare.FamilyFigs{Count: 9, TimeUs: 8588.5, Share: 0.79}, Candidate: compare.FamilyFigs{Count: 9, TimeUs: 8742.5, Share: 0.77},
				DeltaUs: model.Num(154), DeltaPct: model.Num(1.8)},
		},
		Targeted: &compare.Targeted{Path: "attention", Family: "attention", Fell: true}}
	data, f := exportXLSX(t, entries, XLSXOptions{})
	sheets := f.GetSheetList()
	if i := slices.Index(sheets, SheetFamilies); i < 0 || sheets[i-1] != SheetEvidence {
		t.Fatalf("sheets %v", sheets)
	}
	h := header(t, f, SheetFamilies)
	if raw(t, f, SheetFamilies, h["family"], 2) != "attention" || raw(t, f, SheetFamilies, h["delta_us"], 2) != "-837.5" ||
		raw(t, f, SheetFamilies, h["targeted"], 2) != "yes" || raw(t, f, SheetFamilies, h["candidate_us"], 3) != "8742.5" {
		rows, _ := f.GetRows(SheetFamilies)
		t.Errorf("rows: %v", rows)
	}
	files := zipFiles(t, data)
	// The chart sits on the Charts sheet: a drawing on the streamed Families sheet is lost.
	if _, ok := files["xl/worksheets/_rels/sheet"+strconv.Itoa(slices.Index(sheets, SheetFamilies)+1)+".xml.rels"]; ok {
		t.Error("the Families sheet has a drawing")
	}
	charts := 0
	for name, body := range files {
		if strings.HasPrefix(name, "xl/charts/chart") && strings.Contains(body, `<grouping val="stacked">`) &&
			strings.Contains(body, "Families") {
			charts++
		}
	}
	if charts != 1 {
		t.Errorf("%d stacked family charts, want 1", charts)
	}
	// Without traces there is no Families sheet.
	_, f = exportXLSX(t, testEntries(t), XLSXOptions{})
	if slices.Contains(f.GetSheetList(), SheetFamilies) {
		t.Error("a Families sheet without families")
	}
}
