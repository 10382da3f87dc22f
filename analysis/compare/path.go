package compare

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"benchlens/model"
)

// armPath is what an arm's server logs and manifests say about the attention path.
type armPath struct {
	target, resolved string
	mixed            []string // distinct resolved backends when runs (or processes) disagree
	evidence         []EvidenceLine
	fallback         *model.Line // the line that explains a target not hit
	logged           bool        // some run has a server log
	targetFrom       string      // where the first run's target came from: bundle.yaml, the log's flag / env / default, a dump's line
}

func pathOf(a Arm, side string) armPath {
	var p armPath
	resolved := map[string]bool{}
	targets := map[string]bool{}
	for _, rd := range a.Runs {
		if t, from := targetOf(rd); t != "" {
			targets[t] = true
			if p.targetFrom == "" {
				p.targetFrom = from
			}
		}
		for _, v := range pathVars(rd.Fingerprint) {
			p.evidence = appendFileLine(p.evidence, side, rd.Run.ID, v)
		}
		for _, l := range rd.Logs {
			p.logged = true
			switch {
			case l.Resolved == "MIXED":
				for _, pb := range l.Processes {
					resolved[pb.Backend] = true
				}
			case l.Resolved != "":
				resolved[l.Resolved] = true
			}
			for _, fb := range l.Fallbacks {
				p.evidence = appendLine(p.evidence, side, rd.Run.ID, fb)
			}
			if l.Failure != nil {
				p.evidence = appendLine(p.evidence, side, rd.Run.ID, *l.Failure)
			}
			for _, f := range l.ServerFailure { // the server never came up
				p.evidence = appendLine(p.evidence, side, rd.Run.ID, f)
			}
			for _, pb := range l.Processes {
				p.evidence = appendLine(p.evidence, side, rd.Run.ID, pb.Line)
			}
			if p.fallback == nil && len(l.Fallbacks) > 0 {
				fb := l.Fallbacks[len(l.Fallbacks)-1]
				p.fallback = &fb
			}
			if p.fallback == nil && l.Failure != nil {
				p.fallback = l.Failure
			}
		}
	}
	p.settle(targets, resolved)
	return p
}

// settle sets the arm's target and resolved path from the sets its runs named: several
// resolved values make the arm mixed.
func (p *armPath) settle(targets, resolved map[string]bool) {
	p.target = strings.Join(slices.Sorted(maps.Keys(targets)), " | ")
	switch keys := slices.Sorted(maps.Keys(resolved)); {
	case len(keys) == 1:
		p.resolved = keys[0]
	case len(keys) > 1:
		p.mixed = keys
		p.resolved = strings.Join(keys, " | ")
	}
}

// targetOf is the backend a run asked for and where that is said (model.TargetOf).
func targetOf(rd RunData) (target, from string) {
	t := model.TargetOf(rd.Run.Manifest, model.TargetClaims(rd.Logs, rd.Fingerprint))
	return t.Backend, t.From
}

// pathVars are the printed variables that pick an engine path (rule 3): the attention
// backend, V1 or V0, the kernels a platform uses (VLLM_USE_*, VLLM_ROCM_USE_*, VLLM_*_BACKEND,
// VLLM_MLA_DISABLE, VLLM_FLASH_ATTN_VERSION), every VLLM_ASCEND_* switch, and SGLang's
// backend and kernel switches.
func pathVars(fp model.Fingerprint) []model.Fact {
	var out []model.Fact
	for _, v := range fp.Env {
		n := v.Name
		pick := n == "VLLM_ATTENTION_BACKEND" || n == "VLLM_MLA_DISABLE" || n == "VLLM_FLASH_ATTN_VERSION" ||
			strings.HasPrefix(n, "VLLM_USE_") || strings.HasPrefix(n, "VLLM_ROCM_USE_") || strings.HasPrefix(n, "VLLM_ASCEND_") ||
			(strings.HasPrefix(n, "VLLM_") && strings.HasSuffix(n, "_BACKEND")) ||
			(strings.HasPrefix(n, "SGLANG_") && (strings.Contains(n, "BACKEND") || strings.HasPrefix(n, "SGLANG_USE_") ||
				strings.HasPrefix(n, "SGLANG_ENABLE_") || strings.HasPrefix(n, "SGLANG_DISABLE_")))
		if pick {
			out = append(out, model.Fact{Value: n + "=" + v.Value, File: fp.VarFile(n), Line: v.Line})
		}
	}
	return out
}

// appendFileLine quotes a line of an environment dump once per arm, with its file.
func appendFileLine(lines []EvidenceLine, arm string, run int64, f model.Fact) []EvidenceLine {
	for i := range lines {
		if lines[i].Arm == arm && lines[i].Text == f.Value {
			if lines[i].Run != run {
				lines[i].Runs++
			}
			return lines
		}
	}
	return append(lines, EvidenceLine{Arm: arm, Run: run, File: f.File, Line: f.Line, Text: f.Value, Runs: 1})
}

// appendLine quotes a line once: a line every run prints again (other time, other pid)
// only raises the count.
func appendLine(lines []EvidenceLine, arm string, run int64, l model.Line) []EvidenceLine {
	key := lineKey(l.Text)
	for i := range lines {
		if lines[i].Arm == arm && lineKey(lines[i].Text) == key {
			if lines[i].Run != run {
				lines[i].Runs++
			}
			return lines
		}
	}
	return append(lines, EvidenceLine{Arm: arm, Run: run, Line: l.N, Text: l.Text, Runs: 1})
}

// lineKey drops the digits (times, pids) so repeats of a line compare equal.
func lineKey(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, s)
}

// path applies rule 3. faster says whether any stage got significantly better.
func path(rec *Record, base, cand Arm, faster bool, declared model.ChangePath) []Cause {
	var bp, cp armPath
	var causes []Cause
	if declared == model.PathAttention {
		bp, cp = pathOf(base, "baseline"), pathOf(cand, "candidate")
		rec.Path.Evidence = append(append([]EvidenceLine(nil), cp.evidence...), bp.evidence...)
		causes = kernelPath(rec, &bp, &cp, base, cand)
	} else {
		rec.Path.Declared = declared
		bp, cp = declaredPathOf(base, "baseline", declared), declaredPathOf(cand, "candidate", declared)
		rec.Path.Evidence = append(append([]EvidenceLine(nil), cp.evidence...), bp.evidence...)
	}
	rec.Path.TargetBackend = ArmValues{bp.target, cp.target}
	if strings.HasPrefix(bp.targetFrom, model.TargetVar) || strings.HasPrefix(cp.targetFrom, model.TargetVar) {
		rec.Path.TargetFrom = &ArmValues{bp.targetFrom, cp.targetFrom} // a dump's variable stands for a silent log: say so
	}
	rec.Path.ResolvedBackend = ArmValues{bp.resolved, cp.resolved}
	for _, x := range []struct {
		name string
		p    armPath
	}{{"baseline", bp}, {"candidate", cp}} {
		if len(x.p.mixed) > 0 {
			causes = append(causes, Cause{model.MixedPaths, fmt.Sprintf("runs of the %s arm resolved to different backends: %s", x.name, strings.Join(x.p.mixed, ", "))})
		}
	}
	if bp.resolved == "" || cp.resolved == "" || len(bp.mixed) > 0 || len(cp.mixed) > 0 {
		if bp.resolved == "" || cp.resolved == "" {
			side := "either arm"
			if bp.resolved != "" {
				side = "the candidate"
			} else if cp.resolved != "" {
				side = "the baseline"
			}
			why := "no server log"
			if bp.logged || cp.logged {
				why = "the server log does not name it"
			}
			what := "resolved backend"
			if declared != model.PathAttention {
				what = "the " + string(declared) + " path"
			}
			causes = append(causes, Cause{model.PathUnverified, fmt.Sprintf("%s unknown for %s (%s): attach the server's startup log", what, side, why)})
		}
		return causes
	}
	changed := bp.resolved != cp.resolved
	rec.Path.Changed = &changed
	if cp.target != "" {
		hit := cp.target == cp.resolved
		rec.Path.TargetHit = &hit
		if declared != model.PathAttention {
			hit = strings.EqualFold(cp.target, cp.resolved)
			rec.Path.TargetHit = &hit
		}
		if !hit {
			reason := fmt.Sprintf("candidate asked for %s but resolved to %s", cp.target, cp.resolved)
			if cp.fallback != nil {
				reason += fmt.Sprintf(" (line %d: %s)", cp.fallback.N, cp.fallback.Text)
			}
			causes = append(causes, Cause{model.TargetNotHit, reason})
		}
	}
	if !changed {
		reason := fmt.Sprintf("both arms resolved to %s", cp.resolved)
		if faster {
			reason += ": the gain comes from elsewhere"
		}
		causes = append(causes, Cause{model.PathUnchanged, reason})
	}
	return causes
}
