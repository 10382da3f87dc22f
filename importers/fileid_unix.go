//go:build unix

package importers

import (
	"os"
	"syscall"
)

// fileID is what os.SameFile compares of a file (its device and inode), kept instead of the
// os.FileInfo it came from: a listed file is checked against it when read, and a folder of
// 100,000 small results held each one's whole stat record (about 200 bytes) for the import.
type fileID struct{ dev, ino uint64 }

func idOf(fi os.FileInfo) fileID {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}
	}
	return fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
}

// same reports whether fi is the file id was taken from, as os.SameFile would.
func (id fileID) same(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && id == fileID{dev: uint64(st.Dev), ino: uint64(st.Ino)}
}
