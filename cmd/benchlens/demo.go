package main

import (
	"benchlens/library"
	"benchlens/store"
)

// demoCmd loads the sample bundles embedded in the binary, one arm per folder.
func (c *cli) demoCmd(args []string) int {
	fs := c.flags("demo", "")
	if !c.parse(fs, args, noArgs) {
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int { return c.report(library.LoadDemo(st)) })
}
