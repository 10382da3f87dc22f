package main

import (
	"fmt"
	"strconv"
	"strings"

	"benchlens/library"
	"benchlens/store"
)

// idList is a repeatable --comparison flag.
type idList []int64

func (l *idList) String() string { return fmt.Sprint(*l) }

func (l *idList) Set(s string) error {
	for _, part := range strings.Split(s, ",") {
		id, err := strconv.ParseInt(strings.TrimSpace(part), 10, 64)
		if err != nil {
			return fmt.Errorf("not a comparison id: %q", part)
		}
		*l = append(*l, id)
	}
	return nil
}

func (c *cli) exportCmd(args []string) int {
	fs := c.flags("export", "--xlsx FILE | --yaml FILE | --csv DIR | --md FILE | --png DIR [--comparison ID ...] [--requests] [--force]")
	targets := map[string]*string{}
	for _, f := range []struct{ name, usage string }{
		{library.FormatXLSX, "write an Excel workbook"},
		{library.FormatYAML, "write the records of METHOD.md as YAML"},
		{library.FormatCSV, "write one CSV file per table into a folder"},
		{library.FormatMD, "write a Markdown summary"},
		{library.FormatPNG, "write every chart as PNG and SVG into a folder"},
	} {
		targets[f.name] = fs.String(f.name, "", f.usage)
	}
	var ids idList
	fs.Var(&ids, "comparison", "comparison id (repeatable; all saved comparisons by default)")
	requests := fs.Bool("requests", false, "xlsx: add a sheet with every request")
	force := fs.Bool("force", false, "replace existing files (never the library itself)")
	if !c.parse(fs, args, noArgs) {
		return exitUsage
	}
	var format, dest string
	for name, p := range targets {
		if *p != "" {
			if format != "" {
				fmt.Fprintln(c.stderr, "benchlens: give one output format at a time")
				return exitUsage
			}
			format, dest = name, *p
		}
	}
	if format == "" {
		fs.Usage()
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int {
		if err := library.Export(st, format, dest, library.ExportOptions{IDs: ids, Requests: *requests, Force: *force}); err != nil {
			return c.fail(fmt.Errorf("export: %w", err))
		}
		fmt.Fprintf(c.stdout, "wrote %s\n", dest)
		return exitOK
	})
}
