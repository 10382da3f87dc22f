package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The app opens --db, else $BENCHLENS_DB, else the library opened last, else the user's own;
// only the one opened last may fail without stopping the app, which then says so.
func TestAppLibraryFallsBackOnlyFromTheLastOne(t *testing.T) {
	dir := t.TempDir()
	user, given := filepath.Join(dir, "user.db"), filepath.Join(dir, "given.db")
	gone := filepath.Join(dir, "unmounted", "lab.db") // moved, or on a drive not mounted
	broken := dir                                     // a folder: no library opens there
	tests := []struct {
		name             string
		db, env, last    string
		want, wantNotice string
		wantErr          bool
	}{
		{"--db", given, "", gone, given, "", false},
		{"$BENCHLENS_DB", "", given, gone, given, "", false},
		{"the last one", "", "", given, given, "", false},
		{"the last one is gone", "", "", gone, user, "is not there", false},
		{"the last one does not open", "", "", broken, user, "did not open", false},
		{"--db does not open: no fallback", broken, "", "", "", "", true},
		{"$BENCHLENS_DB does not open: no fallback", "", broken, "", "", "", true},
		{"nothing remembered", "", "", "", user, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, notice, err := appLibrary(tt.db, tt.env, tt.last, user)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			defer st.Close()
			if st.Path() != tt.want || !strings.Contains(notice, tt.wantNotice) || (tt.wantNotice == "") != (notice == "") {
				t.Errorf("opened %s with notice %q, want %s with a notice containing %q", st.Path(), notice, tt.want, tt.wantNotice)
			}
			if tt.wantNotice != "" && !strings.Contains(notice, tt.last) {
				t.Errorf("notice %q does not name the library that did not open", notice)
			}
		})
	}
	if _, err := os.Stat(filepath.Dir(gone)); err == nil {
		t.Error("trying the gone library created its folder")
	}
}
