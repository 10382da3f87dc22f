package nsys

import (
	"bytes"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/sqlitero"
	"benchlens/importers/trace"
	"benchlens/model"
)

// sqliteMagic starts every SQLite database file.
var sqliteMagic = sqlitero.Magic

// IsExport sniffs an Nsight Systems SQLite export: an SQLite file whose schema, on its first
// pages, names the StringIds table every export has (or one of its metadata or CUPTI tables).
// benchmark_data.db of EvalScope and AISBench's numpy store are SQLite files without them.
func IsExport(f *format.File) bool {
	if !bytes.HasPrefix(f.Data, sqliteMagic) {
		return false
	}
	head := f.Data[:min(len(f.Data), 64<<10)]
	for _, t := range []string{"StringIds", "META_DATA_EXPORT", "EXPORT_META_DATA", "CUPTI_ACTIVITY_KIND_"} {
		if bytes.Contains(head, []byte(t)) {
			return true
		}
	}
	return false
}

// ReadExport reads an export into trace evidence. The bytes are written to a private
// temporary file (SQLite reads files, not memory) which is opened read-only and immutable, so
// neither it nor the original is ever written, and removed at once.
func ReadExport(f *format.File) (format.Parsed, error) {
	path, cleanup, err := sqlitero.Copy(f)
	if err != nil {
		return format.Parsed{}, err
	}
	defer cleanup()
	ev, facts, warnings, err := readDB(path)
	if err != nil {
		return format.Parsed{Warnings: warnings}, err
	}
	return format.Parsed{Evidence: &model.Evidence{Trace: ev, Format: exportFormat, Facts: facts}, Warnings: warnings}, nil
}

// exportFormat is the evidence's format; which Nsight Systems wrote it is in the trace's Tool.
const exportFormat = "Nsight Systems SQLite export"

// open opens an export on disk read-only and immutable: no lock, no journal, no write.
func open(path string) (*sql.DB, error) {
	return sqlitero.OpenPath(path, 6) // the runtime calls, one stream per table of device activity, a lookup
}

// ErrNotExport is wrapped by the error for an SQLite file that is no Nsight Systems export.
var ErrNotExport = errors.New("an SQLite file, but not an Nsight Systems export (no META_DATA_EXPORT / EXPORT_META_DATA or CUPTI_ACTIVITY_KIND_* table)")

// schema is what the export holds: its tables and their columns.
type schema struct {
	db     *sql.DB
	tables map[string]map[string]bool
}

func readSchema(db *sql.DB) (*schema, error) {
	s := &schema{db: db, tables: map[string]map[string]bool{}}
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'table'`)
	if err != nil {
		return nil, fmt.Errorf("not a readable SQLite file: %w", err)
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		names = append(names, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("not a readable SQLite file: %w", err)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "ENUM_") {
			s.tables[n] = map[string]bool{}
			continue
		}
		cols := map[string]bool{}
		r, err := db.Query(`SELECT name FROM pragma_table_info(?)`, n)
		if err != nil {
			return nil, err
		}
		for r.Next() {
			var c string
			if err := r.Scan(&c); err == nil {
				cols[c] = true
			}
		}
		r.Close()
		s.tables[n] = cols
	}
	return s, nil
}

func (s *schema) has(table string, cols ...string) bool {
	t, ok := s.tables[table]
	if !ok {
		return false
	}
	for _, c := range cols {
		if !t[c] {
			return false
		}
	}
	return true
}

// each runs a query and calls fn for every row, streamed.
func (s *schema) each(query string, fn func(*sql.Rows) error, args ...any) error {
	rows, err := s.db.Query(query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Tables of an export.
const (
	tKernel  = "CUPTI_ACTIVITY_KIND_KERNEL"
	tMemcpy  = "CUPTI_ACTIVITY_KIND_MEMCPY"
	tMemset  = "CUPTI_ACTIVITY_KIND_MEMSET"
	tRuntime = "CUPTI_ACTIVITY_KIND_RUNTIME"
	tSync    = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
	tNVTX    = "NVTX_EVENTS"
	tGPU     = "TARGET_INFO_GPU"
	tEnv     = "TARGET_INFO_SYSTEM_ENV"
)

// readDB reads the export at path.
func readDB(path string) (*model.TraceEvidence, *model.Facts, []model.Warning, error) {
	db, err := open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	defer db.Close()
	s, err := readSchema(db)
	if err != nil {
		return nil, nil, nil, err
	}
	meta, err := s.meta()
	if err != nil {
		return nil, nil, nil, err
	}
	cupti := false
	for t := range s.tables {
		cupti = cupti || strings.HasPrefix(t, "CUPTI_ACTIVITY_KIND_")
	}
	if meta == nil && !cupti {
		return nil, nil, nil, ErrNotExport
	}
	r := &reader{s: s, tot: trace.NewTotals()}
	ev := &model.TraceEvidence{Source: "nsys-sqlite", Tool: exportedBy(meta), BusyFraction: model.Unknown}
	r.dupCalls = schemaMajor(meta) < 3
	// The runtime calls are read on another core while the device activity is.
	var calls map[int64]*agg
	var callsErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		calls, callsErr = r.callTotals()
	}()
	err = r.gpus()
	if err == nil {
		err = r.steps()
	}
	if err == nil {
		err = r.devicePass(ev)
	}
	<-done
	if err == nil {
		err = callsErr
	}
	if err == nil {
		err = r.addCalls(calls)
	}
	if err != nil {
		return nil, nil, r.warnings, err
	}
	ev.Steps = len(r.stepWins)
	r.tot.Fill(ev, true)
	ev.Device = r.deviceLabel()
	facts, err := r.facts()
	if err != nil {
		return nil, nil, r.warnings, err
	}
	return ev, facts, r.warnings, nil
}

// meta reads the export's key/value metadata: META_DATA_EXPORT (3.x) or EXPORT_META_DATA (2.x).
func (s *schema) meta() (map[string]string, error) {
	for _, t := range []string{"META_DATA_EXPORT", "EXPORT_META_DATA"} {
		if !s.has(t, "name", "value") {
			continue
		}
		m := map[string]string{}
		err := s.each(`SELECT name, value FROM `+t, func(r *sql.Rows) error {
			var k, v sql.NullString
			if err := r.Scan(&k, &v); err != nil {
				return err
			}
			if _, dup := m[k.String]; !dup {
				m[k.String] = v.String
			}
			return nil
		})
		return m, err
	}
	return nil, nil
}

// schemaMajor is the export schema's major version: 2 lists every runtime call twice; 0 when
// the export does not say (then treated as 2, the careful way).
func schemaMajor(meta map[string]string) int {
	v := meta["EXPORT_SCHEMA_VERSION_MAJOR"]
	if v == "" {
		v, _, _ = strings.Cut(meta["EXPORT_SCHEMA_VERSION"], ".")
	}
	n, _ := strconv.Atoi(strings.TrimSpace(v))
	return n
}

// exportedBy says which Nsight Systems wrote the export and in which schema:
// "Nsight Systems 2024.5.1.113, export schema 3.13.2".
func exportedBy(meta map[string]string) string {
	if meta == nil {
		return "Nsight Systems (no export metadata)"
	}
	return fmt.Sprintf("Nsight Systems %s, export schema %s", orUnknown(meta["EXPORT_PRODUCT_VERSION"]), orUnknown(meta["EXPORT_SCHEMA_VERSION"]))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// ReadExportFile reads an export from a file on disk, for tools and benchmarks.
func ReadExportFile(path string) (*model.TraceEvidence, *model.Facts, []model.Warning, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, nil, err
	}
	head := make([]byte, len(sqliteMagic))
	_, err = io.ReadFull(f, head)
	f.Close()
	if err != nil || !bytes.Equal(head, sqliteMagic) {
		return nil, nil, nil, fmt.Errorf("%s: not an SQLite file", path)
	}
	return readDB(path)
}
