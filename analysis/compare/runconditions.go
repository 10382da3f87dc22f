package compare

// RunConditions is what one run says of its conditions, as the record's fields name them
// (engine_version, driver_version, hardware_sku, machine, target_backend, resolved_backend,
// quantization …): the files' value, else the manifest's; a field the run does not state is
// absent. A series' timeline (analysis/history) lists where these change from run to run,
// without comparing every pair of runs as arms. Load fields (the workload) are left out: a
// series is split by load point already.
func RunConditions(rd RunData) map[string]string {
	out := map[string]string{}
	for _, f := range conditionFields {
		if f.load {
			continue
		}
		r := f.value(rd)
		if v := first(r.observed, r.declared); v != "" {
			out[f.name()] = v
		}
	}
	p := pathOf(Arm{Runs: []RunData{rd}}, "run")
	if p.target != "" {
		out["target_backend"] = p.target
	}
	if p.resolved != "" {
		out["resolved_backend"] = p.resolved
	}
	sources := engineSources(rd)
	for _, e := range engineSettings {
		if v := e.value(sources); v != "" {
			out[e.name] = v
		}
	}
	return out
}
