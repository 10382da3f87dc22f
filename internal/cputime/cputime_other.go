//go:build !unix

// Package cputime reads the process's CPU time, for benchmarks to report next to wall time:
// on a shared machine the wall time says more about the other jobs than about the code.
package cputime

import "time"

// Self is not measured here: -1.
func Self() time.Duration { return -1 }
