package store

import (
	"errors"
	"testing"

	"benchlens/model"
)

// A run read from the same result file, index and parts is the one stored, whatever its
// fingerprint; another index or another part makes another run. A run found by its files
// takes the new fingerprint.
func TestRunFoundByItsFiles(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		part := func(content string) Attached {
			f := resultFile(content)
			f.Role, f.File.Name, f.File.Kind = "part", "responses.json", model.KindCompanion
			return f
		}
		id, err := s.AddRun(NewRun{Run: sampleRun("llmperf"), Fingerprint: "old", Files: []Attached{resultFile("s"), part("p")}})
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct {
			name        string
			index       int
			files       []Attached
			fingerprint string
			same        bool
		}{
			{"same files", 0, []Attached{resultFile("s"), part("p")}, "2:new", true},
			{"another index", 1, []Attached{resultFile("s"), part("p")}, "2:b", false},
			{"another part", 0, []Attached{resultFile("s"), part("q")}, "2:c", false},
			{"no part", 0, []Attached{resultFile("s")}, "2:d", false},
		}
		for _, tt := range tests {
			got, err := s.AddRun(NewRun{Run: sampleRun("llmperf"), Fingerprint: tt.fingerprint, Index: tt.index, Files: tt.files})
			if same := errors.Is(err, ErrExists) && got == id; same != tt.same {
				t.Errorf("%s: run %d, %v; want the stored run: %v", tt.name, got, err, tt.same)
			}
		}
		var fp string
		s.db.QueryRow(`SELECT fingerprint FROM runs WHERE id = ?`, id).Scan(&fp)
		if fp != "2:new" {
			t.Errorf("fingerprint of the run found by its files: %q", fp)
		}
	})
}
