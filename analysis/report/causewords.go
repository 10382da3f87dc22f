package report

import (
	"slices"
	"strings"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// The words of the record's closed sets (model.Statuses, model.CauseCodes, the check states)
// and of a cause's short form in a headline, en and zh. A code the record gains needs its row
// here: a test fails without it.

// StatusWords is a verdict in plain words: "gain established".
func StatusWords(s model.Status) Words { return Say("status." + string(s)) }

// CauseWords is a cause code in words: "load drifted".
func CauseWords(c model.CauseCode) Words { return Say("cause." + string(c)) }

// CauseLabel is a cause code in words with the code beside it: "load drifted (load_drift)".
func CauseLabel(c model.CauseCode) Words { return Say("%s (%s)", CauseWords(c), string(c)) }

// CheckWords is a check state in words: "ok", "warning", "failed".
func CheckWords(s model.CheckState) Words { return Say("check." + string(s)) }

var statusWords = map[string]wording{
	"status.established":     {"gain established", "收益成立"},
	"status.offset":          {"gain offset by overhead", "收益被开销抵消"},
	"status.zero":            {"zero gain", "收益为零"},
	"status.not_established": {"gain not established", "收益不成立"},
}

var causeWords = map[string]wording{
	"cause.environment_differs":      {"environment differs", "环境不同"},
	"cause.load_drift":               {"load drifted", "负载漂移"},
	"cause.conditions_unverified":    {"conditions unverified", "条件未验证"},
	"cause.measurement_uncontrolled": {"measurement uncontrolled", "测量未受控"},
	"cause.target_not_hit":           {"target backend not hit", "未命中目标后端"},
	"cause.path_unchanged":           {"path unchanged", "路径未变"},
	"cause.path_unverified":          {"path unverified", "路径未验证"},
	"cause.mixed_paths":              {"mixed paths", "路径混杂"},
	"cause.path_contradicted":        {"kernels contradict the log's backend", "内核与日志所述后端矛盾"},
	"cause.offset_by_overhead":       {"offset by overhead", "被开销抵消"},
	"cause.bottleneck_not_in_stage":  {"bottleneck not in the stage", "瓶颈不在该阶段"},
	"cause.load_dependent":           {"holds at some load points only", "仅在部分负载点成立"},
	"%s (%s)":                        {"%s (%s)", "%s（%s）"},
}

var checkWords = map[string]wording{
	"check.ok":   {"ok", "通过"},
	"check.warn": {"warning", "警告"},
	"check.fail": {"failed", "未通过"},
}

// headlineWords are the headline's phrases.
var headlineWords = map[string]wording{
	"the candidate":                  {"the candidate", "候选"},
	"%s faster":                      {"%s faster", "%s 更快"},
	"%s slower":                      {"%s slower", "%s 更慢"},
	"%s changed":                     {"%s changed", "%s 有变化"},
	"%s faster at every point":       {"%s faster at every point", "%s 在每个负载点都更快"},
	"%s slower at every point":       {"%s slower at every point", "%s 在每个负载点都更慢"},
	"%s changed at every point":      {"%s changed at every point", "%s 在每个负载点都有变化"},
	"at %s":                          {"at %s", "（%s）"},
	"at %d of %d points":             {"at %d of %d points", "（%d/%d 个负载点）"},
	"at all %d points":               {"at all %d points", "（全部 %d 个负载点）"},
	"established at %s":              {"established at %s", "在 %s 成立"},
	"offset at %s":                   {"offset at %s", "在 %s 被开销抵消"},
	"zero at %s":                     {"zero at %s", "在 %s 收益为零"},
	"not established at %s":          {"not established at %s", "在 %s 不成立"},
	"no stage compared":              {"no stage compared", "没有可比较的阶段"},
	"no stage changed significantly": {"no stage changed significantly", "没有阶段显著变化"},
	"no stage changed significantly at any point": {"no stage changed significantly at any point", "任何负载点都没有阶段显著变化"},
	"no significant change":                       {"no significant change", "无显著变化"},
	"no significant change at %s":                 {"no significant change at %s", "%s 无显著变化"},
	"not attributable: %s":                        {"not attributable: %s", "无法归因：%s"},
	"offset: %s":                                  {"offset: %s", "被抵消：%s"},
	"%s tie at p%s, the floor for %d+%d runs: the largest change is named": {
		"%s tie at p%s, the floor for %d+%d runs: the largest change is named",
		"%s 的 p%s 相同，这是 %d+%d 次运行能得到的最小 p：取变化最大者"},
	"%s tie at p%s: the largest change is named": {"%s tie at p%s: the largest change is named", "%s 的 p%s 相同：取变化最大者"},
	"SLO attainment %.0f → %.0f %% at %s, p%s":   {"SLO attainment %.0f → %.0f %% at %s, p%s", "SLO 达标率 %.0f → %.0f %%（%s），p%s"},
	// a cause's short form
	"%s differs":           {"%s differs", "%s 不同"},
	"%s not recorded":      {"%s not recorded", "%s 未记录"},
	"%d run per arm":       {"%d run per arm", "每组 %d 次运行"},
	"%d runs per arm":      {"%d runs per arm", "每组 %d 次运行"},
	"%d+%d runs":           {"%d+%d runs", "%d+%d 次运行"},
	"no warm-up recorded":  {"no warm-up recorded", "未记录预热"},
	"no server log":        {"no server log", "没有服务端日志"},
	"overhead grew":        {"overhead grew", "开销增加"},
	"no common load point": {"no common load point", "没有共同的负载点"},
	"%s to %s":             {"%s to %s", "%s 至 %s"},
}

func init() {
	for _, t := range []map[string]wording{statusWords, causeWords, checkWords, headlineWords} {
		addWords(t)
	}
}

// causeShorts are causes as a headline says why a change does not count, each code once, in
// the order given: "model_name differs", "1 run per arm", "no server log". A cause that a
// sweep's headline already says (load_dependent) is left out.
func causeShorts(rec compare.Record, causes []compare.Cause) Clauses {
	var out Clauses
	var seen []model.CauseCode
	for _, c := range causes {
		if slices.Contains(seen, c.Code) || c.Code == model.LoadDependent {
			continue
		}
		seen = append(seen, c.Code)
		out = append(out, causeShort(rec, c))
	}
	return out
}

// causeShort is one cause with the arguments the record gives it.
func causeShort(rec compare.Record, c compare.Cause) Words {
	fields := func(keep func(compare.Condition) bool) []Words {
		var out []Words
		for _, f := range rec.Conditions() {
			if keep(f) {
				out = append(out, Lit(f.Name[strings.LastIndex(f.Name, ".")+1:]))
			}
		}
		return out
	}
	workload := func(f compare.Condition) bool { return strings.HasPrefix(f.Name, "workload.") }
	switch c.Code {
	case model.EnvironmentDiffers:
		if fs := fields(func(f compare.Condition) bool {
			return !workload(f) && f.State == model.ConditionDiffers && !f.Declared
		}); len(fs) > 0 {
			return Say("%s differs", fs)
		}
	case model.LoadDrift:
		if len(rec.LoadPoints) == 0 && len(rec.Unmatched) > 0 {
			return Say("no common load point")
		}
		if fs := fields(func(f compare.Condition) bool {
			return workload(f) && f.State == model.ConditionDiffers && !f.Declared
		}); len(fs) > 0 {
			return Say("%s differs", fs)
		}
	case model.ConditionsUnverified:
		if fs := fields(func(f compare.Condition) bool { return f.State == model.ConditionUnknown && f.Required }); len(fs) > 0 {
			return Say("%s not recorded", fs)
		}
	case model.MeasurementUncontrolled:
		nb, nc := repeats(rec)
		if nb < rec.Settings.MinRepeats || nc < rec.Settings.MinRepeats {
			switch {
			case nb != nc:
				return Say("%d+%d runs", nb, nc)
			case nb == 1:
				return Say("%d run per arm", nb)
			}
			return Say("%d runs per arm", nb)
		}
		if strings.Contains(c.Reason, "warm-up") {
			return Say("no warm-up recorded")
		}
	case model.PathUnverified:
		if rec.Path.ResolvedBackend.Baseline == "" && rec.Path.ResolvedBackend.Candidate == "" || strings.Contains(c.Reason, "no server log") {
			return Say("no server log")
		}
	case model.OffsetByOverhead:
		return Say("overhead grew")
	}
	return CauseWords(c.Code)
}

// repeats is the fewest runs per arm at a load point: of the sweep's points, else the arms'.
func repeats(rec compare.Record) (int, int) {
	if len(rec.LoadPoints) == 0 {
		return len(rec.Arms.Baseline.Runs), len(rec.Arms.Candidate.Runs)
	}
	nb, nc := rec.LoadPoints[0].Repeats.Baseline, rec.LoadPoints[0].Repeats.Candidate
	for _, p := range rec.LoadPoints {
		nb, nc = min(nb, p.Repeats.Baseline), min(nc, p.Repeats.Candidate)
	}
	return nb, nc
}
