//go:build unix

package store

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"

	"benchlens/model"
)

// A file of several chunks mapped from disk and truncated while it is stored (its chunks are
// compressed on another goroutine) faults in the caller's guard, which makes it that file's
// error: the process lives and the other files are stored.
func TestPutFilesFaultWhileCompressing(t *testing.T) {
	s, _ := openTemp(t)
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, bytes.Repeat([]byte("0.0123456789, "), 3*ChunkSize/14), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	data, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(data)
	if err := os.Truncate(path, 0); err != nil { // every page of the mapping now faults
		t.Fatal(err)
	}
	faulted := errors.New("the file shrank")
	guard := func(_ string, put func() error) (err error) {
		old := debug.SetPanicOnFault(true)
		defer func() {
			debug.SetPanicOnFault(old)
			if p := recover(); p != nil {
				if _, fault := p.(interface{ Addr() uintptr }); !fault {
					panic(p)
				}
				err = faulted
			}
		}()
		return put()
	}
	big := &model.SourceFile{Name: "big.json", Size: int64(len(data)), SHA256: "sha-big", Kind: model.KindResult, Data: data}
	ids, errs := s.PutFiles([]Put{{File: big}, {File: resultFile("small").File}}, NewOwner(), guard)
	if !errors.Is(errs[0], faulted) || errs[1] != nil || ids[1] == 0 {
		t.Errorf("told %v %v", ids, errs)
	}
	if files, chunks := count(t, s, "source_files"), count(t, s, "file_chunks"); files != 1 || chunks != 1 {
		t.Errorf("%d files and %d chunks stored, want the small file's 1 and 1", files, chunks)
	}
}
