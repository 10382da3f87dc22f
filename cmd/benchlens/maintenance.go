package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

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
	// SIGINT or SIGTERM stops the copy and removes what it wrote (no .part file stays); more
	// signals meanwhile wait for that clean-up, which takes a moment.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return c.withLibraryOpts(store.Options{Existing: true, Stale: true}, func(st *store.Store) int {
		rescue, err := backupTo(ctx, st, dest)
		if err != nil {
			fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
			return exitRejected
		}
		if rescue != nil {
			// What was lost is the answer: exit 1, like check on the damaged library.
			fmt.Fprintf(c.stdout, "the library is damaged: saved what reads of %s to %s\n  %s\n", store.Redacted(st.Path()), store.Redacted(dest),
				strings.ReplaceAll(rescue.String(), "\n", "\n  "))
			if len(rescue.Lost) > 0 {
				return exitRejected
			}
			return exitOK
		}
		fmt.Fprintf(c.stdout, "backed up %s to %s\n", store.Redacted(st.Path()), store.Redacted(dest))
		return exitOK
	})
}

// backupTo copies a library into a new file or an empty team library; the Rescue says what
// a damaged library lost.
func backupTo(ctx context.Context, st *store.Store, dest string) (*store.Rescue, error) {
	if !store.IsPostgres(dest) {
		return st.BackupContext(ctx, dest)
	}
	if err := st.Writable(); errors.Is(err, store.ErrDamaged) {
		return nil, fmt.Errorf("backup %s: %w", store.Redacted(dest), err)
	}
	team, err := store.Open(dest)
	if err != nil {
		return nil, err
	}
	defer team.Close()
	if err := st.CopyToContext(ctx, team); err != nil {
		if ctx.Err() != nil {
			err = fmt.Errorf("interrupted: nothing was copied (the team library stays empty)")
		}
		return nil, fmt.Errorf("backup %s: %w", store.Redacted(dest), err)
	}
	return nil, nil
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
	return c.withLibraryOpts(store.Options{Existing: true}, func(st *store.Store) int {
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
			fmt.Fprintf(c.stdout, "%s: ok\n  %s\n", store.Redacted(st.Path()), rep.Footprint())
		} else {
			fmt.Fprintf(c.stdout, "%s:\n  %s\n  %s\n", store.Redacted(st.Path()), strings.ReplaceAll(rep.String(), "\n", "\n  "), rep.Footprint())
		}
		if !rep.OK() {
			return exitRejected
		}
		return exitOK
	})
}
