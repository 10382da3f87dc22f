package model

import "strings"

// TargetVar is the environment variable that picks vLLM's attention backend; an environment
// dump that prints it states the target when the server log is silent (METHOD.md rule 3).
const TargetVar = "VLLM_ATTENTION_BACKEND"

// TargetDump is the source of a target an environment dump printed (TargetVar).
const TargetDump TargetSource = "environment dump"

// Target is the backend a run asked for and where that is said.
type Target struct {
	Backend string `json:"backend"`
	// From is "bundle.yaml", "server log: flag", or the dump's line:
	// "VLLM_ATTENTION_BACKEND=FLASHINFER from env/collect_env.txt line 41".
	From string `json:"from"`
}

// TargetClaim is one file's word on a run's target: a server log's (with how the server was
// asked: flag, env, default) or the TargetVar a dump printed (Source TargetDump, with the
// dump's file and line).
type TargetClaim struct {
	Backend string       `json:"backend"`
	Source  TargetSource `json:"source,omitempty"`
	File    string       `json:"-"`
	Line    int          `json:"line,omitempty"`
}

func (c TargetClaim) from() string {
	if c.Source == TargetDump {
		at := Fact{File: c.File, Line: c.Line}.Source()
		if at == "" {
			at = "an environment dump"
		}
		return TargetVar + "=" + c.Backend + " from " + at
	}
	if c.Source == "" {
		return "server log"
	}
	return "server log: " + string(c.Source)
}

// TargetOf decides a run's target backend, the one place every view asks (compare, runs,
// show, the Run view): bundle.yaml's path.target_backend, else a flag or variable a server log
// saw, else the TargetVar an environment dump printed (the log silent on it), else the
// platform default the log's era implies.
func TargetOf(m Manifest, claims []TargetClaim) Target {
	if t := m.String("path", "target_backend"); t != "" {
		return Target{Backend: strings.ToUpper(t), From: string(TargetManifest)}
	}
	for _, pass := range []func(TargetSource) bool{
		func(s TargetSource) bool { return s != TargetDump && s != TargetDefault },
		func(s TargetSource) bool { return s == TargetDump },
		func(s TargetSource) bool { return s == TargetDefault },
	} {
		for _, c := range claims {
			if c.Backend != "" && pass(c.Source) {
				return Target{Backend: c.Backend, From: c.from()}
			}
		}
	}
	return Target{}
}

// TargetClaims are what a run's server logs and environment dumps say of its target.
func TargetClaims(logs []*LogEvidence, fp Fingerprint) []TargetClaim {
	var out []TargetClaim
	for _, l := range logs {
		if l != nil && l.TargetBackend != "" {
			out = append(out, TargetClaim{Backend: l.TargetBackend, Source: l.TargetSource})
		}
	}
	if c, ok := fp.TargetClaim(); ok {
		out = append(out, c)
	}
	return out
}

// TargetClaim is the TargetVar the fingerprint's dumps printed, if any.
func (fp Fingerprint) TargetClaim() (TargetClaim, bool) {
	v, ok := fp.Var(TargetVar)
	if !ok || strings.TrimSpace(v.Value) == "" {
		return TargetClaim{}, false
	}
	return TargetClaim{Backend: strings.ToUpper(strings.TrimSpace(v.Value)), Source: TargetDump, File: fp.VarFile(v.Name), Line: v.Line}, true
}
