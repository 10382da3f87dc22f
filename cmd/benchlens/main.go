// Command benchlens imports LLM-serving benchmark results into a local library and judges
// whether a speedup is the change's. Without a command it opens the desktop app; the
// subcommands run headless.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"benchlens/library"
)

func main() {
	os.Exit(run(os.Stdout, os.Stderr, os.Args[1:]))
}

// Exit statuses of the command-line contract.
const (
	exitOK       = 0
	exitRejected = 1 // some inputs were rejected; the rest were imported
	exitUsage    = 2
)

const usage = `usage: benchlens [--db FILE|postgres://…] [command]

commands:
  (none)                                   open the desktop app
  import [--label L | --label-by folder|model|manifest] [--role R] PATH...
                                           import files, folders, .zip, .tar.gz; --label-by
                                           makes an arm of each subfolder, model or manifest label
  import --reapply-manifests [PATH...]     apply bundle.yaml files added beside runs already
                                           stored (of PATH..., else of every stored bundle)
  runs [--json]                            list runs
  show RUN [--json]                        one run in full, with what each attached file says
  compare --baseline SEL --candidate SEL [--format text|json|yaml] [--save] [--alpha X ...]
          [--slo "ttft<=MS,tpot<=MS[,itl<=MS][,e2el<=MS]"] [--slo-target 0.9]
                                           compare two arms: evidence, stages, verdict;
                                           --alpha, --min-repeats, --noise-floor, --idle-threshold,
                                           --bucket-edges ... override a setting for one call;
                                           --slo adds each arm's SLO attainment, goodput and
                                           capacity per load point
  settings [KEY=VALUE...] [--reset [KEY...]]
                                           list or set the library's analysis settings
  comparisons [--json]                     list saved comparisons
  export --xlsx FILE | --yaml FILE | --csv DIR | --md FILE | --png DIR [--comparison ID ...] [--force]
                                           export saved comparisons (all by default)
  demo                                     load the built-in sample bundles
  backup FILE | --to postgres://…          write a consistent copy of the library to a new
                                           file, or into an empty team library
  check [--json] [--repair]                verify integrity and invariants (exit 1 on problems);
                                           --repair first removes orphan files
  reproduce COMPARISON | --baseline SEL --candidate SEL
                                           the commands that re-create each arm, as a shell script
  history SERIES [--stage S] [--format text|json] [--accept RUN | --reject RUN [--note TEXT]]
          [--xlsx FILE] [--md FILE] [--png DIR] [--series-alpha 0.01] [--min-magnitude 0.02] [--window 5]
                                           a series' change points (a label or bundle.yaml
                                           series:), each explained by its windows' comparison;
                                           --accept/--reject triage the steps starting at RUN;
                                           --xlsx/--md also write it as a workbook or Markdown,
                                           --png its charts (one per stage metric and load point)
  gate --baseline SEL --candidate SEL [--max-regression PCT] [--md FILE]
                                           exit 1 when a stage is significantly worse by more
                                           than PCT; Markdown summary for a pull request
  --version                                benchlens, commit, build date, Go and SQLite versions

SEL is a label (every run with it forms the arm) or comma-separated run ids; a label that
looks like ids ("9") is the label when a run has it (ids:9 names run 9).
The library is --db FILE, else $BENCHLENS_DB, else library.db in the user's data directory;
a postgres:// URL there opens a team library in PostgreSQL.
`

// run is main without the process: tests call it with buffers.
func run(stdout, stderr io.Writer, args []string) int {
	db := ""
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--db" || a == "-db":
			if len(args) < 2 {
				fmt.Fprintln(stderr, "benchlens: --db needs a file")
				return exitUsage
			}
			db, args = args[1], args[2:]
			continue
		case strings.HasPrefix(a, "--db=") || strings.HasPrefix(a, "-db="):
			db, args = a[strings.IndexByte(a, '=')+1:], args[1:]
			if db == "" {
				fmt.Fprintln(stderr, "benchlens: --db needs a file")
				return exitUsage
			}
			continue
		case a == "--version" || a == "-version" || a == "version":
			fmt.Fprint(stdout, library.Version().Text())
			return exitOK
		case a == "-h" || a == "--help" || a == "help":
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		break
	}
	if len(args) == 0 {
		return openApp(stderr, db)
	}
	cmd, rest := args[0], args[1:]
	c := &cli{stdout: stdout, stderr: stderr, db: db}
	switch cmd {
	case "import":
		return c.importCmd(rest)
	case "runs":
		return c.runsCmd(rest)
	case "show":
		return c.showCmd(rest)
	case "demo":
		return c.demoCmd(rest)
	case "compare":
		return c.compareCmd(rest)
	case "comparisons":
		return c.comparisonsCmd(rest)
	case "export":
		return c.exportCmd(rest)
	case "backup":
		return c.backupCmd(rest)
	case "check":
		return c.checkCmd(rest)
	case "settings":
		return c.settingsCmd(rest)
	case "reproduce":
		return c.reproduceCmd(rest)
	case "history":
		return c.historyCmd(rest)
	case "gate":
		return c.gateCmd(rest)
	}
	fmt.Fprintf(stderr, "benchlens: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}
