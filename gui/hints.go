package gui

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"fyne.io/fyne/v2/lang"
)

// hintPatterns are the checklist's "next time" hints that carry names or numbers: the English
// pattern, and the translation key whose %s take the captured parts in order.
var hintPatterns = []struct {
	re  *regexp.Regexp
	key string
}{
	{regexp.MustCompile(`^repeat both arms with the same (.+)$`), "repeat both arms with the same %s"},
	{regexp.MustCompile(`^if (.+) is the change under test, declare it in the candidate's bundle\.yaml: (.+)$`), "if %s is the change under test, declare it in the candidate's bundle.yaml: %s"},
	{regexp.MustCompile(`^write (.+) into bundle\.yaml$`), "write %s into bundle.yaml"},
	{regexp.MustCompile(`^record (\d+) more repeat\(s\) of the (.+)$`), "record %s more repeat(s) of the %s"},
	{regexp.MustCompile(`^with (\d+) and (\d+) runs the smallest possible p is (\S+) >= alpha (\S+): no difference can be significant$`), "with %s and %s runs the smallest possible p is %s >= alpha %s: no difference can be significant"},
	{regexp.MustCompile(`^record at least (\d+) runs per arm$`), "record at least %s runs per arm"},
}

// hintText translates a checklist hint (compare.Check.Hint), part by part ("; "): fixed
// hints by their text, the others by hintPatterns; what is unknown stays as it is.
func hintText(h string) string {
	parts := strings.Split(h, "; ")
	for i, p := range parts {
		parts[i] = hintPart(p)
	}
	return strings.Join(parts, lang.L("; "))
}

func hintPart(p string) string {
	for _, hp := range hintPatterns {
		if m := hp.re.FindStringSubmatch(p); m != nil {
			args := make([]any, len(m)-1)
			for i, a := range m[1:] {
				args[i] = tr(a) // "baseline", "candidate"
			}
			if t := tr(hp.key); t != hp.key {
				return fmt.Sprintf(t, args...)
			}
			return p
		}
	}
	return tr(p)
}

var (
	keysOnce sync.Once
	keys     map[string]string
)

// tr is lang.L for text that may have no translation (a hint's names): it stays as it is,
// without the translation failure lang.L logs.
func tr(s string) string {
	keysOnce.Do(func() {
		data, err := translations.ReadFile("translations/benchlens.en.json")
		if err == nil {
			json.Unmarshal(data, &keys)
		}
	})
	if _, ok := keys[s]; !ok {
		return s
	}
	return lang.L(s)
}
