package main

import (
	"flag"
	"fmt"
	"io"

	"benchlens/store"
)

// cli carries what every command needs.
type cli struct {
	stdout, stderr io.Writer
	db             string
}

// openWith opens the library named by --db, $BENCHLENS_DB or the default location; with
// Options.Existing (check, backup) it never creates one.
func (c *cli) openWith(o store.Options) (*store.Store, bool) {
	path := c.db
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			fmt.Fprintf(c.stderr, "benchlens: no library location: %v\n", err)
			return nil, false
		}
	}
	st, err := store.OpenWith(path, o)
	if err != nil {
		fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
		return nil, false
	}
	return st, true
}

// flags returns a flag set that reports errors on stderr and never exits the process.
func (c *cli) flags(name, args string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(c.stderr, "usage: benchlens %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// Argument counts for parse.
const (
	noArgs  = 0
	oneArg  = 1
	someArg = -1 // one or more
	anyArgs = -2 // none or more
)

// parse reads a command's flags and checks how many arguments remain; on a mistake it prints
// the usage and returns false.
func (c *cli) parse(fs *flag.FlagSet, args []string, nargs int) bool {
	if err := fs.Parse(args); err != nil {
		return false
	}
	if (nargs == someArg && fs.NArg() == 0) || (nargs >= 0 && fs.NArg() != nargs) {
		fs.Usage()
		return false
	}
	return true
}

// withLibrary opens the library, runs do, and closes it; the exit status is do's, or 1 when
// the library cannot be opened.
func (c *cli) withLibrary(do func(st *store.Store) int) int {
	return c.withLibraryOpts(store.Options{}, do)
}

// withLibraryOpts is withLibrary with options for the open.
func (c *cli) withLibraryOpts(o store.Options, do func(st *store.Store) int) int {
	st, ok := c.openWith(o)
	if !ok {
		return exitRejected
	}
	defer st.Close()
	return do(st)
}

// fail prints a command's error and returns the exit status for it.
func (c *cli) fail(err error) int {
	fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
	return exitRejected
}
