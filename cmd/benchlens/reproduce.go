package main

import (
	"fmt"
	"strconv"

	"benchlens/analysis/reproduce"
	"benchlens/library"
	"benchlens/store"
)

// reproduceCmd prints the rerun recipe of a saved comparison, or of two arms, as text to
// paste into a shell script.
func (c *cli) reproduceCmd(args []string) int {
	fs := c.flags("reproduce", "COMPARISON | --baseline SEL --candidate SEL")
	base := fs.String("baseline", "", "baseline arm: a label or comma-separated run ids")
	cand := fs.String("candidate", "", "candidate arm: a label or comma-separated run ids")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	arms := *base != "" || *cand != ""
	var id int64
	switch {
	case arms && (*base == "" || *cand == "" || fs.NArg() != 0):
		fs.Usage()
		return exitUsage
	case !arms:
		n, err := strconv.ParseInt(fs.Arg(0), 10, 64)
		if fs.NArg() != 1 || err != nil {
			fs.Usage()
			return exitUsage
		}
		id = n
	}
	return c.withLibrary(func(st *store.Store) int {
		var r reproduce.Recipe
		var err error
		if arms {
			r, err = library.Recipe(st, *base, *cand)
		} else {
			r, err = library.SavedRecipe(st, id)
		}
		if err != nil {
			return c.fail(err)
		}
		fmt.Fprint(c.stdout, library.Script(r, id))
		return exitOK
	})
}
