// Package demo holds the built-in sample lab bundles that `benchlens demo` loads.
//
// The samples tell one story: Llama-3.1-8B-Instruct served by vLLM on one H100, with the
// attention backend switched from FLASH_ATTN (the baseline arm) to FLASHINFER. Each folder
// under samples/ is one arm (a bundle.yaml plus run-1, run-2, ... with the vLLM result JSON,
// server.log, gpu.csv and, in run-1, a Kineto trace.json); each arm shows one verdict or one
// cause of METHOD.md: established, zero, offset, a fallback, a driver change, load drift and
// too few repeats. Two sweep arms (sweep-baseline, sweep-candidate) ran concurrency 1, 4, 16
// and 64, five repeats each, one folder per point: the gain holds up to 16 and is offset by
// host-side overhead at 64 (METHOD.md rule 9).
//
// The files are generated deterministically by demo/gen (see Generate) and embedded in the
// binary; a test checks that the embedded copy matches a fresh generation.
package demo

//go:generate go run ./gen -out samples

import (
	"embed"
	"io/fs"
)

//go:embed all:samples
var samples embed.FS

// Samples returns the sample bundles: one folder per arm at the top.
func Samples() fs.FS {
	sub, err := fs.Sub(samples, "samples")
	if err != nil {
		panic(err) // the embedded tree always has samples/
	}
	return sub
}
