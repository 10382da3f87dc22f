package report

import (
	"fmt"
	"time"
)

// When is a stored time as the app and the command line's text show it: in the analyst's time
// zone, to the minute, with the zone ("2026-11-19 03:12 CET"). A time the file gave without a
// zone is shown as it was given, to the minute and without a zone (it names none); text that
// is no time is shown as it is. JSON keeps the stored RFC 3339 text.
func When(s string) string {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.Local().Format("2006-01-02 15:04 MST")
	}
	for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999", "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.Format("2006-01-02 15:04")
		}
	}
	return s
}

// Count is n with its noun, singular for one: "1 run", "5 runs".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
