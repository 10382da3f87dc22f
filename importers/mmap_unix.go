//go:build linux || darwin || freebsd

package importers

import (
	"os"
	"sync"
	"syscall"
)

// mapOpen maps a large open file read-only instead of reading it into the heap. Pages the
// import has finished with can be dropped from memory (drop), so a gigabyte result never sits
// in memory whole; pages touched again are read back from the page cache. The mapping outlives
// the file's descriptor.
func mapOpen(f *os.File, size int64) (data []byte, drop func(upTo int), unmap func(), err error) {
	if size == 0 {
		return nil, func(int) {}, func() {}, nil
	}
	data, err = syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, nil, err
	}
	page := os.Getpagesize()
	var mu sync.Mutex
	mapped := true
	drop = func(upTo int) {
		mu.Lock()
		defer mu.Unlock()
		upTo = min(upTo, len(data)) / page * page
		if mapped && upTo > 0 {
			_ = syscall.Madvise(data[:upTo], syscall.MADV_DONTNEED)
		}
	}
	// After unmapping, drop does nothing: the address range may belong to something else.
	unmap = func() {
		mu.Lock()
		defer mu.Unlock()
		if mapped {
			mapped = false
			_ = syscall.Munmap(data)
		}
	}
	return data, drop, unmap, nil
}
