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

// open opens the library named by --db, $BENCHLENS_DB or the default location.
func (c *cli) open() (*store.Store, bool) {
	path := c.db
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			fmt.Fprintf(c.stderr, "benchlens: no library location: %v\n", err)
			return nil, false
		}
	}
	st, err := store.Open(path)
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
