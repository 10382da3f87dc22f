package report

import (
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Every status, cause code, check state and warning code of the record, and every key of the catalog, has
// words in every language: a code added to model without its words fails here.
func TestEveryCodeHasWords(t *testing.T) {
	var keys []string
	for _, s := range model.Statuses {
		keys = append(keys, StatusWords(s).Key)
	}
	for _, c := range model.CauseCodes {
		keys = append(keys, CauseWords(c).Key)
	}
	for _, c := range model.CheckStates {
		keys = append(keys, CheckWords(c).Key)
	}
	for _, c := range model.WarningCodes {
		keys = append(keys, WarningWords(model.Warning{Code: c}).Key)
	}
	for k := range catalog {
		keys = append(keys, k)
	}
	for _, k := range keys {
		w, ok := catalog[k]
		if !ok {
			t.Errorf("%q has no words", k)
			continue
		}
		for _, l := range Langs {
			if w[l] == "" {
				t.Errorf("%q has no words in language %d", k, l)
			}
		}
	}
}

// A cause code is worded per language, the code kept beside its words.
func TestCauseWordsPerLanguage(t *testing.T) {
	for _, tc := range []struct {
		code   model.CauseCode
		en, zh string
	}{
		{model.PathContradicted, "kernels contradict the log's backend (path_contradicted)", "内核与日志所述后端矛盾（path_contradicted）"},
		{model.LoadDependent, "holds at some load points only (load_dependent)", "仅在部分负载点成立（load_dependent）"},
		{model.LoadDrift, "load drifted (load_drift)", "负载漂移（load_drift）"},
	} {
		if got := CauseLabel(tc.code).In(English); got != tc.en {
			t.Errorf("%s: %q, want %q", tc.code, got, tc.en)
		}
		if got := CauseLabel(tc.code).In(Chinese); got != tc.zh {
			t.Errorf("%s: %q, want %q", tc.code, got, tc.zh)
		}
	}
}

// Every checklist hint (compare.HintKeys) and the SLO check's has words in every language, and
// a hint's arguments are worded with it: no English sentence is matched to translate it.
func TestEveryHintHasWords(t *testing.T) {
	for _, k := range append(append([]string{}, compare.HintKeys...), SLOHintKeys...) {
		w, ok := catalog[k]
		if !ok {
			t.Errorf("the hint %q has no words", k)
			continue
		}
		for _, l := range Langs {
			if w[l] == "" {
				t.Errorf("the hint %q has no words in language %d", k, l)
			}
		}
	}
	for _, tc := range []struct {
		h      model.Hint
		en, zh string
	}{
		{model.Hint{Key: compare.HintMoreRepeats, Args: []string{"4", "baseline"}}, "record 4 more repeat(s) of the baseline", "为基线再记录 4 次重复"},
		{model.Hint{Key: compare.HintServerLog}, "attach each run's server log so the resolved backend can be read", "附上每次运行的服务器日志，以便读出实际使用的后端"},
		{model.Hint{Key: compare.HintWriteInto, Args: []string{"workload.seed"}}, "write workload.seed into bundle.yaml", "把 workload.seed 写入 bundle.yaml"},
	} {
		if got := HintWords(tc.h).In(English); got != tc.en || got != tc.h.English() {
			t.Errorf("%q in English: %q, want %q", tc.h.Key, got, tc.en)
		}
		if got := HintWords(tc.h).In(Chinese); got != tc.zh {
			t.Errorf("%q in Chinese: %q, want %q", tc.h.Key, got, tc.zh)
		}
	}
}

// The checklist of a real comparison gives its hints as data, and their English is the
// record's hint line.
func TestChecklistHintsAreData(t *testing.T) {
	rec := sweepEntry(t).Record
	rec.Measurement.Repeats = [2]int{1, 1}
	n := 0
	for _, c := range rec.Checklist() {
		if c.Hint == "" {
			continue
		}
		n++
		if len(c.Hints) == 0 || model.HintsEnglish(c.Hints) != c.Hint || HintsWords(c.Hints).In(English) != c.Hint {
			t.Errorf("%s: hint %q, data %+v", c.Name, c.Hint, c.Hints)
		}
		for _, h := range c.Hints {
			if _, ok := catalog[h.Key]; !ok {
				t.Errorf("%s: the hint %q has no words", c.Name, h.Key)
			}
		}
	}
	if n == 0 {
		t.Fatal("no hints")
	}
}

// A warning is worded from its code per language, its English the same as the record's text
// beside the code, an arm among its arguments worded too.
func TestWarningWordsPerLanguage(t *testing.T) {
	for _, c := range model.WarningCodes {
		if en := catalog[warningKey(c)][English]; en != c.EnglishFormat() {
			t.Errorf("%s: English %q, the code's own %q", c, en, c.EnglishFormat())
		}
	}
	for _, tc := range []struct {
		w      model.Warning
		en, zh string
	}{
		{model.Warn(model.WarnImplausible, "ttft mean 0 ms"), "implausible values: ttft mean 0 ms", "数值不可能来自测量：ttft mean 0 ms"},
		{model.Warn(model.WarnRunSampled, "candidate", 7, 46, 100, "--output-sampling"),
			"candidate run 7: per-request records are a sample (46 of 100 successful requests; --output-sampling); the tool's statistics are used",
			"候选运行 7：逐请求记录只是样本（成功请求 100 个中的 46 个；--output-sampling）；使用工具的统计"},
		{model.Note("a reader's own words"), "a reader's own words", "a reader's own words"},
	} {
		if got := WarningWords(tc.w).In(English); got != tc.en || got != tc.w.English() {
			t.Errorf("%s in English: %q, want %q", tc.w.Code, got, tc.en)
		}
		if got := WarningWords(tc.w).In(Chinese); got != tc.zh {
			t.Errorf("%s in Chinese: %q, want %q", tc.w.Code, got, tc.zh)
		}
	}
}
