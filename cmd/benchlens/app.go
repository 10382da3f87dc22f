package main

import (
	"fmt"
	"io"
)

// openApp will open the desktop app; until it exists, say so and how to proceed.
func openApp(stderr io.Writer, db string) int {
	fmt.Fprint(stderr, "benchlens: the desktop app is not built yet; use a command:\n\n"+usage)
	return exitUsage
}
