package main

import (
	"fmt"

	"benchlens/store"
)

// backupCmd writes a consistent copy of the library while it may be in use.
func (c *cli) backupCmd(args []string) int {
	fs := c.flags("backup", "FILE")
	if !c.parse(fs, args, oneArg) {
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int {
		if err := st.Backup(fs.Arg(0)); err != nil {
			fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
			return exitRejected
		}
		fmt.Fprintf(c.stdout, "backed up %s to %s\n", st.Path(), fs.Arg(0))
		return exitOK
	})
}

// checkCmd verifies the library's integrity and invariants; exit status 1 when something is
// wrong. --repair first removes orphan files (what a killed import leaves).
func (c *cli) checkCmd(args []string) int {
	fs := c.flags("check", "[--json] [--repair]")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	repair := fs.Bool("repair", false, "first remove what killed imports left: files no run refers to")
	if !c.parse(fs, args, noArgs) {
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int {
		if *repair {
			n, err := st.Repair()
			if err != nil {
				fmt.Fprintf(c.stderr, "benchlens: check --repair: %v\n", err)
				return exitRejected
			}
			fmt.Fprintf(c.stderr, "removed %d orphan files\n", n)
		}
		rep, err := st.Check()
		if err != nil {
			fmt.Fprintf(c.stderr, "benchlens: check: %v\n", err)
			return exitRejected
		}
		if *asJSON {
			c.writeJSON(rep)
		} else {
			fmt.Fprintf(c.stdout, "%s: %s\n", st.Path(), rep)
		}
		if !rep.OK() {
			return exitRejected
		}
		return exitOK
	})
}
