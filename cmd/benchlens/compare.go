package main

import (
	"fmt"
	"text/tabwriter"

	"benchlens/analysis/compare"
	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/store"
)

func (c *cli) compareCmd(args []string) int {
	fs := c.flags("compare", "--baseline SEL --candidate SEL [--format text|json|yaml] [--save]")
	base := fs.String("baseline", "", "baseline arm: a label or comma-separated run ids")
	cand := fs.String("candidate", "", "candidate arm: a label or comma-separated run ids")
	format := fs.String("format", "text", "text, json or yaml")
	save := fs.Bool("save", false, "store the comparison in the library")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *base == "" || *cand == "" || fs.NArg() > 0 || (*format != "text" && *format != "json" && *format != "yaml") {
		fs.Usage()
		return exitUsage
	}
	st, ok := c.open()
	if !ok {
		return exitRejected
	}
	defer st.Close()
	rec, err := library.Compare(st, *base, *cand, compare.DefaultSettings)
	if err != nil {
		fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
		return exitRejected
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
		fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
		return exitRejected
	}
	if *save {
		id, err := library.SaveComparison(st, *base, *cand, rec)
		if err != nil {
			fmt.Fprintf(c.stderr, "benchlens: saving: %v\n", err)
			return exitRejected
		}
		fmt.Fprintf(c.stderr, "saved as comparison %d\n", id)
	}
	return exitOK
}

func (c *cli) comparisonsCmd(args []string) int {
	fs := c.flags("comparisons", "[--json]")
	asJSON := fs.Bool("json", false, "print a JSON array (with the records)")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	st, ok := c.open()
	if !ok {
		return exitRejected
	}
	defer st.Close()
	list, err := st.Comparisons(*asJSON)
	if err != nil {
		fmt.Fprintf(c.stderr, "benchlens: %v\n", err)
		return exitRejected
	}
	if *asJSON {
		if list == nil {
			list = []store.Comparison{}
		}
		return c.writeJSON(list)
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSAVED\tBASELINE\tCANDIDATE\tSTATUS")
	for _, cmp := range list {
		fmt.Fprintf(tw, "%d\t%s\t%s (%d runs)\t%s (%d runs)\t%s\n", cmp.ID, cmp.CreatedAt, cmp.Baseline, len(cmp.BaselineRuns), cmp.Candidate, len(cmp.CandidateRuns), cmp.Status)
	}
	tw.Flush()
	return exitOK
}
