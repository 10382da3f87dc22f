package store

import (
	"os"
	"strings"
)

// hostIdentity names where a process id means something: the host name and, on Linux, the
// pid namespace, so two containers sharing a library file (one host name each, or the same
// one) never judge each other's claims by their own process table.
func hostIdentity() string {
	name, _ := os.Hostname()
	if ns, err := os.Readlink("/proc/self/ns/pid"); err == nil {
		name += " " + ns
	}
	if strings.TrimSpace(name) == "" {
		return "?"
	}
	return name
}
