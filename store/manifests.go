package store

import (
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"

	"github.com/mattn/go-sqlite3"
)

// A run's manifest (the merged bundle.yaml, as JSON) is stored once however many runs share
// it: a 1 MB manifest over 20 runs took 20 MB when each run row held its own copy. The
// manifests table keys each distinct text by its SHA-256 (schema 10); a run names its row,
// and the runs' own manifest column is left empty ('' once shared, read through
// manifestSQL). A manifest goes when its last run does.

// manifestSQL reads a run's manifest, alias r, from its shared row (or its own column, which
// no run since schema 10 fills).
const manifestSQL = `coalesce((SELECT m.content FROM manifests m WHERE m.id = r.manifest_id), r.manifest)`

// textSHA256 is the hex SHA-256 of a text, the key of a manifest row.
func textSHA256(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// registerFunctions gives every SQLite connection benchlens_sha256(text), which migration 10
// keys the manifests already stored with (PostgreSQL has sha256 of its own).
func registerFunctions(c *sqlite3.SQLiteConn) error {
	return c.RegisterFunc("benchlens_sha256", textSHA256, true)
}

// putManifest stores a manifest's text once and returns its row's id.
func putManifest(tx *txn, text string) (int64, error) {
	if id, ok := tx.manifests[text]; ok {
		return id, nil // the batch's runs mostly share one
	}
	id, err := storeManifest(tx, text)
	if err == nil {
		if tx.manifests == nil {
			tx.manifests = map[string]int64{}
		}
		tx.manifests[text] = id
	}
	return id, err
}

func storeManifest(tx *txn, text string) (int64, error) {
	key := textSHA256(text)
	for attempt := 0; ; attempt++ {
		var id int64
		err := tx.QueryRow(`SELECT id FROM manifests WHERE sha256 = ?`, key).Scan(&id)
		if !errors.Is(err, sql.ErrNoRows) {
			return id, err
		}
		// As for files: of two writers storing the same manifest at once, the second waits
		// for the first and takes its row.
		id, err = tx.insertID(`INSERT INTO manifests (sha256, content) VALUES (?, ?) ON CONFLICT (sha256) DO NOTHING`, key, text)
		if errors.Is(err, sql.ErrNoRows) && attempt == 0 {
			continue
		}
		return id, err
	}
}

// dropUnusedManifests removes the manifests no run names any more.
func dropUnusedManifests(tx *txn) error {
	_, err := tx.Exec(`DELETE FROM manifests WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.manifest_id = manifests.id)`)
	return err
}
