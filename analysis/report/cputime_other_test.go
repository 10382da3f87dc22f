//go:build !unix

package report

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return -1 }
