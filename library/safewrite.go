package library

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

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
	// An export that cannot finish (out of room) leaves none of itself: what it wrote so
	// far is removed and named, so no folder holds half an export that looks whole.
	var written []string
	for _, f := range files {
		err := os.MkdirAll(filepath.Dir(f.path), 0o755)
		if err == nil {
			err = writeFileAtomic(f.path, f.data)
		}
		if err != nil {
			if len(written) == 0 {
				return fmt.Errorf("writing %s: %w; nothing was written", f.path, err)
			}
			for _, w := range written {
				os.Remove(w)
			}
			return fmt.Errorf("writing %s: %w; removed the %d files this export had written (%s)", f.path, err, len(written), strings.Join(written, ", "))
		}
		written = append(written, f.path)
	}
	return nil
}

// WriteFile writes one exported file (a chart the app saves) as every export is written:
// never over the library or its side files, a folder or a special file, and whole or not
// at all. An existing regular file is replaced: the app has asked first.
func WriteFile(libPath, path string, data []byte) error {
	return writeAll(libPath, []outFile{{path, data}}, true)
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
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s is a folder; give a file name", path)
	case !fi.Mode().IsRegular():
		// --force replaces a file of the export's own kind, never a device, a FIFO, a socket
		// or a symbolic link (which names a file elsewhere).
		return fmt.Errorf("%s is %s, not a regular file; refusing to replace it, even with --force", path, special(path, fi.Mode()))
	case !force:
		return fmt.Errorf("%s exists; add --force to replace it", path)
	}
	return nil
}

// special words what a path that is not a regular file is.
func special(path string, m os.FileMode) string {
	switch {
	case m&os.ModeSymlink != 0:
		if to, err := os.Readlink(path); err == nil {
			return fmt.Sprintf("a symbolic link (to %s)", to)
		}
		return "a symbolic link"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
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
