package importers

import (
	"benchlens/importers/position"
	"errors"
	"runtime/debug"
)

// ErrShrank names what a fault on a mapped file means: another program truncated the file
// while it was being read.
var ErrShrank = errors.New("the file shrank while it was being read; import it again once it is complete")

// Guard runs fn and turns a fault on mapped memory (a mapped file truncated under the import
// would otherwise kill the process with SIGBUS) into an error naming the file, so the rest of
// the batch goes on. Guard covers the calling goroutine only.
func Guard(name string, fn func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if p := recover(); p != nil {
			if _, fault := p.(interface{ Addr() uintptr }); !fault {
				panic(p)
			}
			err = &position.Error{File: name, Offset: -1, Err: ErrShrank}
		}
	}()
	return fn()
}
