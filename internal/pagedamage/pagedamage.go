// Package pagedamage damages a library file as a failing disk or a copy cut short might, for
// the tests of what the store and the command line do with one.
package pagedamage

import (
	"os"
	"testing"
)

// page is the library's page size (store sets 64 KiB before the first table).
const page = 65536

// BTreePages flips the header of every b-tree page in the middle third of the SQLite file at
// path; the test fails when there is none to flip.
func BTreePages(t testing.TB, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	flipped := 0
	for p := len(data) / page / 3; p < 2*len(data)/page/3; p++ {
		switch data[p*page] {
		case 0x02, 0x05, 0x0a, 0x0d: // interior and leaf pages of indexes and tables
			for i := range 12 {
				data[p*page+i] ^= 0x5a
			}
			flipped++
		}
	}
	if flipped == 0 {
		t.Fatalf("no b-tree page to damage in %d pages", len(data)/page)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}
