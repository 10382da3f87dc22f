//go:build !unix

package importers

import "os"

// fileID is the os.FileInfo a listed file is checked against when read, where os.SameFile
// compares what this package cannot reach (see fileid_unix.go).
type fileID struct{ info os.FileInfo }

func idOf(fi os.FileInfo) fileID { return fileID{fi} }

// same reports whether fi is the file id was taken from.
func (id fileID) same(fi os.FileInfo) bool { return os.SameFile(id.info, fi) }
