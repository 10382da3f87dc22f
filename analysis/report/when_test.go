package report

import (
	"testing"
	"time"
)

// Stored times read in the analyst's zone with the zone named; a time without a zone is left
// in none; what is no time is kept.
func TestWhen(t *testing.T) {
	was := time.Local
	time.Local = time.FixedZone("CET", 3600)
	defer func() { time.Local = was }()
	for _, tc := range []struct{ in, want string }{
		{"2026-11-19T02:12:30Z", "2026-11-19 03:12 CET"},
		{"2026-11-19T02:12:30.123456Z", "2026-11-19 03:12 CET"},
		{"2026-11-19T10:12:30+08:00", "2026-11-19 03:12 CET"},
		{"2026-11-09T02:06:00", "2026-11-09 02:06"},
		{"2026-11-09 02:06:00", "2026-11-09 02:06"},
		{"20250326-213319", "20250326-213319"},
		{"", ""},
	} {
		if got := When(tc.in); got != tc.want {
			t.Errorf("When(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 load points"}, {1, "1 load point"}, {2, "2 load points"}} {
		if got := Count(tc.n, "load point", "load points"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
