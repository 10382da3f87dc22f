package main

import (
	"fmt"
	"io"
	"strings"

	"benchlens/model"
)

// writeEvidence is the evidence part of `show RUN`: per server log its stack, path and status
// (a server that never came up says failed, with its lines), per profiler trace its device
// time by operator family and the attention kernels it ran.
func writeEvidence(w io.Writer, evs []model.Evidence) {
	for _, e := range evs {
		switch {
		case e.Log != nil:
			l := e.Log
			fmt.Fprintf(w, "\nserver log (%s)\n", e.Format)
			fmt.Fprintf(w, "  %s\n", strings.Join(nonEmpty(l.Engine, l.Version, l.Platform), " "))
			fmt.Fprintf(w, "  target %s (%s), resolved %s: %s\n", orDash(l.TargetBackend), orDash(string(l.TargetSource)), orDash(l.Resolved), l.Status)
			for _, f := range l.ServerFailure {
				fmt.Fprintf(w, "  server failed, line %d: %s\n", f.N, f.Text)
			}
			for _, k := range []string{"linear", "moe", "sampler", "all_reduce", "graph"} {
				if v := l.AuxBackends[k]; v != "" {
					fmt.Fprintf(w, "  %s: %s\n", k, v)
				}
			}
		case e.Trace != nil && len(e.Trace.Families) > 0:
			t := e.Trace
			per, n := "trace", 1.0
			if t.Steps > 0 {
				per, n = "step", float64(t.Steps)
			}
			fmt.Fprintf(w, "\nprofiler trace (%s): device time %.0f us per %s\n", t.Source, t.DeviceTimeUs/n, per)
			for _, f := range t.Families {
				fmt.Fprintf(w, "  %-14s %5.1f%%  %s\n", f.Family, 100*f.Share, strings.Join(f.Top, ", "))
			}
			for _, k := range t.KernelBackends {
				fmt.Fprintf(w, "  attention kernels: %s (%s)\n", k.Backend, k.Kernel)
			}
		}
	}
}

func nonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
