package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A damaged library of an older schema is not migrated: its pages are checked, all of them,
// before the backup and the first write, and the open is refused with the file as it was and
// no backup beside it; whole, the same library is backed up and migrated.
func TestDamagedOlderLibraryIsNotMigrated(t *testing.T) {
	for _, damaged := range []bool{true, false} {
		t.Run(fmt.Sprintf("damaged=%v", damaged), func(t *testing.T) {
			s, path := openTemp(t)
			addPagedRuns(t, s)
			// Schema 14 as it was: runs had no measured statistics.
			for _, q := range []string{`ALTER TABLE runs DROP COLUMN point`, `ALTER TABLE runs DROP COLUMN measured`, `PRAGMA user_version = 14`} {
				if _, err := s.db.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			s.Close()
			var data []byte
			if damaged {
				_, data = damageLeafPage(t, path, "fp-15 ")
			}
			s, err := Open(path)
			backups, _ := filepath.Glob(path + ".schema14-*.bak")
			if !damaged {
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				if v, _ := s.schemaVersion(s.db); v != SchemaVersion || len(backups) != 1 {
					t.Fatalf("whole library: schema %d, backups %v", v, backups)
				}
				return
			}
			if err == nil {
				s.Close()
				t.Fatal("a damaged library of schema 14 was opened (and migrated)")
			}
			if !errors.Is(err, ErrDamaged) {
				t.Errorf("refused for %v, not for its damage", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
				t.Error("the damaged library was written to")
			}
			if len(backups) > 0 {
				t.Errorf("backups of a library not migrated: %v", backups)
			}
		})
	}
}
