package store

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A rescue loses the rows on a damaged page and no more: with one leaf page of runs damaged,
// check names exactly its runs as unreadable, and backup saves every other run (with its
// requests and files) into a whole library and says which were lost.
func TestRescueLosesOnlyTheDamagedPage(t *testing.T) {
	s, path := openTemp(t)
	addPagedRuns(t, s)
	s.Close()
	// The table leaf page holding run fp-15: its runs are the ones named on it.
	pg, _ := damageLeafPage(t, path, "fp-15 ")
	var lost []int64
	for _, m := range regexp.MustCompile(`"notes":"fp-(\d\d) `).FindAllSubmatch(pg, -1) {
		var id int64
		fmt.Sscan(string(m[1]), &id)
		lost = append(lost, id)
	}
	slices.Sort(lost)
	s, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := s.Check()
	if err != nil {
		t.Fatal(err)
	}
	span := fmt.Sprintf("ids %d-%d unreadable", lost[0], lost[len(lost)-1])
	if len(rep.Integrity) == 0 || !strings.Contains(rep.String(), "runs: "+span) {
		t.Errorf("check does not name runs %v:\n%s", lost, rep)
	}
	dest := filepath.Join(t.TempDir(), "rescued.db")
	rescue, err := s.Backup(dest)
	if err != nil || rescue == nil {
		t.Fatalf("backup: %v %v", rescue, err)
	}
	if !strings.Contains(rescue.String(), "lost: runs: "+span) {
		t.Errorf("the rescue does not say runs %v were lost:\n%s", lost, rescue)
	}
	r, err := Open(dest)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var ids []int64
	rows, _ := r.db.Query(`SELECT id FROM runs ORDER BY id`)
	for rows.Next() {
		var id int64
		rows.Scan(&id)
		ids = append(ids, id)
	}
	rows.Close()
	for id := int64(1); id <= 30; id++ {
		if slices.Contains(ids, id) == slices.Contains(lost, id) {
			t.Errorf("run %d: rescued %v, on the damaged page %v", id, slices.Contains(ids, id), slices.Contains(lost, id))
		}
	}
	if n := count(t, r, "requests"); n != 2*len(ids) {
		t.Errorf("%d requests rescued for %d runs", n, len(ids))
	}
	check, err := r.Check()
	if err != nil || len(check.Integrity)+len(check.Unreadable)+len(check.RunsNoResult)+len(check.ForeignKeys) > 0 {
		t.Errorf("the rescued library: %v %v", check, err)
	}
	if next := addRuns(t, r, "new", 1)[0]; next != 31 {
		t.Errorf("the rescued library's next run is %d, want 31", next)
	}
}

// addPagedRuns stores 30 runs, fp-01 to fp-30, about 3 to a page.
func addPagedRuns(t *testing.T, s *Store) {
	t.Helper()
	for i := 1; i <= 30; i++ {
		run := sampleRun("vllm")
		run.Metadata = map[string]string{"notes": strings.Repeat(fmt.Sprintf("fp-%02d ", i), 3000)}
		if _, err := s.AddRun(NewRun{Run: run, Fingerprint: fmt.Sprintf("fp-%02d", i), Files: []Attached{resultFile(fmt.Sprint(i))}}); err != nil {
			t.Fatal(err)
		}
	}
}

// damageLeafPage breaks the header of the table leaf page (0x0d) of the closed library at path
// that holds text, and returns that page as it was and the file as it is now.
func damageLeafPage(t *testing.T, path, text string) (page, file []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const size = 65536
	for p := 1; p < len(data)/size; p++ {
		pg := data[p*size : (p+1)*size]
		if pg[0] != 0x0d || !bytes.Contains(pg, []byte(text)) {
			continue
		}
		page = bytes.Clone(pg)
		for i := range 8 {
			pg[i] ^= 0x5a
		}
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return page, data
	}
	t.Fatalf("no leaf page holds %q", text)
	return nil, nil
}
