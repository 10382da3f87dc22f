package report

import (
	"testing"

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
