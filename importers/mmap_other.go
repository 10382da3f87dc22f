//go:build !(linux || darwin || freebsd)

package importers

import (
	"io"
	"os"
)

// mapOpen reads the file where mapping is not available; nothing can be dropped early.
func mapOpen(f *os.File, size int64) ([]byte, func(int), func(), error) {
	data := make([]byte, size)
	_, err := f.ReadAt(data, 0)
	if err == io.EOF {
		err = nil
	}
	return data, func(int) {}, func() {}, err
}
