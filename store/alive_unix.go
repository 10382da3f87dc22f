//go:build unix

package store

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process of this machine is still running (signal 0 tests
// without sending; EPERM means it runs as another user).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
