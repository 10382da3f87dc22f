package main

import (
	"fmt"

	"benchlens/analysis/report"
	"benchlens/importers"
	"benchlens/internal/textsafe"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

func (c *cli) importCmd(args []string) int {
	fs := c.flags("import", "[--label L | --label-by folder|model|manifest] [--role R] [--max-bytes N] [--max-files N] [--max-depth N] [--max-ratio N] PATH...\n       benchlens import --reapply-manifests [PATH...]")
	var opt library.Options
	fs.StringVar(&opt.Label, "label", "", "label every run (runs with one label form an arm)")
	role := fs.String("role", "", "baseline, candidate or other")
	labelBy := fs.String("label-by", "", "what names the arms: folder (each folder under PATH), model (each model, or precision: FP16 / FP8), manifest (bundle.yaml's label, else PATH's name; the default), bundle (PATH's name)")
	opt.Limits = importers.DefaultLimits
	fs.Int64Var(&opt.Limits.MaxBytes, "max-bytes", opt.Limits.MaxBytes, "refuse a bundle that expands beyond this many bytes")
	fs.IntVar(&opt.Limits.MaxEntries, "max-files", opt.Limits.MaxEntries, "refuse files beyond this many in one bundle")
	fs.IntVar(&opt.Limits.MaxDepth, "max-depth", opt.Limits.MaxDepth, "refuse archives nested deeper than this")
	fs.Int64Var(&opt.Limits.MaxRatio, "max-ratio", opt.Limits.MaxRatio, "refuse archive members that expand more than this many times")
	reapply := fs.Bool("reapply-manifests", false, "apply the bundle.yaml files beside runs already stored (of PATH..., or of every bundle the library's runs came from): a line per run changed")
	if !c.parse(fs, args, anyArgs) {
		return exitUsage
	}
	if *reapply {
		if opt.Label != "" || *role != "" || *labelBy != "" {
			fmt.Fprintln(c.stderr, "benchlens import: --reapply-manifests applies what the manifests say: not beside --label, --label-by or --role")
			return exitUsage
		}
		stop, release := library.Interrupts()
		defer release()
		opt.Stop = stop
		return c.withLibrary(func(st *store.Store) int { return c.reapplied(library.ReapplyManifests(st, fs.Args(), opt)) })
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	opt.Role = model.Role(*role)
	opt.LabelBy = library.LabelBy(*labelBy)
	if !opt.LabelBy.Valid() || (opt.Label != "" && opt.LabelBy != "") {
		fmt.Fprintf(c.stderr, "benchlens import: --label-by %q: expected folder, model, manifest or bundle, and not beside --label\n", *labelBy)
		return exitUsage
	}
	stop, release := library.Interrupts()
	defer release()
	opt.Stop = stop
	return c.withLibrary(func(st *store.Store) int { return c.report(library.Import(st, fs.Args(), opt)) })
}

// report prints what an import did: a line per refused input, then the totals.
func (c *cli) report(rep library.Report) int {
	for _, err := range rep.Errors {
		fmt.Fprintf(c.stderr, "refused: %s\n", textsafe.Quote(err.Error()))
	}
	for _, err := range rep.Skipped {
		fmt.Fprintf(c.stderr, "skipped: %s\n", textsafe.Quote(err.Error()))
	}
	for _, line := range rep.Already {
		fmt.Fprintf(c.stderr, "already: %s\n", textsafe.Quote(line))
	}
	for _, line := range rep.Repeats {
		fmt.Fprintf(c.stderr, "found twice: %s\n", line) // its name is quoted already
	}
	fmt.Fprintf(c.stdout, "imported %s", report.Count(len(rep.Added), "run", "runs"))
	if len(rep.Existing) > 0 {
		fmt.Fprintf(c.stdout, ", %d already in the library", len(rep.Existing))
	}
	if len(rep.Repeated) > 0 {
		fmt.Fprintf(c.stdout, ", %d found twice (stored once)", len(rep.Repeated))
	}
	if len(rep.Errors) > 0 {
		fmt.Fprintf(c.stdout, ", %s refused", report.Count(len(rep.Errors), "input", "inputs"))
	}
	if len(rep.Skipped) > 0 {
		fmt.Fprintf(c.stdout, ", %d not read", len(rep.Skipped))
	}
	fmt.Fprintln(c.stdout)
	if len(rep.Errors) > 0 {
		return exitRejected
	}
	return exitOK
}

// reapplied prints what --reapply-manifests did: a line per run changed (or per bundle whose
// manifests changed nothing), a line per refusal.
func (c *cli) reapplied(rep library.Reapplied) int {
	for _, err := range rep.Errors {
		fmt.Fprintf(c.stderr, "refused: %s\n", textsafe.Quote(err.Error()))
	}
	for _, line := range rep.Lines {
		fmt.Fprintln(c.stdout, line) // its values are quoted already
	}
	if len(rep.Errors) > 0 {
		return exitRejected
	}
	return exitOK
}
