package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

func (c *cli) compareCmd(args []string) int {
	fs := c.flags("compare", "--baseline SEL --candidate SEL [--format text|json|yaml] [--save] [--change-what W --change-fields F,... --change-path P] [--alpha X --min-repeats N ...]")
	base := fs.String("baseline", "", "baseline arm: a label or comma-separated run ids (ids:9 when a label is 9)")
	cand := fs.String("candidate", "", "candidate arm: a label or comma-separated run ids (ids:9 when a label is 9)")
	format := fs.String("format", "text", "text, json or yaml")
	save := fs.Bool("save", false, "store the comparison in the library")
	changeWhat := fs.String("change-what", "", "declare the change under test: what it is (\"FP8 weights\"), as bundle.yaml's change.what")
	changeFields := fs.String("change-fields", "", "declare the record fields the change sets, comma-separated (model_name,dtype), as change.fields")
	changePath := fs.String("change-path", "", "declare the operator path the change targets ("+joinPaths()+"), as change.path")
	override := settingFlags(fs)
	if !c.parse(fs, args, noArgs) {
		return exitUsage
	}
	declared, err := declaredFlags(*changeWhat, *changeFields, *changePath)
	if err != nil {
		fmt.Fprintf(c.stderr, "benchlens: compare: %v\n", err)
		return exitUsage
	}
	if *base == "" || *cand == "" || (*format != "text" && *format != "json" && *format != "yaml") {
		fs.Usage()
		return exitUsage
	}
	probe := compare.DefaultSettings
	if err := override(&probe); err != nil {
		// A flag's value out of its range is a usage error, told before the library opens.
		fmt.Fprintf(c.stderr, "benchlens: compare: %v\n", err)
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int {
		set, err := library.Settings(st)
		if err == nil {
			err = override(&set)
		}
		if err != nil {
			return c.fail(err)
		}
		for _, sel := range []string{*base, *cand} {
			if note := library.SelectorNote(st, sel); note != "" {
				fmt.Fprintf(c.stderr, "benchlens: %s\n", note)
			}
		}
		rec, err := library.CompareDeclared(st, *base, *cand, set, declared)
		if errors.Is(err, library.ErrUsage) {
			fmt.Fprintf(c.stderr, "benchlens: compare: %v\n", err)
			return exitUsage
		}
		if err != nil {
			return c.fail(err)
		}
		switch *format {
		case "json":
			err = report.JSON(c.stdout, rec)
		case "yaml":
			err = report.YAML(c.stdout, rec)
		default:
			err = report.Text(c.stdout, rec)
		}
		if err != nil {
			return c.fail(err)
		}
		if *save {
			id, err := library.SaveComparison(st, *base, *cand, rec)
			if err != nil {
				return c.fail(fmt.Errorf("saving: %w", err))
			}
			fmt.Fprintf(c.stderr, "saved as comparison %d\n", id)
		}
		return exitOK
	})
}

func (c *cli) comparisonsCmd(args []string) int {
	fs := c.flags("comparisons", "[--json]")
	asJSON := fs.Bool("json", false, "print a JSON array (with the records)")
	if !c.parse(fs, args, noArgs) {
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int { return c.comparisons(st, *asJSON) })
}

func (c *cli) comparisons(st *store.Store, asJSON bool) int {
	list, err := library.Comparisons(st, library.ListOptions{Records: asJSON})
	if err != nil {
		return c.fail(err)
	}
	// The analyst's status first, the proposal beside it.
	listed := make([]listedComparison, len(list))
	for i, cmp := range list {
		cur, err := library.CurrentAnnotation(st, cmp.ID)
		if err != nil {
			return c.fail(err)
		}
		listed[i] = listedComparison{Comparison: cmp, Proposed: cmp.Status}
		if o := cur.StatusOverride; o != "" {
			listed[i].Status, listed[i].Override, listed[i].OverrideReason = o, o, cur.OverrideReason
		}
	}
	if asJSON {
		return c.writeJSON(listed)
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSAVED\tBASELINE\tCANDIDATE\tSTATUS\tPROPOSED")
	for _, cmp := range listed {
		status, proposed := string(cmp.Status), ""
		if cmp.Override != "" {
			status += " (analyst)"
			proposed = string(cmp.Proposed)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s (%s)\t%s (%s)\t%s\t%s\n", cmp.ID, report.When(cmp.CreatedAt), q(cmp.Baseline), report.Count(len(cmp.BaselineRuns), "run", "runs"),
			q(cmp.Candidate), report.Count(len(cmp.CandidateRuns), "run", "runs"), status, proposed)
	}
	tw.Flush()
	return exitOK
}

// listedComparison is a saved comparison as `comparisons` lists it: status is the one that
// stands (the analyst's override when there is one), proposed_status the record's.
type listedComparison struct {
	store.Comparison
	Proposed       model.Status `json:"proposed_status"`
	Override       model.Status `json:"status_override,omitempty"`
	OverrideReason string       `json:"override_reason,omitempty"`
}

// declaredFlags is the change the --change-* flags declare, nil when none is given.
func declaredFlags(what, fields, path string) (*model.Change, error) {
	if what == "" && fields == "" && path == "" {
		return nil, nil
	}
	c := model.Change{What: what, Path: model.ChangePath(path)}
	for _, f := range strings.Split(fields, ",") {
		if f = strings.TrimSpace(f); f != "" {
			c.Fields = append(c.Fields, f)
		}
	}
	if path != "" && !slices.Contains(model.ChangePaths, c.Path) {
		return nil, fmt.Errorf("--change-path %q is not a path (%s)", path, joinPaths())
	}
	return &c, nil
}

func joinPaths() string {
	var names []string
	for _, p := range model.ChangePaths {
		names = append(names, string(p))
	}
	return strings.Join(names, ", ")
}
