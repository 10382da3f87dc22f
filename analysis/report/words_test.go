package report

import (
	"testing"

	"benchlens/analysis/compare"
	"benchlens/model"
)

// Every status, cause code and check state of the record, and every key of the catalog, has
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
