package model

import (
	"fmt"
	"strings"
)

// Hint is a "next time" hint of the evidence checklist as data: Key is its English wording, a
// format whose %s take Args in order, and the front ends word it per language from the key
// (analysis/report); the record keeps its English text beside it.
type Hint struct {
	Key  string   `json:"key" yaml:"key"`
	Args []string `json:"args,omitempty" yaml:"args,omitempty"`
}

// English is the hint in English: the key with its arguments.
func (h Hint) English() string {
	if len(h.Args) == 0 {
		return h.Key
	}
	args := make([]any, len(h.Args))
	for i, a := range h.Args {
		args[i] = a
	}
	return fmt.Sprintf(h.Key, args...)
}

// HintsEnglish is hints as one English line, "; " between them.
func HintsEnglish(hs []Hint) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = h.English()
	}
	return strings.Join(parts, "; ")
}
