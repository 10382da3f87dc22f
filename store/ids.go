package store

import "fmt"

// Ids are never reused: a run, file, comparison or annotation id once handed out names that
// row for good, even after it is deleted, so a saved comparison or a note that names a
// deleted run never comes to point at another. SQLite keeps its AUTOINCREMENT counters in
// sqlite_sequence, PostgreSQL in the identity sequences; a copy between libraries carries
// each table's high-water mark, not only its rows.

// identityTables are the tables whose ids the library hands out.
var identityTables = []string{"source_files", "manifests", "runs", "comparisons", "annotations"}

// highWater returns the largest id a table has handed out: its counter, or its largest id
// where that is larger (a library copied in by an older benchlens).
func highWater(q querier, d *dialect, table string) (int64, error) {
	counter := fmt.Sprintf(`(SELECT seq FROM sqlite_sequence WHERE name = '%s')`, table)
	if d.postgres {
		counter = fmt.Sprintf(`pg_sequence_last_value(pg_get_serial_sequence('%s', 'id')::regclass)`, table)
	}
	var hw int64
	err := q.QueryRow(fmt.Sprintf(`SELECT %s(coalesce(%s, 0), coalesce((SELECT max(id) FROM %s), 0))`,
		map[bool]string{false: "max", true: "greatest"}[d.postgres], counter, table)).Scan(&hw)
	return hw, err
}

// setHighWater makes a table hand out ids above hw from now on.
func setHighWater(tx *txn, table string, hw int64) error {
	if hw <= 0 {
		return nil
	}
	if tx.d.postgres {
		_, err := tx.Exec(`SELECT setval(pg_get_serial_sequence(?, 'id'), ?, true)`, table, hw)
		return err
	}
	if _, err := tx.Exec(`DELETE FROM sqlite_sequence WHERE name = ?`, table); err != nil {
		return err
	}
	_, err := tx.Exec(`INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)`, table, hw)
	return err
}
