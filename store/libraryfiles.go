package store

import (
	"os"
	"path/filepath"
)

// sideSuffixes name the files SQLite keeps beside a library file while it is in use.
var sideSuffixes = []string{"-wal", "-shm", "-journal"}

// LibraryFiles lists a library file and the side files SQLite keeps beside it, whether they
// exist now or not; none for a team library. What is written for the user never lands on
// one, and nothing is read from one as input.
func LibraryFiles(path string) []string {
	if IsPostgres(path) {
		return nil
	}
	out := []string{path}
	for _, suffix := range sideSuffixes {
		out = append(out, path+suffix)
	}
	return out
}

// LibraryFileAt returns the file of the library at libPath (itself or a side file) that
// path names, by file identity when both exist, else by resolved path; "" when none.
func LibraryFileAt(libPath, path string) string {
	for _, lib := range LibraryFiles(libPath) {
		if sameFile(lib, path) {
			return lib
		}
	}
	return ""
}

// sameFile reports whether a and b name one file: the same inode when both exist, else the
// same path once symbolic links in their folders are resolved.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	return resolved(a) == resolved(b)
}

// resolved is an absolute path with its folder's symbolic links resolved (the file itself
// may not exist yet).
func resolved(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return filepath.Clean(p)
	}
	dir, base := filepath.Split(abs)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	if t, err := filepath.EvalSymlinks(abs); err == nil {
		return t // an existing link (possibly dangling elsewhere) resolves to its target
	}
	return filepath.Join(dir, base)
}
