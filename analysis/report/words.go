package report

import (
	"fmt"
	"strings"
)

// The words of the record live here, once, in every language the front ends speak: the app,
// the text report, the Markdown and the workbook word a status, a cause, a check or a hint
// from this catalog, and the record keeps its codes. A text not worded yet is Words (a key
// and its arguments); it is worded at the edge with In.

// Lang is a language the words are written in.
type Lang int

// Languages.
const (
	English Lang = iota
	Chinese      // Simplified
)

// Langs lists every language; a test finds a key without words in one of them.
var Langs = []Lang{English, Chinese}

// LangOf is the language of a locale name ("zh-Hans-CN", "zh_CN.UTF-8"); English otherwise.
func LangOf(locale string) Lang {
	if strings.HasPrefix(strings.ToLower(locale), "zh") {
		return Chinese
	}
	return English
}

// Words is a text in no language yet: a key of the catalog and the arguments its wording
// takes (an argument that is Words or a []Words is worded in the same language first).
type Words struct {
	Key  string
	Args []any
}

// Say is Words with a key and its arguments.
func Say(key string, args ...any) Words { return Words{Key: key, Args: args} }

// Lit is a text that is the same in every language: a figure, a name, a field.
func Lit(s string) Words { return Words{Key: "%s", Args: []any{s}} }

// In words the text in a language: the key's wording with the arguments; a key the catalog
// lacks is its own wording (English), so a new text shows until it is worded.
func (w Words) In(l Lang) string {
	format := w.Key
	if ws, ok := catalog[w.Key]; ok && ws[l] != "" {
		format = ws[l]
	}
	if len(w.Args) == 0 {
		return format
	}
	args := make([]any, len(w.Args))
	for i, a := range w.Args {
		switch a := a.(type) {
		case Words:
			args[i] = a.In(l)
		case []Words:
			args[i] = joinIn(a, l, ", ")
		case Clauses:
			args[i] = joinIn(a, l, "; ")
		default:
			args[i] = a
		}
	}
	return fmt.Sprintf(format, args...)
}

// String is the English wording.
func (w Words) String() string { return w.In(English) }

// Clauses are texts an argument lists with "; " (a []Words lists them with ", "): each
// clause may itself hold a list.
type Clauses []Words

// joinIn words each text and joins them with sep (", " reads "、" and "; " "；" in Chinese).
func joinIn(ws []Words, l Lang, sep string) string {
	if l == Chinese {
		sep = map[string]string{", ": "、", "; ": "；"}[sep]
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.In(l)
	}
	return strings.Join(parts, sep)
}

// wording is a key's text per language, in Langs' order.
type wording [2]string

// catalog holds every key's wording; the tables of each kind of text (statuses, causes,
// checks, hints, the headline's phrases) add theirs in init.
var catalog = map[string]wording{
	"%s": {"%s", "%s"},
	// punctuation between a sentence's parts
	": ":    {": ", "："},
	"; ":    {"; ", "；"},
	", ":    {", ", "，"},
	" (":    {" (", "（"},
	")":     {")", "）"},
	" — ":   {" — ", " — "},
	" · ":   {" · ", " · "},
	" / ":   {" / ", " / "},
	" ":     {" ", " "},
	"%s %s": {"%s %s", "%s %s"},
}

// addWords puts a table of wordings into the catalog; a key given twice is a mistake.
func addWords(table map[string]wording) {
	for k, w := range table {
		if _, dup := catalog[k]; dup {
			panic("report: words for " + k + " given twice")
		}
		catalog[k] = w
	}
}
