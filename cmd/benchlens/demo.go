package main

import "benchlens/library"

// demoCmd loads the sample bundles embedded in the binary, one arm per folder.
func (c *cli) demoCmd(args []string) int {
	fs := c.flags("demo", "")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	st, ok := c.open()
	if !ok {
		return exitRejected
	}
	defer st.Close()
	return c.report(library.LoadDemo(st))
}
