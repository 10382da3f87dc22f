package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"benchlens/store"
)

// A listing that meets a damaged run partway ends its output whole, with the runs before it
// (runs --json: an array that parses; runs: the table of those lines), and says on stderr
// where it stopped and why, exiting 1.
func TestRunsStopAtDamagedRun(t *testing.T) {
	db := filepath.Join(t.TempDir(), "lib.db")
	mustRun(t, "--db", db, "import", fixtures)
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	rows, err := st.DB().Query(`SELECT id FROM runs ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	damaged := ids[5]
	if _, err := st.DB().Exec(`UPDATE runs SET listing = X'00' WHERE id = ?`, damaged); err != nil {
		t.Fatal(err)
	}
	st.Close()
	why := "run " + strconv.FormatInt(damaged, 10) + ": damaged record"

	out, stderr, code := bl(t, "--db", db, "runs", "--json")
	var listed []struct{ ID int64 }
	if err := json.Unmarshal([]byte(out), &listed); err != nil {
		t.Fatalf("runs --json after a damaged run is not JSON: %v\n%s", err, out)
	}
	if len(listed) != 5 || listed[4].ID != ids[4] || code != exitRejected || !strings.Contains(stderr, "stopped") || !strings.Contains(stderr, why) {
		t.Errorf("runs --json: exit %d, %d runs listed, stderr %q", code, len(listed), stderr)
	}

	t.Log(stderr)
	out, stderr, code = bl(t, "--db", db, "runs")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 6 || !strings.HasPrefix(lines[0], "ID") || !strings.HasPrefix(lines[5], strconv.FormatInt(ids[4], 10)+" ") ||
		code != exitRejected || !strings.Contains(stderr, why) {
		t.Errorf("runs: exit %d, stderr %q, table:\n%s", code, stderr, out)
	}
}
