package store

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"benchlens/model"
)

// A library of schema 10, whose runs and evidence hold their warnings as text, is migrated in
// either engine to warnings with codes: a text that is a code's wording reads as that code
// (an old run's implausible values still reach the checklist), any other as legacy with its
// text, in their order; no row keeps text warnings and check finds nothing.
func TestWarningsMigration(t *testing.T) {
	for _, e := range testEngines {
		t.Run(e.name, func(t *testing.T) {
			loc := e.location(t)
			s := openAtSchema(t, loc, 10)
			// AddRun writes schema 12's listing, schema 15's measured statistics and schema 16's
			// point: the columns stand in while the run is added.
			blob := "BLOB"
			if s.db.d.postgres {
				blob = "BYTEA"
			}
			for _, col := range []string{"listing " + blob, "measured " + blob, "point " + blob} {
				if _, err := s.db.Exec(`ALTER TABLE runs ADD COLUMN ` + col); err != nil {
					t.Fatal(err)
				}
			}
			id, err := s.AddRun(NewRun{Run: sampleRun("vllm"), Fingerprint: "fp", Files: []Attached{resultFile("r")}})
			if err != nil {
				t.Fatal(err)
			}
			var fileID int64
			if err := s.db.QueryRow(`SELECT source_id FROM runs WHERE id = ?`, id).Scan(&fileID); err != nil {
				t.Fatal(err)
			}
			if err := s.PutEvidence(fileID, &model.Evidence{Format: "nvidia-smi"}); err != nil {
				t.Fatal(err)
			}
			for _, col := range []string{"listing", "measured", "point"} {
				if _, err := s.db.Exec(`ALTER TABLE runs DROP COLUMN ` + col); err != nil {
					t.Fatal(err)
				}
			}
			old := []string{"said once", "implausible values: ttft mean 0 ms", `a "quoted" line`}
			for _, col := range []struct{ table, column, key string }{{"runs", "header", "id"}, {"evidence", "data", "file_id"}} {
				key := id
				if col.table == "evidence" {
					key = fileID
				}
				var text string
				if err := s.db.QueryRow(`SELECT `+col.column+` FROM `+col.table+` WHERE `+col.key+` = ?`, key).Scan(&text); err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal([]byte(text), &m); err != nil {
					t.Fatal(err)
				}
				m["warnings"] = old
				b, _ := json.Marshal(m)
				if _, err := s.db.Exec(`UPDATE `+col.table+` SET `+col.column+` = ? WHERE `+col.key+` = ?`, string(b), key); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			if s, err = Open(loc); err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			want := []model.Warning{{Code: model.WarnLegacy, Args: []string{"said once"}},
				{Code: model.WarnImplausible, Args: []string{"ttft mean 0 ms"}}, {Code: model.WarnLegacy, Args: []string{`a "quoted" line`}}}
			same := func(got []model.Warning) bool {
				return slices.EqualFunc(got, want, func(a, b model.Warning) bool { return a.Code == b.Code && slices.Equal(a.Args, b.Args) })
			}
			r, err := s.Run(id)
			if err != nil || !same(r.Warnings) {
				t.Errorf("run warnings %+v (%v), want %+v", r.Warnings, err, want)
			}
			evs, err := s.RunEvidence(id)
			if err != nil || len(evs) != 1 || !same(evs[0].Warnings) {
				t.Errorf("evidence %+v (%v)", evs, err)
			}
			for _, q := range []string{`SELECT header FROM runs`, `SELECT data FROM evidence`} {
				var text string
				if err := s.db.QueryRow(q).Scan(&text); err != nil || !strings.Contains(strings.ReplaceAll(text, " ", ""), `"warnings":[{"code":"legacy","args":["saidonce"]}`) && !strings.Contains(strings.ReplaceAll(text, " ", ""), `"warnings":[{"args":["saidonce"],"code":"legacy"}`) {
					t.Errorf("%s: %s (%v)", q, text, err)
				}
			}
			if rep, err := s.Check(); err != nil || !rep.OK() {
				t.Errorf("check after the migration: %+v %v", rep, err)
			}
		})
	}
}
