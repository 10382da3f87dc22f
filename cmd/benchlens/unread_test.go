package main

import (
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
)

// check finds runs whose attachments were never read (what an import killed by an older
// benchlens left: runs listing their server logs, none of their evidence), and importing
// their folder again reads them. Before, check said ok.
func TestCheckFindsAttachmentsNeverRead(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	if out, stderr, code := bl(t, "--db", db, "import", "../../demo/samples/baseline"); code != 0 || !strings.Contains(out, "imported 5 runs") {
		t.Fatalf("import: exit %d %s %s", code, out, stderr)
	}
	raw, err := sql.Open("sqlite3", db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`DELETE FROM evidence WHERE file_id IN (SELECT source_id FROM run_files WHERE run_id IN (2, 4))`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	out, _, code := bl(t, "--db", db, "check")
	if code != exitRejected || !strings.Contains(out, "runs whose logs, traces and utilisation were never read: 2 (id 2; id 4): import their folders again") {
		t.Errorf("check: exit %d\n%s", code, out)
	}
	if out, stderr, code := bl(t, "--db", db, "import", "../../demo/samples/baseline"); code != 0 {
		t.Fatalf("import again: exit %d %s %s", code, out, stderr)
	}
	if out, _, code := bl(t, "--db", db, "check"); code != 0 {
		t.Errorf("check after importing again: exit %d\n%s", code, out)
	}
	if out, _, _ := bl(t, "--db", db, "show", "2"); !strings.Contains(out, "resolved FLASH_ATTN") || !strings.Contains(out, "sustained_high") {
		t.Errorf("show 2 has no server log evidence:\n%s", out)
	}
}
