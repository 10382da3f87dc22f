package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A damaged library is saved the way SQLite's .recover saves one: what still reads is read
// row by row into a new library, each table walked by rowid so that a damaged page costs the
// rows on it and no more, and what did not read is said, table by table. Indexes are not
// read (the new library rebuilds them), so damage confined to an index loses nothing.

// Span is a range of rowids (for runs, files, comparisons and annotations: their ids), both
// ends included; To is math.MaxInt64 when the damage runs to the table's end. In a table of
// a run's, file's or comparison's rows, Of names whose rows they were, as far as the rows
// read on either side say (the parent ids before and after).
type Span struct {
	From int64    `json:"from"`
	To   int64    `json:"to"`
	Of   [2]int64 `json:"of,omitempty"`
}

func (sp Span) String() string {
	var s string
	switch {
	case sp.From == sp.To:
		s = strconv.FormatInt(sp.From, 10)
	case sp.To == math.MaxInt64:
		s = fmt.Sprintf("%d on", sp.From)
	default:
		s = fmt.Sprintf("%d-%d", sp.From, sp.To)
	}
	return s
}

// parentColumn names, per table of rows that belong to a run, file or comparison, the column
// holding its id and what it is.
var parentColumn = map[string][2]string{
	"requests": {"run_id", "run"}, "run_files": {"run_id", "run"}, "file_chunks": {"file_id", "file"},
	"evidence": {"file_id", "file"}, "annotations": {"comparison_id", "comparison"},
}

// of says whose rows a span held: "of run 12", "of runs 12-14", "" when unknown.
func (sp Span) of(table string) string {
	p, ok := parentColumn[table]
	lo, hi := sp.Of[0], sp.Of[1]
	switch {
	case !ok || lo == 0 && hi == 0:
		return ""
	case lo == 0:
		return fmt.Sprintf(" (up to %s %d)", p[1], hi)
	case hi == 0:
		return fmt.Sprintf(" (from %s %d on)", p[1], lo)
	}
	if lo == hi {
		return fmt.Sprintf(" (of %s %d)", p[1], lo)
	}
	return fmt.Sprintf(" (of %ss %d-%d)", p[1], lo, hi)
}

// TableDamage is what of one table did not read, or was left out of a rescue.
type TableDamage struct {
	Table      string `json:"table"`
	Read       int64  `json:"rows_read"`
	Unreadable []Span `json:"unreadable_rowids,omitempty"` // rowid ranges whose rows could not be read
	Whole      string `json:"unreadable,omitempty"`        // the table did not read at all: why
	Orphaned   int64  `json:"rows_left_out,omitempty"`     // rescue: rows read whose parent row was lost
}

// Lost reports whether anything of the table is missing.
func (d TableDamage) Lost() bool { return len(d.Unreadable) > 0 || d.Whole != "" || d.Orphaned > 0 }

func (d TableDamage) String() string {
	var parts []string
	what := "rows"
	if isIDTable(d.Table) {
		what = "ids"
	}
	if d.Whole != "" {
		parts = append(parts, "does not read ("+d.Whole+")")
	}
	if len(d.Unreadable) > 0 {
		spans := make([]string, len(d.Unreadable))
		for i, sp := range d.Unreadable {
			spans[i] = sp.String() + sp.of(d.Table)
		}
		parts = append(parts, fmt.Sprintf("%s %s unreadable", what, strings.Join(spans, ", ")))
	}
	if d.Orphaned > 0 {
		parts = append(parts, fmt.Sprintf("%d rows left out, their run, file or comparison lost", d.Orphaned))
	}
	return fmt.Sprintf("%s: %s (%d rows read)", d.Table, strings.Join(parts, "; "), d.Read)
}

func isIDTable(t string) bool {
	for _, x := range identityTables {
		if x == t {
			return true
		}
	}
	return false
}

// walkTable reads every row of a table that still reads, in rowid order, handing each to
// row (rowid first, then the table's columns as named in cols). Rows it cannot read are
// returned as spans; err is an error other than damage.
func walkTable(db *sql.DB, table string, row func(cols []string, vals []any) error) (d TableDamage, err error) {
	d.Table = table
	// Each span notes the parent id of the row read before it and of the row read after.
	parent, pending := int64(0), false
	seen := func(cols []string, vals []any) {
		if p, ok := parentColumn[table]; ok {
			for i, c := range cols {
				if c == p[0] {
					parent, _ = vals[i].(int64)
				}
			}
		}
		if pending {
			d.Unreadable[len(d.Unreadable)-1].Of[1] = parent
			pending = false
		}
	}
	lose := func(sp Span) {
		if n := len(d.Unreadable); pending && n > 0 && d.Unreadable[n-1].To+1 == sp.From {
			d.Unreadable[n-1].To = sp.To // adjacent: one span
			return
		}
		sp.Of[0] = parent
		d.Unreadable = append(d.Unreadable, sp)
		pending = true
	}
	inner := row
	row = func(cols []string, vals []any) error {
		seen(cols, vals)
		return inner(cols, vals)
	}
	const batch = 512
	// from is the next rowid to read. Every query seeks to it with >=: a seek for "> last"
	// lands on last's page, which may be the damaged one.
	from, started := int64(math.MinInt64), false
	advance := func(rowid int64) bool { // false past the largest rowid
		from, started = rowid+1, true
		return rowid < math.MaxInt64
	}
	for {
		more := true
		n, rerr := readBatch(db, table, "rowid >= ?", from, batch, func(cols []string, vals []any) error {
			more = advance(vals[0].(int64))
			d.Read++
			return row(cols, vals)
		})
		switch {
		case rerr == nil && (n < batch || !more):
			return d, nil
		case rerr == nil:
			continue
		case !isCorrupt(rerr):
			return d, rerr
		}
		// The next row's place: found, its content may be what is damaged.
		next, ok, serr := seekRowid(db, table, "rowid >= ?", from)
		switch {
		case serr == nil && !ok:
			if !started {
				d.Whole = firstLine(rerr.Error())
			}
			return d, nil
		case serr == nil:
			if _, rerr := readBatch(db, table, "rowid = ?", next, 1, func(cols []string, vals []any) error {
				d.Read++
				return row(cols, vals)
			}); rerr != nil {
				if !isCorrupt(rerr) {
					return d, rerr
				}
				lose(Span{From: next, To: next})
			}
			if !advance(next) {
				return d, nil
			}
			continue
		case !isCorrupt(serr):
			return d, serr
		}
		// The tree is damaged on the way there: find the first rowid past the damage that a
		// seek reaches, doubling the stride, then halving back.
		if !started {
			from = 1 // the library's rowids start at 1
		}
		lo, hi, found := from, int64(0), false
		for stride := int64(1); ; stride *= 2 {
			probe := from + stride
			if probe < from || stride <= 0 { // past the largest rowid
				break
			}
			if _, _, perr := seekRowid(db, table, "rowid >= ?", probe); perr == nil {
				hi, found = probe, true
				break
			} else if !isCorrupt(perr) {
				return d, perr
			}
			lo = probe
		}
		if !found {
			lose(Span{From: from, To: math.MaxInt64})
			return d, nil
		}
		for hi-lo > 1 {
			mid := lo + (hi-lo)/2
			if _, _, perr := seekRowid(db, table, "rowid >= ?", mid); perr == nil {
				hi = mid
			} else if !isCorrupt(perr) {
				return d, perr
			} else {
				lo = mid
			}
		}
		next, ok, serr = seekRowid(db, table, "rowid >= ?", hi)
		if serr != nil {
			return d, serr
		}
		if !ok {
			lose(Span{From: from, To: math.MaxInt64})
			return d, nil
		}
		lose(Span{From: from, To: next - 1})
		from, started = next, true
	}
}

// readBatch reads up to n rows where cond holds for arg, in rowid order.
func readBatch(db *sql.DB, table, cond string, arg int64, n int, row func(cols []string, vals []any) error) (int, error) {
	rows, err := db.Query(fmt.Sprintf(`SELECT rowid, * FROM %s WHERE %s ORDER BY rowid LIMIT %d`, table, cond, n), arg)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, err
	}
	read := 0
	for rows.Next() {
		vals, err := scanAny(rows, len(cols))
		if err != nil {
			return read, err
		}
		if err := row(cols, vals); err != nil {
			return read, err
		}
		read++
	}
	return read, rows.Err()
}

// seekRowid finds the first rowid where cond holds for arg, reading no row's content.
func seekRowid(db *sql.DB, table, cond string, arg int64) (int64, bool, error) {
	var id int64
	err := db.QueryRow(fmt.Sprintf(`SELECT rowid FROM %s WHERE %s ORDER BY rowid LIMIT 1`, table, cond), arg).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	return id, err == nil, err
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// Damage walks every table of the library and returns what does not read; none for a team
// library or a whole one.
func (s *Store) Damage() ([]TableDamage, error) {
	if s.db.d.postgres {
		return nil, nil
	}
	var out []TableDamage
	for _, t := range append(append([]string(nil), copied...), "file_claims") {
		d, err := walkTable(s.db.DB, t, func([]string, []any) error { return nil })
		if err != nil {
			return out, fmt.Errorf("reading %s: %w", t, err)
		}
		if d.Lost() {
			out = append(out, d)
		}
	}
	return out, nil
}

// Rescue is what a backup of a damaged library saved and lost.
type Rescue struct {
	Lost  []TableDamage `json:"lost"`  // tables with rows that did not read or were left out
	Check CheckReport   `json:"check"` // the copy's own check: runs without result, files missing bytes, ...
}

func (r Rescue) String() string {
	var lines []string
	for _, d := range r.Lost {
		lines = append(lines, "lost: "+d.String())
	}
	if len(r.Lost) == 0 {
		lines = append(lines, "every row read (the damage was in indexes or free pages, rebuilt in the copy)")
	}
	if !r.Check.OK() {
		for _, l := range strings.Split(r.Check.String(), "\n") {
			lines = append(lines, "in the copy: "+l)
		}
	}
	return strings.Join(lines, "\n")
}

// rescueInto copies what reads of the library into a new library file at path (empty,
// already created), and says what was lost.
func (s *Store) rescueInto(ctx context.Context, path string) (*Rescue, error) {
	dst, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer dst.Close()
	tx, err := dst.db.beginForeignKeysOff() // a child may have lost its parent: sorted out below
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	r := &Rescue{}
	damage := map[string]*TableDamage{}
	for _, t := range copied {
		var stmt *sql.Stmt
		d, err := walkTable(s.db.DB, t, func(cols []string, vals []any) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			if stmt == nil {
				names := cols[1:] // rowid first
				var err error
				if stmt, err = tx.Prepare(`INSERT INTO ` + t + ` (` + strings.Join(names, ", ") + `) VALUES (` +
					strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ") + `)`); err != nil {
					return err
				}
			}
			_, err := stmt.Exec(vals[1:]...)
			return err
		})
		if stmt != nil {
			stmt.Close()
		}
		if err != nil {
			return nil, fmt.Errorf("rescuing %s: %w", t, err)
		}
		damage[t] = &d
	}
	// A run whose shared manifest was lost keeps its numbers, without a manifest.
	if _, err := tx.Exec(`UPDATE runs SET manifest_id = NULL, manifest = 'null' WHERE manifest_id IS NOT NULL
		AND NOT EXISTS (SELECT 1 FROM manifests m WHERE m.id = runs.manifest_id)`); err != nil {
		return nil, err
	}
	// Rows whose parent was lost are left out, counted: a run's requests without the run.
	for {
		broken, err := column[string](tx, `SELECT "table" || ' ' || rowid FROM pragma_foreign_key_check`)
		if err != nil {
			return nil, err
		}
		if len(broken) == 0 {
			break
		}
		for _, b := range broken {
			t, rowid, _ := strings.Cut(b, " ")
			if _, err := tx.Exec(`DELETE FROM `+t+` WHERE rowid = ?`, rowid); err != nil {
				return nil, err
			}
			damage[t].Orphaned++
		}
	}
	for _, t := range identityTables {
		hw, err := highWater(s.db, s.db.d, t)
		if err != nil {
			continue // unreadable counters: the copy's own largest ids stand
		}
		if err := setHighWater(tx, t, hw); err != nil {
			return nil, err
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, err
	}
	for _, t := range copied {
		if damage[t].Lost() {
			r.Lost = append(r.Lost, *damage[t])
		}
	}
	if r.Check, err = dst.Check(); err != nil {
		return nil, err
	}
	return r, nil
}

// fullCheck runs SQLite's quick check over the whole library, with no time budget: a backup
// reads every page anyway.
func (s *Store) fullCheck(ctx context.Context) error {
	if s.db.d.postgres {
		return nil
	}
	return s.pageCheck(ctx)
}
