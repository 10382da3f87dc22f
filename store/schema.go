package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
)

// migrations bring the schema from version i to i+1; PRAGMA user_version records where a
// library stands. Append only: a released step is never edited.
//
// A new table (or column) is a new migration at the end, written once in SQLite's words; a
// team library runs the same text rewritten for PostgreSQL (dialect.migration), so it must
// survive that rewrite:
//
//   - statements are split on ";\n" and each runs on its own (no ";" ending a line inside a
//     statement); PRAGMA statements are dropped;
//   - types are replaced as text, anywhere in a statement, comments too: INTEGER PRIMARY KEY
//     becomes an identity column, INTEGER BIGINT, BLOB BYTEA, REAL DOUBLE PRECISION (so no
//     name or comment holds those words in capitals);
//   - every "REFERENCES t(c)" (with an optional ON DELETE CASCADE) is made DEFERRABLE: AddRun
//     writes children before their parent and checks at commit;
//   - anything else SQLite-only (sqlite_sequence, json_each, AUTOINCREMENT, INSERT OR …) needs
//     the step's PostgreSQL text in pgMigrations, and PostgreSQL-only extras go in pgAfter;
//   - on PostgreSQL a step is one transaction, and queries use ? placeholders (never a ? in a
//     string literal), numbered by dialect.rebind.
//
// Then list the table in copied (copy.go, in foreign-key order: backup, copy and rescue carry
// it; a test fails until it is there), in identityTables (ids.go) when it hands out ids, and
// let Check (maintenance.go) find what it can lose. store_test's PostgreSQL cases
// (BENCHLENS_TEST_POSTGRES=required, as make test runs them) run every migration on both
// engines.
var migrations = []string{
	// 1: source files, runs, requests.
	`
CREATE TABLE source_files (
	id          INTEGER PRIMARY KEY,
	sha256      TEXT NOT NULL UNIQUE,
	name        TEXT NOT NULL,          -- path inside the bundle, as first imported
	size        INTEGER NOT NULL,
	kind        TEXT NOT NULL,          -- result, result-part, manifest, log, utilisation, trace, other
	imported_at TEXT NOT NULL
);
-- The bytes live apart from the description, so refining a file's kind never rewrites them,
-- in chunks of at most ChunkSize bytes before compression, so no file is ever held twice in
-- memory.
CREATE TABLE file_chunks (
	file_id     INTEGER NOT NULL REFERENCES source_files(id) ON DELETE CASCADE,
	seq         INTEGER NOT NULL,
	compression TEXT NOT NULL,          -- s2 (block format)
	content     BLOB NOT NULL,
	PRIMARY KEY (file_id, seq)
);
CREATE TABLE runs (
	id           INTEGER PRIMARY KEY,
	fingerprint  TEXT NOT NULL UNIQUE,  -- content identity: re-imports change nothing
	source_id    INTEGER NOT NULL REFERENCES source_files(id),
	source_index INTEGER NOT NULL,      -- position of the run in its file
	bundle       TEXT NOT NULL,
	label        TEXT NOT NULL,
	role         TEXT NOT NULL,
	tool         TEXT NOT NULL,
	model        TEXT NOT NULL,
	date         TEXT NOT NULL,
	header       TEXT NOT NULL,         -- JSON: the normalised run (tool, era, counts, throughputs)
	summary      TEXT NOT NULL,         -- JSON: the tool's own statistics, ms
	recomputed   TEXT NOT NULL,         -- JSON: statistics recomputed from per-request data, ms
	extra        TEXT NOT NULL,         -- JSON: metadata pairs and every key not understood
	manifest     TEXT NOT NULL,         -- JSON: the merged bundle.yaml
	imported_at  TEXT NOT NULL
);
CREATE INDEX runs_label ON runs(label);
CREATE TABLE run_files (
	run_id    INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	source_id INTEGER NOT NULL REFERENCES source_files(id),
	role      TEXT NOT NULL,            -- result, part, attachment
	PRIMARY KEY (run_id, source_id)
);
CREATE INDEX run_files_source ON run_files(source_id);
CREATE TABLE requests (
	run_id     INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
	idx        INTEGER NOT NULL,
	input_len  INTEGER,                 -- NULL when unknown
	output_len INTEGER,
	ttft       REAL,                    -- seconds
	tpot       REAL,                    -- seconds, as the tool recorded it
	latency    REAL,                    -- seconds
	start      REAL,                    -- seconds on the tool's clock
	error      TEXT NOT NULL,
	itl        BLOB,                    -- every gap, seconds, packed little-endian float32
	PRIMARY KEY (run_id, idx)
);
`,
	// 2: what attached files say (server logs, utilisation, profiler traces), read at import.
	`
CREATE TABLE evidence (
	file_id INTEGER PRIMARY KEY REFERENCES source_files(id) ON DELETE CASCADE,
	kind    TEXT NOT NULL,              -- log, utilisation, trace
	format  TEXT NOT NULL,
	summary TEXT NOT NULL,              -- JSON: model.EvidenceSummary, for lists
	data    TEXT NOT NULL               -- JSON: model.Evidence
);
`,
	// 3: saved comparisons, with their settings and input runs.
	`
CREATE TABLE comparisons (
	id             INTEGER PRIMARY KEY,
	created_at     TEXT NOT NULL,
	baseline       TEXT NOT NULL,       -- the selectors as given
	candidate      TEXT NOT NULL,
	baseline_runs  TEXT NOT NULL,       -- JSON array of run ids
	candidate_runs TEXT NOT NULL,
	settings       TEXT NOT NULL,       -- JSON
	status         TEXT NOT NULL,       -- the proposed verdict
	record         TEXT NOT NULL        -- JSON: the full record
);
`,
	// 4: the analyst's annotations of a comparison; every edit is a row, the newest is current.
	`
CREATE TABLE annotations (
	id              INTEGER PRIMARY KEY,
	comparison_id   INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
	at              TEXT NOT NULL,      -- RFC 3339, UTC
	author          TEXT NOT NULL,      -- the OS user
	note            TEXT NOT NULL,
	tags            TEXT NOT NULL,      -- JSON array of strings
	status_override TEXT NOT NULL,      -- '' or established | zero | offset | not_established
	override_reason TEXT NOT NULL
);
CREATE INDEX annotations_comparison ON annotations(comparison_id, id);
`,
	// 5: in-flight claims on files stored ahead of their runs, so one import's clean-up never
	// removes a file another import is about to use; the application id marks the file as ours.
	`
CREATE TABLE file_claims (
	file_id INTEGER NOT NULL REFERENCES source_files(id) ON DELETE CASCADE,
	owner   TEXT NOT NULL,              -- one import
	pid     INTEGER NOT NULL,           -- its process: a claim of a dead process is stale
	PRIMARY KEY (file_id, owner)
);
CREATE INDEX file_claims_owner ON file_claims(owner);
CREATE INDEX runs_source ON runs(source_id);
PRAGMA application_id = 1112297043;
`,
	// 6: the analysis settings of METHOD.md, one source for the command line and the app.
	`
CREATE TABLE settings (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL                 -- text, as benchlens settings prints it
);
`,
	// 7: optimistic versioning of annotations: each edit names the edit it replaces (0 for the
	// first), no two edits may replace the same one, and an edit's revision counts its
	// revisions and its replacement, so of two analysts editing the same version, the second
	// is refused rather than overwriting the first.
	`
ALTER TABLE annotations ADD COLUMN replaces INTEGER NOT NULL DEFAULT 0;
ALTER TABLE annotations ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
UPDATE annotations SET replaces = coalesce((SELECT max(p.id) FROM annotations p
	WHERE p.comparison_id = annotations.comparison_id AND p.id < annotations.id), 0);
CREATE UNIQUE INDEX annotations_version ON annotations(comparison_id, replaces);
`,
	// 8: where a claim was made and when: a library file shared between containers or
	// machines sees pids of other pid namespaces, which say nothing about their processes here.
	`
-- host: hostIdentity() of the claimer, '' before schema 8; claimed_at: RFC 3339, UTC
ALTER TABLE file_claims ADD COLUMN host TEXT NOT NULL DEFAULT '';
ALTER TABLE file_claims ADD COLUMN claimed_at TEXT NOT NULL DEFAULT '';
`,
	// 9: ids are never reused: a deleted run's id handed to the next import made a saved
	// comparison point at an unrelated run. SQLite gives the largest id again unless the
	// key is AUTOINCREMENT, which needs each table rebuilt (foreign keys are off meanwhile and
	// checked before commit, see migrateStep); a run id a saved comparison names is never
	// handed out either. PostgreSQL's identities never go back: its version of this step
	// only moves the run sequence past the ids comparisons name (pgMigrations).
	`
CREATE TABLE source_files_v9 (
	id          INTEGER PRIMARY KEY AUTOINCREMENT,
	sha256      TEXT NOT NULL UNIQUE,
	name        TEXT NOT NULL,
	size        INTEGER NOT NULL,
	kind        TEXT NOT NULL,
	imported_at TEXT NOT NULL
);
INSERT INTO source_files_v9 (id, sha256, name, size, kind, imported_at)
	SELECT id, sha256, name, size, kind, imported_at FROM source_files;
DROP TABLE source_files;
ALTER TABLE source_files_v9 RENAME TO source_files;
CREATE TABLE runs_v9 (
	id           INTEGER PRIMARY KEY AUTOINCREMENT,
	fingerprint  TEXT NOT NULL UNIQUE,
	source_id    INTEGER NOT NULL REFERENCES source_files(id),
	source_index INTEGER NOT NULL,
	bundle       TEXT NOT NULL,
	label        TEXT NOT NULL,
	role         TEXT NOT NULL,
	tool         TEXT NOT NULL,
	model        TEXT NOT NULL,
	date         TEXT NOT NULL,
	header       TEXT NOT NULL,
	summary      TEXT NOT NULL,
	recomputed   TEXT NOT NULL,
	extra        TEXT NOT NULL,
	manifest     TEXT NOT NULL,
	imported_at  TEXT NOT NULL
);
INSERT INTO runs_v9 (id, fingerprint, source_id, source_index, bundle, label, role, tool, model, date,
		header, summary, recomputed, extra, manifest, imported_at)
	SELECT id, fingerprint, source_id, source_index, bundle, label, role, tool, model, date,
		header, summary, recomputed, extra, manifest, imported_at FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v9 RENAME TO runs;
CREATE INDEX runs_label ON runs(label);
CREATE INDEX runs_source ON runs(source_id);
CREATE TABLE comparisons_v9 (
	id             INTEGER PRIMARY KEY AUTOINCREMENT,
	created_at     TEXT NOT NULL,
	baseline       TEXT NOT NULL,
	candidate      TEXT NOT NULL,
	baseline_runs  TEXT NOT NULL,
	candidate_runs TEXT NOT NULL,
	settings       TEXT NOT NULL,
	status         TEXT NOT NULL,
	record         TEXT NOT NULL
);
INSERT INTO comparisons_v9 (id, created_at, baseline, candidate, baseline_runs, candidate_runs, settings, status, record)
	SELECT id, created_at, baseline, candidate, baseline_runs, candidate_runs, settings, status, record FROM comparisons;
DROP TABLE comparisons;
ALTER TABLE comparisons_v9 RENAME TO comparisons;
CREATE TABLE annotations_v9 (
	id              INTEGER PRIMARY KEY AUTOINCREMENT,
	comparison_id   INTEGER NOT NULL REFERENCES comparisons(id) ON DELETE CASCADE,
	at              TEXT NOT NULL,
	author          TEXT NOT NULL,
	note            TEXT NOT NULL,
	tags            TEXT NOT NULL,
	status_override TEXT NOT NULL,
	override_reason TEXT NOT NULL,
	replaces        INTEGER NOT NULL DEFAULT 0,
	revision        INTEGER NOT NULL DEFAULT 0
);
INSERT INTO annotations_v9 (id, comparison_id, at, author, note, tags, status_override, override_reason, replaces, revision)
	SELECT id, comparison_id, at, author, note, tags, status_override, override_reason, replaces, revision FROM annotations;
DROP TABLE annotations;
ALTER TABLE annotations_v9 RENAME TO annotations;
CREATE INDEX annotations_comparison ON annotations(comparison_id, id);
CREATE UNIQUE INDEX annotations_version ON annotations(comparison_id, replaces);
DELETE FROM sqlite_sequence WHERE name = 'runs';
INSERT INTO sqlite_sequence (name, seq) SELECT 'runs', hw FROM (SELECT max(id) AS hw FROM (
	SELECT max(id) AS id FROM runs
	UNION ALL SELECT max(CAST(j.value AS INTEGER)) FROM comparisons, json_each(comparisons.baseline_runs) j
	UNION ALL SELECT max(CAST(j.value AS INTEGER)) FROM comparisons, json_each(comparisons.candidate_runs) j)) WHERE hw IS NOT NULL;
`,
	// 10: a manifest is stored once, however many runs share it (a 1 MB bundle.yaml over 20
	// runs took 20 MB, one copy a run): manifests holds each distinct text under its SHA-256
	// (benchlens_sha256, registered on every connection) and a run names its row; the runs'
	// own column keeps '' (see manifests.go). The run's link is no foreign key in SQLite
	// (whose one writer at a time cannot race a delete; check looks for links to nothing),
	// so an older schema can be written back in tests; PostgreSQL's is (pgMigrations).
	`
CREATE TABLE manifests (
	id      INTEGER PRIMARY KEY AUTOINCREMENT,
	sha256  TEXT NOT NULL UNIQUE,       -- of content
	content TEXT NOT NULL               -- JSON: the merged bundle.yaml
);
INSERT INTO manifests (sha256, content)
	SELECT benchlens_sha256(manifest), manifest FROM runs GROUP BY manifest ORDER BY min(id);
ALTER TABLE runs ADD COLUMN manifest_id INTEGER;
UPDATE runs SET manifest_id = (SELECT m.id FROM manifests m WHERE m.sha256 = benchlens_sha256(runs.manifest)), manifest = '';
CREATE INDEX runs_manifest ON runs(manifest_id);
`,
	// 11: warnings are data (model.Warning: a code, its arguments, its English text beside
	// them). A run's or an evidence file's warning stored as text becomes code legacy with the
	// text as its argument, which the reader matches to the code whose wording it is
	// (model.LegacyWarning), so an old run's implausible values still reach the checklist.
	// Only rows whose warnings are text are rewritten; saved comparisons keep their records as
	// saved (their text warnings are read the same way).
	`
UPDATE runs SET header = json_set(header, '$.warnings', json((SELECT json_group_array(
		CASE WHEN w.type = 'text' THEN json_object('code', 'legacy', 'args', json_array(w.value)) ELSE json(w.value) END ORDER BY w.key)
	FROM json_each(runs.header, '$.warnings') w)))
WHERE header LIKE '%"warnings":["%' AND json_valid(header) AND json_type(header, '$.warnings') = 'array';
UPDATE evidence SET data = json_set(data, '$.warnings', json((SELECT json_group_array(
		CASE WHEN w.type = 'text' THEN json_object('code', 'legacy', 'args', json_array(w.value)) ELSE json(w.value) END ORDER BY w.key)
	FROM json_each(evidence.data, '$.warnings') w)))
WHERE data LIKE '%"warnings":["%' AND json_valid(data) AND json_type(data, '$.warnings') = 'array';
`,
	// 12: a run's listing, the fields a listing shows packed at import (listingblob.go), so
	// listing 100,000 runs parses no JSON; the runs stored before get theirs packed from their
	// JSON columns by the step's Go part (migrationFills).
	`
ALTER TABLE runs ADD COLUMN listing BLOB;
`,
	// 13: listings of version 2 (with the run's phase, for History's series), packed again by
	// the step's Go part; the arms and their roles are read from an index (LabelRoles, at
	// every start of the app, read the whole table).
	`
UPDATE runs SET listing = NULL;
CREATE INDEX runs_label_role ON runs(label, role);
`,
	// 14: a chunk may be Huffman-coded (compression 'h0', see codec.go), not only S2's: a
	// detailed result's printed floats take 46 % of their bytes that way, 72 % with S2. The
	// tables do not change; the step marks the libraries an older benchlens, which could not
	// read those chunks (and check would call them missing), must refuse.
	`
UPDATE file_chunks SET compression = 's2' WHERE compression = '';
`,
	// 15: a run's measured statistics (its latencies' p50, p90 and p99 over the requests a
	// compare measures, measuredstats.go), packed at import so a compare of many runs does
	// not select over every gap of every run again. The runs stored before keep NULL: their
	// statistics are computed from their requests when compared, the same floats.
	`
ALTER TABLE runs ADD COLUMN measured BLOB;
`,
	// 16: a run's load point (point.go), PointOf of the whole run at import, so that a listing
	// shows each run's request shape (a sweep of shapes at one concurrency listed runs that
	// looked the same); the step's Go part computes it for the runs stored before from their
	// requests, and packs every listing again (version 3, with the point).
	`
ALTER TABLE runs ADD COLUMN point BLOB;
UPDATE runs SET listing = NULL;
`,
}

// migrationFills are the steps of a migration written in Go, run after its statements in the
// same transaction on either engine: what SQL cannot compute.
//
// Every run's listing is packed once, by the last step that changes its layout (15, schema
// 16): the steps before that once packed them too (11 and 12) had their packing thrown away,
// as a migration always runs on to the newest schema (a third of migrating 100,000 runs). A
// library left between the steps by a migration killed there lists its runs from their JSON,
// as a run without its listing is listed in any benchlens, and the next open packs them all.
var migrationFills = map[int]func(*txn) error{
	15: func(tx *txn) error { // schema 16: every run's point, then its listing, of version 3
		if err := fillPoints(tx); err != nil {
			return err
		}
		return fillListings(tx)
	},
}

// pgMigrations replace, for a team library, the migrations that PostgreSQL does otherwise.
var pgMigrations = map[int]string{
	8: `
SELECT setval(pg_get_serial_sequence('runs', 'id'), hw, true) FROM (SELECT greatest(
	coalesce(pg_sequence_last_value(pg_get_serial_sequence('runs', 'id')::regclass), 0),
	(SELECT coalesce(max(id), 0) FROM runs),
	(SELECT coalesce(max(v::bigint), 0) FROM comparisons, jsonb_array_elements_text(baseline_runs::jsonb) v),
	(SELECT coalesce(max(v::bigint), 0) FROM comparisons, jsonb_array_elements_text(candidate_runs::jsonb) v)) AS hw) x
WHERE hw > 0
`,
	9: `
CREATE TABLE manifests (
	id      INTEGER PRIMARY KEY,
	sha256  TEXT NOT NULL UNIQUE,
	content TEXT NOT NULL
);
INSERT INTO manifests (sha256, content)
	SELECT encode(sha256(convert_to(manifest, 'UTF8')), 'hex'), manifest FROM runs GROUP BY manifest ORDER BY min(id);
ALTER TABLE runs ADD COLUMN manifest_id INTEGER REFERENCES manifests(id);
UPDATE runs SET manifest_id = m.id, manifest = '' FROM manifests m WHERE m.sha256 = encode(sha256(convert_to(runs.manifest, 'UTF8')), 'hex');
CREATE INDEX runs_manifest ON runs(manifest_id);
`,
	10: `
UPDATE runs SET header = jsonb_set(header::jsonb, '{warnings}', (SELECT jsonb_agg(
		CASE WHEN jsonb_typeof(w) = 'string' THEN jsonb_build_object('code', 'legacy', 'args', jsonb_build_array(w)) ELSE w END ORDER BY n)
	FROM jsonb_array_elements(runs.header::jsonb -> 'warnings') WITH ORDINALITY AS x(w, n)))::text
WHERE header LIKE '%"warnings":["%' AND jsonb_typeof(header::jsonb -> 'warnings') = 'array';
UPDATE evidence SET data = jsonb_set(data::jsonb, '{warnings}', (SELECT jsonb_agg(
		CASE WHEN jsonb_typeof(w) = 'string' THEN jsonb_build_object('code', 'legacy', 'args', jsonb_build_array(w)) ELSE w END ORDER BY n)
	FROM jsonb_array_elements(evidence.data::jsonb -> 'warnings') WITH ORDINALITY AS x(w, n)))::text
WHERE data LIKE '%"warnings":["%' AND jsonb_typeof(data::jsonb -> 'warnings') = 'array';
`,
}

// ApplicationID ("BLNS") marks a benchlens library in the SQLite header.
const ApplicationID = 1112297043

// SchemaVersion is the newest schema this binary knows.
var SchemaVersion = len(migrations)

func (s *Store) migrate() error {
	version, err := s.schemaVersion(s.db)
	if err != nil {
		return fmt.Errorf("not a benchlens library (or unreadable): %w", err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("written by a newer benchlens (schema %d, this one knows %d); refusing to open it", version, SchemaVersion)
	}
	if s.db.d.postgres && version > 0 {
		if err := pgOurs(s.db, version); err != nil {
			return err
		}
	}
	if version > 0 && version < SchemaVersion {
		if !s.db.d.postgres {
			// The backup reads every page anyway: the check before the first write reads them
			// all, not cut short by its budget, and the backup does not check them again.
			s.checkOnce.Do(func() { s.damage = s.pageCheck(context.Background()) })
		}
		if err := s.Writable(); err != nil {
			return err
		}
		// A team library's migration is one transaction; its backups are the server's.
		if !s.db.d.postgres {
			if _, err := s.backupBeforeMigration(version); err != nil {
				return fmt.Errorf("backing up before upgrading schema %d: %w", version, err)
			}
		}
	}
	// The rows pointing at nothing before the migration (which check reports, and a step may
	// not add to): read once, not before each step, as each step adds none.
	var brokenBefore []string
	if !s.db.d.postgres && version > 0 && version < SchemaVersion {
		if brokenBefore, err = column[string](s.db, brokenKeys); err != nil {
			return err
		}
	}
	for v := version; v < SchemaVersion; v++ {
		if err := s.migrateStep(v, brokenBefore); err != nil {
			return err
		}
	}
	return nil
}

// querier is a connection or a transaction.
type querier interface {
	QueryRow(q string, args ...any) *sql.Row
}

// schemaVersion reads where the library stands: SQLite's user_version, PostgreSQL's
// version table (0 before the first migration).
func (s *Store) schemaVersion(q querier) (int, error) {
	var version int
	if !s.db.d.postgres {
		err := q.QueryRow(`PRAGMA user_version`).Scan(&version)
		return version, err
	}
	// The catalog is read as a table (to_regclass may answer from a cache that predates
	// another process's migration, committed while this one waited for the lock).
	var exists bool
	if err := q.QueryRow(`SELECT EXISTS (SELECT 1 FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_name = ?)`, pgVersionTable).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	err := q.QueryRow(`SELECT version FROM ` + pgVersionTable).Scan(&version)
	return version, err
}

// brokenKeys lists an SQLite library's rows pointing at nothing. Foreign keys are off during
// a migration's step: it may not add such a row (one a damaged library had before is check's
// to report, not a reason never to open).
const brokenKeys = `SELECT "table" || ' row ' || rowid || ' → ' || parent FROM pragma_foreign_key_check`

// migrateStep applies migration v → v+1 in one write transaction, unless another process
// (two imports starting on a new library) applied it first. On SQLite the step runs with
// foreign keys off, so a table it rebuilds is dropped without its rows' cascades, and with
// every foreign key checked before it commits: it leaves no row pointing at nothing but
// those of brokenBefore.
func (s *Store) migrateStep(v int, brokenBefore []string) error {
	var tx *txn
	var err error
	if s.db.d.postgres {
		tx, err = s.db.Begin()
	} else {
		tx, err = s.db.beginForeignKeysOff()
	}
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if s.db.d.postgres {
		if _, err := tx.Exec(`SELECT pg_advisory_xact_lock(?)`, ApplicationID); err != nil {
			return err
		}
	}
	current, err := s.schemaVersion(tx)
	if err != nil {
		return err
	}
	if current > v {
		return nil
	}
	// Another program's tables are looked for under the lock: outside it, a library another
	// process is creating can look like one (its version read before, its tables after).
	if current == 0 && !s.db.d.postgres {
		var tables int
		if err := tx.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&tables); err != nil {
			return fmt.Errorf("not a benchlens library: %w", err)
		}
		if tables > 0 {
			return fmt.Errorf("an SQLite file of another program (%d tables, no benchlens schema); refusing to change it", tables)
		}
	}
	if s.db.d.postgres && current == 0 {
		if err := pgForeign(tx); err != nil {
			return err
		}
		for _, q := range []string{`CREATE TABLE ` + pgVersionTable + ` (version INTEGER NOT NULL)`, `INSERT INTO ` + pgVersionTable + ` VALUES (0)`} {
			if _, err := tx.Exec(q); err != nil {
				return err
			}
		}
	}
	for _, stmt := range s.db.d.migration(v) {
		if _, err := tx.Exec(stmt); err != nil {
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
	}
	if fill := migrationFills[v]; fill != nil {
		if err := fill(tx); err != nil {
			return fmt.Errorf("migrating to schema %d: %w", v+1, err)
		}
	}
	if !s.db.d.postgres {
		broken, err := column[string](tx, brokenKeys)
		if err != nil {
			return err
		}
		if broken = slices.DeleteFunc(broken, func(b string) bool { return slices.Contains(brokenBefore, b) }); len(broken) > 0 {
			return fmt.Errorf("migrating to schema %d: it would leave rows pointing at nothing: %s", v+1, strings.Join(broken, "; "))
		}
	}
	set := fmt.Sprintf(`PRAGMA user_version = %d`, v+1)
	if s.db.d.postgres {
		set = fmt.Sprintf(`UPDATE %s SET version = %d`, pgVersionTable, v+1)
	}
	if _, err := tx.Exec(set); err != nil {
		return err
	}
	return tx.Commit()
}
