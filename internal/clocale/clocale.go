// Package clocale lets the app start cleanly under the C / POSIX locale (containers, CI, ssh
// sessions): locale libraries reject "C" as a language tag and complain at start-up, so the
// variables that name it are cleared and the app falls back to English.
//
// Import it for its side effect before Fyne: packages initialise in import-path order when
// nothing orders them otherwise, and "benchlens/…" comes before "fyne.io/…".
package clocale

import (
	"os"
	"strings"
)

func init() {
	for _, env := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := os.Getenv(env)
		if v == "" {
			continue
		}
		base := strings.ToUpper(strings.SplitN(v, ".", 2)[0])
		if base == "C" || base == "POSIX" {
			os.Unsetenv(env)
			continue
		}
		return // the first variable set names a real locale
	}
}
