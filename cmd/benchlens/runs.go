package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"benchlens/analysis/report"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

func (c *cli) runsCmd(args []string) int {
	fs := c.flags("runs", "[--json]")
	asJSON := fs.Bool("json", false, "print a JSON array")
	if !c.parse(fs, args, noArgs) {
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int {
		write := writeRunsTable
		if *asJSON {
			write = writeRunsJSON
		}
		if err := write(c.stdout, st); err != nil {
			return c.fail(err)
		}
		return exitOK
	})
}

// stopped says where a listing that met a damaged run (or could not go on) stopped: the
// output ends whole (the table, the JSON array closed) with the runs before it.
func stopped(n int, err error) error {
	return fmt.Errorf("the listing stopped; the %d runs before are printed: %w", n, err)
}

// writeRunsJSON streams the rows as one indented JSON array, batch by batch as they are read
// (library.EachRows): the same text as encoding the whole list with encoding/json (each row
// written by library.AppendRowJSON), in the memory of a batch. A listing that stops partway
// still ends the array, and says where it stopped.
func writeRunsJSON(w io.Writer, st *store.Store) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var item []byte
	n := 0
	err := library.EachRows(st, func(rows []library.RunRow) error {
		for i := range rows {
			sep := ",\n  "
			if n == 0 {
				sep = "[\n  "
			}
			n++
			item = library.AppendRowJSON(append(item[:0], sep...), &rows[i])
			if _, err := bw.Write(item); err != nil {
				return err
			}
		}
		return nil
	})
	if n == 0 {
		bw.WriteString("[]\n")
	} else {
		bw.WriteString("\n]\n")
	}
	if ferr := bw.Flush(); ferr != nil {
		return ferr
	}
	if err != nil {
		return stopped(n, err)
	}
	return nil
}

func (c *cli) writeJSON(v any) int {
	enc := json.NewEncoder(c.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// writeRunsTable prints one line per run: medians in ms, recomputed where per-request data
// exists (marked *), else the tool's own. The rows are read a batch at a time and kept as
// their text only (the columns' widths need every line); a listing that stops partway
// prints the lines before it and says where it stopped.
func writeRunsTable(out io.Writer, st *store.Store) error {
	w := bufio.NewWriterSize(out, 1<<16) // the tab writer writes each cell on its own
	defer w.Flush()
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tLABEL\tROLE\tTOOL\tMODEL\tPREC\tBACKEND\tLOAD\tSHAPE\tOK/N\tNOT OK\tTTFT p50\tTPOT p50\tITL p50\tOUT tok/s")
	n := 0
	var line []byte
	err := library.EachMedianRows(st, func(rows []library.RunRow) error {
		for i := range rows {
			line = appendRunLine(line[:0], &rows[i])
			if _, err := tw.Write(line); err != nil {
				return err
			}
		}
		n += len(rows)
		return nil
	})
	if n == 0 && err == nil {
		fmt.Fprintln(tw, "(the library is empty: benchlens import PATH, or benchlens demo)")
	}
	if ferr := errors.Join(tw.Flush(), w.Flush()); ferr != nil {
		return ferr
	}
	if err != nil {
		return stopped(n, err)
	}
	return nil
}

// appendRunLine appends a run's line of the table, its cells tab-separated: appended, not
// formatted by fmt, which was a sixth of listing 100,000 runs.
func appendRunLine(b []byte, r *library.RunRow) []byte {
	b = strconv.AppendInt(b, r.ID, 10)
	for _, cell := range [...]string{q(r.Label), string(r.Role), q(r.Tool), q(short(r.Model, 36)), report.OrDash(r.Precision), backend(*r),
		load(r), report.OrDash(library.BriefShape(r.LoadPoint))} {
		b = append(append(b, '\t'), cell...)
	}
	b = append(append(append(append(b, '\t'), count(r.Completed)...), '/'), count(r.NumPrompts)...)
	for _, cell := range [...]string{notOK(*r), median(r.TTFT), median(r.TPOT), median(r.ITL), fixed(r.OutputThroughput, 1)} {
		b = append(append(b, '\t'), cell...)
	}
	return append(b, '\n')
}

// load is the run's offered load: "conc 64", "rate 2", "conc 64, rate 10" (requests/s; an
// unthrottled rate left out), "-" when neither is known.
func load(r *library.RunRow) string {
	var parts []string
	if r.MaxConcurrency.Known() {
		parts = append(parts, "conc "+model.FormatNum(r.MaxConcurrency))
	}
	if r.RequestRate.Known() && !math.IsInf(r.RequestRate.F(), 1) {
		parts = append(parts, "rate "+model.FormatNum(r.RequestRate))
	}
	return report.OrDash(strings.Join(parts, ", "))
}

// notOK prints the requests that did not succeed in the tool's own categories ("1 incomplete",
// "2 errored, 1 cancelled"), or their count where the tool keeps none.
func notOK(r library.RunRow) string {
	var parts []string
	known := false
	for _, c := range []struct {
		n    model.Num
		name string
	}{{r.Errored, "errored"}, {r.Incomplete, "incomplete"}, {r.Cancelled, "cancelled"}} {
		if c.n.Known() {
			known = true
			if c.n != 0 {
				parts = append(parts, count(c.n)+" "+c.name)
			}
		}
	}
	switch {
	case len(parts) > 0:
		return strings.Join(parts, ", ")
	case known:
		return "0"
	}
	return count(r.Failed)
}

// median prints the median the analysis uses, marked * when recomputed from the requests.
func median(m library.Metric) string {
	v, recomputed := m.Median()
	if !v.Known() {
		return "-"
	}
	if recomputed {
		return fixed(v, 2) + "*"
	}
	return fixed(v, 2)
}

func fixed(n model.Num, prec int) string {
	if !n.Known() {
		return "-"
	}
	if math.IsInf(n.F(), 0) {
		return "inf"
	}
	return strconv.FormatFloat(n.F(), 'f', prec, 64)
}

func count(n model.Num) string {
	if !n.Known() {
		return "?"
	}
	return strconv.FormatFloat(n.F(), 'f', -1, 64)
}

// short keeps the last n-1 characters of s behind an ellipsis; it counts runes, so that a cut
// never splits a character into bytes the table would then print escaped.
func short(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return "…" + string(r[len(r)-n+1:])
}

// backend shows the resolved backend, and the target when it differs.
func backend(r library.RunRow) string {
	res, tgt := "-", ""
	if r.ResolvedBackend != nil {
		res = *r.ResolvedBackend
	}
	if r.TargetBackend != nil {
		tgt = *r.TargetBackend
	}
	if tgt != "" && tgt != res {
		return res + " (asked " + tgt + ")"
	}
	return res
}
