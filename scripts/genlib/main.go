// Command genlib writes a library of many small runs for the scale benchmarks (issue 29
// items 3 and 4): arms of nightly-sized runs (a vLLM result's header and summary as the
// importer stores them, 40 requests, each run's own server log and its reading), stored
// directly with store.AddRun, so a 100,000-run library is built in minutes, not by an import
// of 100,000 files. The same flags give the same library.
//
// Usage:
//
//	go run ./scripts/genlib -out /tmp/lib.db -arms base:1000,cand:1000
//	go run ./scripts/genlib -out /tmp/100k.db -series 50 -per 2000
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"benchlens/internal/nightly"
	"benchlens/library"
	"benchlens/model"
	"benchlens/store"
)

func main() {
	out := flag.String("out", "", "the library to write (must not exist)")
	arms := flag.String("arms", "", "label:runs,… (each arm after the first 8 % faster to decode)")
	series := flag.Int("series", 0, "with -per: that many labels nightly-000 …")
	per := flag.Int("per", 0, "runs per label of -series")
	requests := flag.Int("requests", 40, "requests per run (the template night has 40)")
	gaps := flag.Int("gaps", 63, "inter-token gaps per request")
	flag.Parse()
	plan, err := armPlan(*arms, *series, *per)
	if err != nil || *out == "" {
		fmt.Fprintln(os.Stderr, "genlib: give -out and -arms label:n,… or -series N -per M", err)
		os.Exit(2)
	}
	if _, err := os.Stat(*out); err == nil {
		fmt.Fprintln(os.Stderr, "genlib:", *out, "exists")
		os.Exit(1)
	}
	if err := write(*out, plan, *requests, *gaps); err != nil {
		fmt.Fprintln(os.Stderr, "genlib:", err)
		os.Exit(1)
	}
}

type arm struct {
	label string
	runs  int
}

func armPlan(arms string, series, per int) ([]arm, error) {
	var plan []arm
	for i := range series {
		plan = append(plan, arm{fmt.Sprintf("nightly-%03d", i), per})
	}
	for _, part := range strings.Split(arms, ",") {
		if part == "" {
			continue
		}
		label, n, ok := strings.Cut(part, ":")
		runs, err := strconv.Atoi(n)
		if !ok || err != nil || runs < 1 {
			return nil, fmt.Errorf("-arms %q: want label:runs", part)
		}
		plan = append(plan, arm{label, runs})
	}
	if len(plan) == 0 {
		return nil, fmt.Errorf("no arms")
	}
	return plan, nil
}

// template imports one generated night, so every stored run has the header, summary,
// manifest and log reading a real import gives.
func template() (*model.Run, model.Evidence, []byte, error) {
	dir, err := os.MkdirTemp("", "genlib")
	if err != nil {
		return nil, model.Evidence{}, nil, err
	}
	defer os.RemoveAll(dir)
	if err := nightly.WriteOnly(dir, "nightly-h100", 0, 1); err != nil {
		return nil, model.Evidence{}, nil, err
	}
	st, err := store.Open(filepath.Join(dir, "t.db"))
	if err != nil {
		return nil, model.Evidence{}, nil, err
	}
	defer st.Close()
	if rep := library.Import(st, []string{dir}, library.Options{}); len(rep.Errors) > 0 {
		return nil, model.Evidence{}, nil, rep.Errors[0]
	}
	run, err := st.RunHeader(1)
	if err != nil {
		return nil, model.Evidence{}, nil, err
	}
	evs, err := st.RunEvidence(1)
	if err != nil || len(evs) == 0 {
		return nil, model.Evidence{}, nil, fmt.Errorf("the template night has no log reading (%v)", err)
	}
	logText, err := os.ReadFile(filepath.Join(dir, "nightly-h100", "2026-11-01", "server.log"))
	return run, evs[0], logText, err
}

func write(path string, plan []arm, requests, gaps int) error {
	tmpl, ev, logText, err := template()
	if err != nil {
		return err
	}
	st, err := store.Open(path)
	if err != nil {
		return err
	}
	defer st.Close()
	rng := rand.New(rand.NewPCG(29, 3))
	start, total, done := time.Now(), 0, 0
	for _, a := range plan {
		total += a.runs
	}
	for k, a := range plan {
		tpot := 0.012
		if k > 0 {
			tpot *= 0.92
		}
		for r := range a.runs {
			run := *tmpl
			run.Label, run.Role = a.label, model.RoleOther
			run.Date = time.Date(2026, 1, 1, 2, 0, 0, 0, time.UTC).Add(time.Duration(r) * time.Hour).Format("20060102-150405")
			run.OutputThroughput = model.Num(16 / tpot * (1 + 0.02*rng.NormFloat64()))
			run.Requests = make([]model.Request, requests)
			for i := range run.Requests {
				g := make([]float64, gaps)
				for j := range g {
					g[j] = tpot * (1 + 0.05*rng.NormFloat64())
				}
				run.Requests[i] = model.Request{InputLen: 1024, OutputLen: gaps + 1, TTFT: 0.05 * (1 + 0.04*rng.NormFloat64()),
					TPOT: math.NaN(), Latency: math.NaN(), Start: math.NaN(), ITL: g}
			}
			name := fmt.Sprintf("%s/%05d/vllm-result.json", a.label, r)
			body := []byte(fmt.Sprintf(`{"label": %q, "night": %d}`, a.label, r))
			res := &model.SourceFile{Name: name, Size: int64(len(body)), SHA256: "genlib-result-" + name, Kind: model.KindResult, Data: body}
			logBody := append([]byte(name+"\n"), logText...)
			logFile := &model.SourceFile{Name: filepath.Join(filepath.Dir(name), "server.log"), Size: int64(len(logBody)),
				SHA256: "genlib-log-" + name, Kind: model.KindLog, Data: logBody}
			runEv := ev
			if _, err := st.AddRun(store.NewRun{Run: &run, Fingerprint: "genlib-" + name, Files: []store.Attached{
				{File: res, Role: model.FileResult}, {File: logFile, Role: model.FileAttachment, Evidence: &runEv}}}); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if done++; done%5000 == 0 {
				fmt.Fprintf(os.Stderr, "genlib: %d of %d runs (%.0f/s)\n", done, total, float64(done)/time.Since(start).Seconds())
			}
		}
	}
	fmt.Fprintf(os.Stderr, "genlib: %d runs in %s\n", done, time.Since(start).Round(time.Second))
	return nil
}
