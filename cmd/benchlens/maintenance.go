package main

import (
	"fmt"
	"strings"

	"benchlens/store"
)

// backupCmd writes a consistent copy of the library while it may be in use: to a new file,
// or (--to postgres://…) into a new, empty team library.
func (c *cli) backupCmd(args []string) int {
	fs := c.flags("backup", "FILE | --to postgres://…")
	to := fs.String("to", "", "copy into this new library instead: a file, or an empty PostgreSQL database (postgres://…)")
	if !c.parse(fs, args, anyArgs) {
		return exitUsage
	}
	dest := *to
	if (dest == "") == (fs.NArg() == 0) || fs.NArg() > 1 {
		fs.Usage()
		return exitUsage
	}
	if dest == "" {
		dest = fs.Arg(0)
	}
	return c.withLibrary(func(st *store.Store) int {
		if err := backupTo(st, dest); err != nil {
			fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
			return exitRejected
		}
		fmt.Fprintf(c.stdout, "backed up %s to %s\n", store.Redacted(st.Path()), store.Redacted(dest))
		return exitOK
	})
}

// backupTo copies a library into a new file or an empty team library.
func backupTo(st *store.Store, dest string) error {
	if !store.IsPostgres(dest) {
		return st.Backup(dest)
	}
	team, err := store.Open(dest)
	if err != nil {
		return err
	}
	defer team.Close()
	if err := st.CopyTo(team); err != nil {
		return fmt.Errorf("backup %s: %w", store.Redacted(dest), err)
	}
	return nil
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
		} else if rep.OK() {
			fmt.Fprintf(c.stdout, "%s: ok\n", store.Redacted(st.Path()))
		} else {
			fmt.Fprintf(c.stdout, "%s:\n  %s\n", store.Redacted(st.Path()), strings.ReplaceAll(rep.String(), "\n", "\n  "))
		}
		if !rep.OK() {
			return exitRejected
		}
		return exitOK
	})
}
