package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"benchlens/analysis/report"
	"benchlens/internal/textsafe"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

// runDetail is `show RUN --json`: the list row plus everything else the library holds.
type runDetail struct {
	library.RunRow
	Bundle       string                 `json:"bundle"`
	Backend      string                 `json:"backend"`
	Tokenizer    string                 `json:"tokenizer"`
	Burstiness   model.Num              `json:"burstiness"`
	InputTokens  model.Num              `json:"total_input_tokens"`
	OutputTok    model.Num              `json:"total_output_tokens"`
	InputTput    model.Num              `json:"input_throughput"`
	Summary      map[string]model.Stats `json:"summary"`
	Recomputed   map[string]model.Stats `json:"recomputed"`
	Used         map[string]string      `json:"used"` // per metric: "tool" or "recomputed"
	IdentifiedBy string                 `json:"identified_by"`
	Phase        string                 `json:"phase,omitempty"` // "warmup" for a warm-up run saved beside measured ones
	PhaseWhy     string                 `json:"phase_why,omitempty"`
	LoadPoint    model.LoadPoint        `json:"load_point"` // its load and request shape (METHOD.md rules 9, 12)
	Definitions  map[string]string      `json:"definitions"`
	Metadata     map[string]string      `json:"metadata"`
	Extra        map[string]any         `json:"extra"`
	Manifest     model.Manifest         `json:"manifest"`
	Warnings     []model.Warning        `json:"warnings"`
	Requests     requestsInfo           `json:"requests"`
	Files        []store.FileInfo       `json:"files"`
	Evidence     []model.Evidence       `json:"evidence"`
	// Fingerprint is what the run's files state of its conditions, merged, each fact with
	// its file and line (what the comparison's rule 1 reads).
	Fingerprint model.Fingerprint `json:"fingerprint"`
	// FilesDisagree is what two of its files state differently (model.Fingerprint.FilesDisagree).
	FilesDisagree []string `json:"files_disagree,omitempty"`
}

type requestsInfo struct {
	Count  int `json:"count"`
	Failed int `json:"failed"`
	Gaps   int `json:"gaps"`
}

func (c *cli) showCmd(args []string) int {
	fs := c.flags("show", "RUN [--json]")
	asJSON := fs.Bool("json", false, "print JSON")
	if !c.parse(fs, reorder(args), oneArg) {
		return exitUsage
	}
	id, err := strconv.ParseInt(fs.Arg(0), 10, 64)
	if err != nil {
		fmt.Fprintf(c.stderr, "benchlens: RUN must be a run id (see benchlens runs), not %q\n", fs.Arg(0))
		return exitUsage
	}
	return c.withLibrary(func(st *store.Store) int { return c.show(st, id, *asJSON) })
}

func (c *cli) show(st *store.Store, id int64, asJSON bool) int {
	r, err := st.Run(id)
	if err != nil {
		return c.fail(err)
	}
	files, err := st.RunFiles(id)
	if err != nil {
		return c.fail(err)
	}
	evidence, err := st.RunEvidence(id)
	if err != nil {
		return c.fail(err)
	}
	var sums []model.EvidenceSummary
	for i := range evidence {
		sums = append(sums, evidence[i].Summary())
	}
	d := runDetail{RunRow: library.Row(r, sums), Evidence: evidence, Bundle: r.Bundle, Backend: r.Backend, Tokenizer: r.Tokenizer,
		Burstiness: r.Burstiness, InputTokens: r.TotalInputTokens, OutputTok: r.TotalOutputTokens,
		InputTput: r.InputThroughput, Summary: r.Summary, Recomputed: r.Recomputed, Definitions: r.Definitions,
		Metadata: r.Metadata, Extra: r.Extra, Manifest: r.Manifest, Warnings: r.Warnings, Files: files}
	d.IdentifiedBy, d.Used = r.IdentifiedBy, map[string]string{}
	d.Phase, d.PhaseWhy, d.LoadPoint = r.Phase, r.PhaseWhy, model.PointOf(r)
	d.Fingerprint = model.FingerprintOf(evidence)
	var logs []*model.LogEvidence
	for i := range evidence {
		if evidence[i].Log != nil {
			logs = append(logs, evidence[i].Log)
		}
	}
	d.FilesDisagree = d.Fingerprint.FilesDisagree(logs)
	for _, src := range []map[string]model.Stats{r.Summary, r.Recomputed} {
		for m := range src {
			d.Used[m] = r.Used(m)
		}
	}
	d.Requests.Count = len(r.Requests)
	for i := range r.Requests {
		if !r.Requests[i].OK() {
			d.Requests.Failed++
		}
		d.Requests.Gaps += len(r.Requests[i].ITL)
	}
	if asJSON {
		return c.writeJSON(d)
	}
	writeDetail(c.stdout, d)
	return exitOK
}

// reorder lets flags follow the positional argument (show 3 --json).
func reorder(args []string) []string {
	var flags, pos []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			flags = append(flags, a)
		} else {
			pos = append(pos, a)
		}
	}
	return append(flags, pos...)
}

func writeDetail(w io.Writer, d runDetail) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(tw, "%s\t%s\n", k, v)
		}
	}
	line("run", strconv.FormatInt(d.ID, 10))
	line("label / role", q(d.Label)+" / "+string(d.Role))
	line("tool", strings.TrimSpace(d.Tool+" "+d.ToolVersion))
	line("format era", string(d.Era))
	line("identified by", d.IdentifiedBy)
	line("model", cmp.Or(q(d.Model), "-")) // always shown: a run without a model says so
	line("date", report.When(d.Date))
	line("bundle", q(d.Bundle))
	line("requests", fmt.Sprintf("%s ok of %s, not ok: %s; %d per-request records, %d gaps",
		count(d.Completed), count(d.NumPrompts), notOK(d.RunRow), d.Requests.Count, d.Requests.Gaps))
	if w := d.ToolWarmup; w != nil {
		where := "not in the file"
		if w.InFile {
			where = "their records set aside"
		}
		line("warm-up (tool's)", fmt.Sprintf("%d warm-up, %d cool-down requests excluded by the tool, %s; %s", w.Requests, w.Cooldown, where, w.Setting))
	}
	if d.Phase == model.PhaseWarmup {
		line("phase", "warm-up run: the arm's warm-up, not a repeat ("+q(d.PhaseWhy)+")")
	}
	if sm := d.Sampled; sm != nil {
		line("records", fmt.Sprintf("a sample: %d of %d successful requests (%s)", sm.Records, sm.Population, sm.Why))
	}
	line("rate / concurrency", fixed(d.RequestRate, 2)+" req/s / "+count(d.MaxConcurrency))
	line("load point", d.LoadPoint.Label()+loadPointFrom(d.LoadPoint))
	line("duration", fixed(d.DurationS, 2)+" s")
	line("throughput", fmt.Sprintf("%s req/s, %s out tok/s, %s total tok/s",
		fixed(d.RequestThroughput, 3), fixed(d.OutputThroughput, 1), fixed(d.TotalTokenThroughput, 1)))
	if d.TargetBackend != nil {
		line("target backend", *d.TargetBackend+" ("+d.TargetFrom+")")
	}
	tw.Flush()

	metrics := make([]string, 0, len(d.Summary)+len(d.Recomputed))
	seen := map[string]bool{}
	for _, m := range model.Latencies {
		seen[m] = true
		metrics = append(metrics, m)
	}
	for _, src := range []map[string]model.Stats{d.Summary, d.Recomputed} {
		for m := range src {
			if !seen[m] {
				seen[m] = true
				metrics = append(metrics, m)
			}
		}
	}
	// The heading is the table's first row, so its columns stand over what each row holds
	// (a summary of two figures made the columns narrower than a fixed heading's).
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "latency (ms)\ttool's own\trecomputed from requests\tused")
	for _, m := range metrics {
		if d.Summary[m] == nil && d.Recomputed[m] == nil {
			continue
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", m, statsLine(d.Summary[m]), statsLine(d.Recomputed[m]), d.Used[m])
	}
	tw.Flush()
	for _, m := range metrics {
		if def := d.Definitions[m]; def != "" {
			fmt.Fprintf(w, "  %s: %s\n", m, def)
		}
	}
	if len(d.Metadata) > 0 {
		fmt.Fprintln(w, "\nmetadata")
		for _, k := range slices.Sorted(maps.Keys(d.Metadata)) {
			fmt.Fprintf(w, "  %s = %s\n", q(k), q(fmt.Sprint(d.Metadata[k])))
		}
	}
	for _, warn := range report.SortedWarnings(d.Warnings) {
		fmt.Fprintf(w, "\nwarning: %s\n", q(warn.English()))
	}
	for _, x := range d.FilesDisagree {
		fmt.Fprintf(w, "\nits files disagree: %s\n", q(x))
	}
	report.WriteEvidence(w, d.Evidence, d.Manifest)
	fmt.Fprintln(w, "\nfiles")
	for _, f := range d.Files {
		fmt.Fprintf(w, "  %-10s %-12s %9d B  %s\n", f.Role, f.Kind, f.Size, q(f.Name))
	}
}

// statsLine prints mean, median, p99 (and std) compactly.
func statsLine(s model.Stats) string {
	if s == nil {
		return "-"
	}
	var parts []string
	for _, k := range []string{"mean", "median", "std", "p99"} {
		if v, ok := s.Stat(k); ok {
			parts = append(parts, k+" "+fixed(v, 2))
		}
	}
	return strings.Join(parts, "  ")
}

// q quotes text from the files (names, labels, models) that holds control characters, so it
// cannot break or forge a line on the terminal.
func q(s string) string { return textsafe.Quote(s) }

// loadPointFrom says where a point's lengths came from when they were not declared, and how
// its output was fixed: " (lengths from the file's totals; output not fixed by the client)".
func loadPointFrom(p model.LoadPoint) string {
	var parts []string
	for _, f := range []string{p.InputFrom, p.OutputFrom} {
		if f != "" && f != model.LengthDeclared && !slices.Contains(parts, "lengths: "+f) {
			parts = append(parts, "lengths: "+f)
		}
	}
	switch {
	case p.OutputFixed != "" && p.OutputFixed != model.LengthDeclared:
		parts = append(parts, "output fixed: "+p.OutputFixed)
	case p.OutputFixed == "" && p.OutputLen.Known():
		parts = append(parts, "output not fixed by the client: an outcome")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}
