// Command gentrace writes a large synthetic PyTorch profiler (Kineto) trace for the trace import
// benchmark of `make bench` (internal/kinetogen: the same bytes BenchmarkParse100MB reads).
//
// Usage:
//
//	go run ./scripts/gentrace -out trace.json [-mib 100]
package main

import (
	"flag"
	"fmt"
	"os"

	"benchlens/internal/kinetogen"
)

func main() {
	out := flag.String("out", "", "file to write (required)")
	mib := flag.Int64("mib", 100, "size in MiB (whole steps: a little more)")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "gentrace: -out FILE is required")
		os.Exit(2)
	}
	f, err := os.Create(*out)
	if err == nil {
		err = kinetogen.Write(f, *mib<<20)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gentrace:", err)
		os.Exit(1)
	}
}
