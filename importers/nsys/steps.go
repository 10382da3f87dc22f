package nsys

import (
	"database/sql"
	"fmt"
	"regexp"
	"sort"
	"strconv"

	"benchlens/model"
)

// stepWin is one step's host window (ns), from its NVTX range.
type stepWin struct {
	n    int64
	s, e int64
}

// stepName is an NVTX range that names a step and its number: ProfilerStep#5, step 7,
// decode_step_3, iter_2, iteration 10.
var stepName = regexp.MustCompile(`(?i)(?:^|[^a-z0-9])(?:profilerstep#|step|iteration|iter)[ _#:-]?(\d+)$`)

// maxRangeNames bounds the distinct range names counted while looking for a repeated range.
const maxRangeNames = 10000

// NVTX range event types: push/pop and start/end ranges (NVTX and NVTXT).
const rangeTypes = `(59, 60, 70, 71)`

// steps reads the NVTX ranges that mark steps: those named with a step number; else the range
// name repeated most (at least twice), numbered in time order, with a warning naming it.
func (r *reader) steps() error {
	if !r.s.has(tNVTX, "start", "end", "eventType") {
		return nil
	}
	text := "e.text"
	join := ""
	switch {
	case r.s.has(tNVTX, "text", "textId") && r.s.has("StringIds", "id", "value"):
		text, join = "COALESCE(e.text, s.value)", " LEFT JOIN StringIds s ON s.id = e.textId"
	case !r.s.has(tNVTX, "text"):
		return nil
	}
	q := `SELECT ` + text + `, e.start, e."end" FROM ` + tNVTX + ` e` + join +
		` WHERE e.eventType IN ` + rangeTypes + ` AND e."end" IS NOT NULL AND e."end" > e.start`
	byNum := map[int64]*stepWin{}
	count := map[string]int{}
	err := r.s.each(q, func(rows *sql.Rows) error {
		var name sql.NullString
		var s, e int64
		if err := rows.Scan(&name, &s, &e); err != nil {
			return err
		}
		if m := stepName.FindStringSubmatch(name.String); m != nil {
			var n int64
			fmt.Sscan(m[1], &n)
			w := byNum[n]
			if w == nil {
				byNum[n] = &stepWin{n: n, s: s, e: e}
				return nil
			}
			w.s, w.e = min(w.s, s), max(w.e, e)
			return nil
		}
		if _, ok := count[name.String]; ok || len(count) < maxRangeNames {
			count[name.String]++
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", tNVTX, err)
	}
	for _, w := range byNum {
		r.stepWins = append(r.stepWins, *w)
	}
	if len(r.stepWins) == 0 {
		best, n := "", 1
		for name, c := range count {
			if c > n || c == n && name < best && c > 1 {
				best, n = name, c
			}
		}
		if best == "" {
			return nil
		}
		i := int64(0)
		err := r.s.each(q+` AND `+text+` = ? ORDER BY e.start`, func(rows *sql.Rows) error {
			var name sql.NullString
			var s, e int64
			if err := rows.Scan(&name, &s, &e); err != nil {
				return err
			}
			r.stepWins = append(r.stepWins, stepWin{n: i, s: s, e: e})
			i++
			return nil
		}, best)
		if err != nil {
			return fmt.Errorf("%s: %w", tNVTX, err)
		}
		r.warnings = append(r.warnings, model.Warn(model.WarnNsysStepRanges, len(r.stepWins), strconv.Quote(best)))
	}
	sort.Slice(r.stepWins, func(i, j int) bool { return r.stepWins[i].n < r.stepWins[j].n })
	return nil
}

// window is the span analysed: the steps (without the first and last of three or more), else
// nothing (the caller takes the device activity's span).
func (r *reader) window() (s, e int64, steps int, ok bool) {
	ws := r.stepWins
	if len(ws) >= 3 {
		ws = ws[1 : len(ws)-1]
	}
	for i, w := range ws {
		if i == 0 || w.s < s {
			s = w.s
		}
		if i == 0 || w.e > e {
			e = w.e
		}
	}
	return s, e, len(ws), len(ws) > 0
}
