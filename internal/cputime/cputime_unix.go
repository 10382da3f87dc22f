//go:build unix

// Package cputime reads the process's CPU time, for benchmarks to report next to wall time:
// on a shared machine the wall time says more about the other jobs than about the code.
package cputime

import (
	"syscall"
	"time"
)

// Self is the process's user and system time so far, -1 when it cannot be read.
func Self() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
