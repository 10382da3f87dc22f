package library

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"benchlens/store"
)

// outFile is one file an export is about to write.
type outFile struct {
	path string
	data []byte
}

// writeAll checks every file against what it could destroy before writing any: the library
// at libPath (with its -wal, -shm and -journal) never, an existing file only with force.
// Each file is then written whole through a temporary file in its folder.
func writeAll(libPath string, files []outFile, force bool) error {
	for _, f := range files {
		if err := checkTarget(libPath, f.path, force); err != nil {
			return err
		}
	}
	for _, f := range files {
		if err := os.MkdirAll(filepath.Dir(f.path), 0o755); err != nil {
			return err
		}
		if err := writeFileAtomic(f.path, f.data); err != nil {
			return err
		}
	}
	return nil
}

// CheckTarget is checkTarget for callers that ask the user themselves before replacing a
// file (the app's "Replace?"): it refuses the library and its side files, and folders.
func CheckTarget(libPath, path string) error { return checkTarget(libPath, path, true) }

// checkTarget refuses a path that is the library or one of its side files (by file identity
// when both exist, else by resolved path), a folder, or an existing file without force.
func checkTarget(libPath, path string, force bool) error {
	if lib := store.LibraryFileAt(libPath, path); lib != "" {
		return fmt.Errorf("%s is the library itself (%s); refusing to overwrite it", path, lib)
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s is a folder; give a file name", path)
	case !force:
		return fmt.Errorf("%s exists; add --force to replace it", path)
	}
	return nil
}

// writeFileAtomic writes through a temporary file in the same folder and renames it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".benchlens-export-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}
