package main

import (
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"

	"benchlens/analysis/compare"
	"benchlens/library"
	"benchlens/store"
)

// settingsCmd lists the library's analysis settings or sets them (key=value ...); --reset
// puts keys (all without arguments) back to METHOD.md's defaults.
func (c *cli) settingsCmd(args []string) int {
	fs := c.flags("settings", "[--reset [KEY...]] [KEY=VALUE...]")
	reset := fs.Bool("reset", false, "put the named keys (all when none is named) back to their defaults")
	if !c.parse(fs, args, anyArgs) {
		return exitUsage
	}
	values := map[string]string{}
	var resetKeys []string
	for _, a := range fs.Args() {
		k, v, ok := strings.Cut(a, "=")
		switch {
		case ok:
			values[strings.TrimSpace(k)] = v
		case *reset:
			resetKeys = append(resetKeys, a)
		default:
			fmt.Fprintf(c.stderr, "benchlens: settings: %q is not KEY=VALUE\n", a)
			return exitUsage
		}
	}
	probe := compare.DefaultSettings
	for k, v := range values {
		if err := probe.Set(k, v); err != nil {
			// An unknown key or a value out of its range is a usage error.
			fmt.Fprintf(c.stderr, "benchlens: settings: %v\n", err)
			return exitUsage
		}
	}
	if *reset && len(resetKeys) == 0 {
		resetKeys = compare.SettingKeys()
	}
	return c.withLibrary(func(st *store.Store) int {
		set, err := library.Settings(st)
		if len(values) > 0 || len(resetKeys) > 0 {
			set, err = library.SetSettings(st, values, resetKeys)
		}
		if err != nil {
			return c.fail(err)
		}
		stored, err := st.Settings()
		if err != nil {
			return c.fail(err)
		}
		tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
		for _, k := range compare.SettingKeys() {
			from := "default"
			if _, ok := stored[k]; ok {
				from = "library"
			}
			fmt.Fprintf(tw, "%s\t%s\t(%s)\n", k, set.Text(k), from)
		}
		tw.Flush()
		return exitOK
	})
}

// settingFlags gives compare a flag per analysis setting (--alpha, --min-repeats, ...) that
// overrides the library's value for one call.
func settingFlags(fs *flag.FlagSet) func(*compare.Settings) error {
	given := map[string]*string{}
	for _, k := range compare.SettingKeys() {
		name := strings.ReplaceAll(k, "_", "-")
		given[k] = fs.String(name, "", fmt.Sprintf("override the library's %s for this call (see benchlens settings)", k))
	}
	return func(set *compare.Settings) error {
		for _, k := range compare.SettingKeys() {
			isSet := false
			fs.Visit(func(f *flag.Flag) { isSet = isSet || f.Name == strings.ReplaceAll(k, "_", "-") })
			if isSet {
				if err := set.Set(k, *given[k]); err != nil {
					return err
				}
			}
		}
		return nil
	}
}
