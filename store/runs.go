package store

import (
	"database/sql"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"benchlens/model"
)

// Attached is one file of a run being stored, with what it says when it is evidence (a
// log, utilisation or profiler trace read at import): stored in the run's transaction, so
// no stored run lists a file whose reading was lost.
type Attached struct {
	File     *model.SourceFile
	Role     model.FileRole
	Evidence *model.Evidence
	// Packed, if set, is the file's bytes compressed ahead on another core (Pack): stored as
	// they are, File.Data no longer needed.
	Packed []byte
}

// ErrExists is returned by AddRun for a run the library already holds.
var ErrExists = errors.New("already in the library")

// NewRun is a run to store.
type NewRun struct {
	Run         *model.Run
	Fingerprint string     // identifies the run's content
	Index       int        // position of the run in its result file
	Files       []Attached // the result file first
	// Ready, if set, is called after the requests are written and before the run row is:
	// recomputation can run meanwhile on another core, and encode the row there (EncodeRun),
	// which Ready returns; nil has the batch encode it.
	Ready func() *RunColumns
}

// AddRun stores a run with its files and requests in one transaction: all of it or nothing.
// A run whose fingerprint is already stored, or that was read from the same files (the same
// result file's SHA-256 and index, the same parts), returns that run's id and ErrExists, and
// nothing changes but the fingerprint of a run found by its files (see adoptFingerprint).
// Many runs share a transaction through a Batch.
func (s *Store) AddRun(n NewRun) (id int64, err error) {
	b := s.NewBatch(BatchLimits{Runs: 1})
	b.Add(n, func(i int64, e error) { id, err = i, e })
	b.Flush()
	return id, err
}

// addRun writes a run in tx (within its savepoint). An error other than ErrExists leaves
// writes the caller rolls back to the savepoint; ErrExists leaves none but the adopted
// fingerprint.
func (s *Store) addRun(tx *txn, n NewRun, now string) (int64, error) {
	run, fingerprint, index, files := n.Run, n.Fingerprint, n.Index, n.Files
	if l := NormLabel(run.Label); l != run.Label {
		run.Label = l // written only when it changes: Ready's core may be reading the run
	}
	if len(files) == 0 || files[0].Role != model.FileResult {
		return 0, errors.New("AddRun: the first file must be the result")
	}
	if id, err := runWithFingerprint(tx, fingerprint); err != nil || id != 0 {
		if err == nil {
			err = ErrExists
		}
		return id, err
	}
	var parts []string
	for _, f := range files {
		if f.Role == model.FilePart {
			parts = append(parts, f.File.SHA256)
		}
	}
	existing, err := runFromFiles(tx, files[0].File.SHA256, index, parts)
	if err != nil {
		return 0, err
	}
	if existing != 0 {
		if err := adoptFingerprint(tx, existing, fingerprint); err != nil {
			return existing, errors.Join(ErrExists, err) // undone, and the run stays as it was
		}
		return existing, ErrExists
	}
	ids := make([]int64, len(files))
	for i, f := range files {
		if ids[i], err = putFile(tx, f.File, f.Packed, now); err != nil {
			return 0, fmt.Errorf("storing %s: %w", f.File.Name, err)
		}
	}
	// The run's id is chosen up front so its requests can be written before its row, which
	// waits for the recomputed statistics; foreign keys are checked at commit (the batch
	// defers them).
	runID := tx.nextRun // SQLite: one writer, and the batch's last run took the id before
	if runID == 0 {
		if err := tx.QueryRow(tx.d.nextRunID()).Scan(&runID); err != nil {
			return 0, err
		}
	}
	if err := insertRequests(tx, runID, run.Requests); err != nil {
		return 0, err
	}
	var cols *RunColumns
	if n.Ready != nil {
		cols = n.Ready()
	}
	if cols == nil {
		if cols, err = EncodeRun(run); err != nil {
			return 0, err
		}
	}
	manifestID, err := putManifest(tx, cols.manifest)
	if err != nil {
		return 0, err
	}
	// The unique fingerprint decides between writers importing the same run at once: the
	// second waits for the first and inserts nothing.
	_, err = tx.insertID(`INSERT INTO runs (id, fingerprint, source_id, source_index, bundle, label, role, tool, model, date,
			header, summary, recomputed, extra, manifest, manifest_id, imported_at, listing, measured, point)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?, ?, ?, ?, ?) ON CONFLICT (fingerprint) DO NOTHING`,
		runID, fingerprint, ids[0], index, run.Bundle, run.Label, string(run.Role), run.Tool, run.Model, run.Date,
		cols.header, cols.summary, cols.recomputed, cols.extra, manifestID, now, cols.listing, cols.measured, cols.point)
	if errors.Is(err, sql.ErrNoRows) {
		if err := tx.rollbackTo(); err != nil {
			return 0, err
		}
		existing, err := runWithFingerprint(tx, fingerprint)
		if err != nil {
			return 0, err
		}
		return existing, ErrExists
	}
	if err != nil {
		return 0, err
	}
	if !tx.d.postgres {
		tx.nextRun = runID + 1 // AUTOINCREMENT's counter is at runID now
	}
	for i, f := range files {
		if _, err := linkFile(tx, runID, ids[i], f.Role); err != nil {
			return 0, err
		}
		if err := putEvidence(tx, ids[i], f.Evidence, false); err != nil {
			return 0, fmt.Errorf("storing what %s says: %w", f.File.Name, err)
		}
	}
	return runID, nil
}

// AttachFiles links to a stored run the attachments it lacks (a profiler trace or a log put
// beside a result imported before), in one transaction, and returns their names. The run's
// result, parts and manifest made it what it is and are never changed here: the parts and
// manifests it lacks (a companion or bundle.yaml put beside it later) are returned in
// notApplied, left out.
func (s *Store) AttachFiles(runID int64, files []Attached) (added []string, notApplied []Attached, err error) {
	err = s.again(func() (err error) {
		added, notApplied, err = s.attachFiles(runID, files)
		return err
	})
	return added, notApplied, err
}

func (s *Store) attachFiles(runID int64, files []Attached) (added []string, notApplied []Attached, err error) {
	if err := s.Writable(); err != nil {
		return nil, nil, err
	}
	now := time.Now().UTC().Format(time.RFC3339)
	tx, err := s.begin()
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback() // no-op after Commit
	for _, f := range files {
		if f.Role == model.FilePart || f.File.Kind == model.KindManifest {
			var n int
			if err := tx.QueryRow(`SELECT count(*) FROM run_files rf JOIN source_files sf ON sf.id = rf.source_id
				WHERE rf.run_id = ? AND sf.sha256 = ?`, runID, f.File.SHA256).Scan(&n); err != nil {
				return nil, nil, err
			}
			if n == 0 {
				notApplied = append(notApplied, f)
			}
			continue
		}
		if f.Role != model.FileAttachment {
			continue
		}
		id, err := putFile(tx, f.File, f.Packed, now)
		if err != nil {
			return nil, nil, fmt.Errorf("storing %s: %w", f.File.Name, err)
		}
		linked, err := linkFile(tx, runID, id, f.Role)
		if err != nil {
			return nil, nil, err
		}
		// What an attachment says joins it, also one linked before and never read (an older
		// benchlens stored readings only once the whole import was done).
		if err := putEvidence(tx, id, f.Evidence, false); err != nil {
			return nil, nil, fmt.Errorf("storing what %s says: %w", f.File.Name, err)
		}
		if linked {
			added = append(added, f.File.Name)
		}
	}
	return added, notApplied, s.commit(tx)
}

// linkFile records that a run has a stored file in a role, and whether the link is new.
func linkFile(tx *txn, runID, fileID int64, role model.FileRole) (bool, error) {
	res, err := tx.Exec(`INSERT INTO run_files (run_id, source_id, role) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, runID, fileID, string(role))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

// runWithFingerprint returns the id of the stored run with a fingerprint, or 0.
func runWithFingerprint(tx *txn, fingerprint string) (int64, error) {
	var id int64
	err := tx.QueryRow(`SELECT id FROM runs WHERE fingerprint = ?`, fingerprint).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return id, err
}

func insertRequests(tx *txn, runID int64, reqs []model.Request) error {
	if len(reqs) == 0 {
		return nil
	}
	if tx.d.postgres {
		return copyRequests(tx.session, runID, reqs)
	}
	// Many rows to a statement: a statement per request cost a run of 20 requests more than
	// the rest of its writes together (each a trip through database/sql and cgo).
	gaps := 0
	for i := range reqs {
		gaps += len(reqs[i].ITL)
	}
	packed := make([]byte, 0, 4*gaps)
	args := make([]any, 0, len(requestColumns)*min(len(reqs), requestRows))
	for from := 0; from < len(reqs); from += requestRows {
		to := min(from+requestRows, len(reqs))
		stmt, err := tx.prepared(requestsInsert(to - from))
		if err != nil {
			return err
		}
		args = args[:0]
		for i := from; i < to; i++ {
			r := &reqs[i]
			var itl []byte
			if r.ITL != nil {
				start := len(packed)
				packed = PackGaps(packed, r.ITL)
				itl = packed[start:len(packed):len(packed)]
			}
			args = append(args, runID, i, nullInt(r.InputLen), nullInt(r.OutputLen), nullFloat(r.TTFT),
				nullFloat(r.TPOT), nullFloat(r.Latency), nullFloat(r.Start), r.Error, itl)
		}
		if _, err := stmt.Exec(args...); err != nil {
			return fmt.Errorf("requests %d-%d: %w", from, to-1, err)
		}
	}
	return nil
}

// requestColumns are the requests table's columns in the order both writers give them.
var requestColumns = []string{"run_id", "idx", "input_len", "output_len", "ttft", "tpot", "latency", "start", "error", "itl"}

// requestRows is the most requests one SQLite INSERT writes: 10,240 variables, under the
// 32,766 SQLite allows. In a transaction SQLite keeps a statement journal for an INSERT of
// many rows (the pages there before it that it changes, to undo it alone), a temporary file
// once it passes 64 KiB: a page of each b-tree and of pointer maps a statement, whatever its
// rows. At 64 rows a statement it copied 104 MB aside while the 112 MB result's 20 MB of
// requests were written.
const requestRows = 1024

// requestsInsert is the INSERT of n requests (n ≤ requestRows); a full one is made once.
func requestsInsert(n int) string {
	if n == requestRows {
		return fullRequestsInsert
	}
	return requestsInsertOf(n)
}

var fullRequestsInsert = requestsInsertOf(requestRows)

func requestsInsertOf(n int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(requestColumns)), ", ") + ")"
	return `INSERT INTO requests (` + strings.Join(requestColumns, ", ") + `) VALUES ` +
		strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}

// copyRequests writes a run's requests to PostgreSQL with COPY, in the transaction the
// session holds: a statement per request would cost a round trip each.
func copyRequests(session *sql.Conn, runID int64, reqs []model.Request) error {
	i := -1
	return pgCopy(session, "requests", requestColumns, pgx.CopyFromFunc(func() ([]any, error) {
		if i++; i == len(reqs) {
			return nil, nil
		}
		r := &reqs[i]
		var itl []byte
		if r.ITL != nil {
			itl = PackGaps(make([]byte, 0, 4*len(r.ITL)), r.ITL)
		}
		return []any{runID, i, nullInt(r.InputLen), nullInt(r.OutputLen), nullFloat(r.TTFT),
			nullFloat(r.TPOT), nullFloat(r.Latency), nullFloat(r.Start), r.Error, itl}, nil
	}))
}

// PackGaps appends gaps as little-endian float32: 4 bytes a gap keeps microsecond detail
// for gaps up to minutes, and 5 million gaps fit in 20 MB.
func PackGaps(dst []byte, gaps []float64) []byte {
	for _, g := range gaps {
		dst = binary.LittleEndian.AppendUint32(dst, math.Float32bits(float32(g)))
	}
	return dst
}

// UnpackGaps reverses PackGaps.
func UnpackGaps(b []byte) []float64 {
	out := make([]float64, len(b)/4)
	for i := range out {
		out[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return out
}

func nullInt(n int) any {
	if n < 0 {
		return nil
	}
	return n
}

// nullFloat is f as a requests column holds it: NULL for an unknown or infinite time, and a
// negative zero as zero on either engine (SQLite keeps no sign of an integral REAL).
func nullFloat(f float64) any {
	if f = storedFloat(f); math.IsNaN(f) {
		return nil
	}
	return f
}

func storedFloat(f float64) float64 {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return math.NaN()
	case f == 0:
		return 0
	}
	return f
}

// AsStored is a copy of reqs as the requests table gives them back (Requests,
// RunsWithRequests): an unknown length -1, an unknown or infinite time NaN, a negative zero
// zero, every gap rounded to PackGaps' float32. Statistics computed at import from these are
// the floats a compare computes from the requests it reads.
func AsStored(reqs []model.Request) []model.Request {
	gaps := 0
	for i := range reqs {
		gaps += len(reqs[i].ITL)
	}
	all := make([]float64, 0, gaps)
	out := make([]model.Request, len(reqs))
	for i, q := range reqs {
		q.InputLen, q.OutputLen = max(q.InputLen, -1), max(q.OutputLen, -1)
		q.TTFT, q.TPOT, q.Latency, q.Start = storedFloat(q.TTFT), storedFloat(q.TPOT), storedFloat(q.Latency), storedFloat(q.Start)
		if q.ITL != nil {
			start := len(all)
			for _, g := range q.ITL {
				all = append(all, float64(float32(g)))
			}
			q.ITL = all[start:len(all):len(all)]
		}
		out[i] = q
	}
	return out
}

// RunColumns are a run's columns, as its row stores them (EncodeRun).
type RunColumns struct {
	header, summary, recomputed, extra, manifest string
	listing                                      []byte // packed from header, summary, recomputed and point (listingOf)
	measured                                     []byte // run.Measured packed (packMeasured), nil for none
	point                                        []byte // model.PointOf(run) packed (pointOf)
}

// EncodeRun splits a run into its JSON columns: the tool's numbers, ours, the leftovers and
// the manifest each in their own column, everything else in header, its label as the library
// stores it (NormLabel). It only reads the run.
func EncodeRun(run *model.Run) (*RunColumns, error) {
	h := *run
	h.Summary, h.Recomputed, h.Extra, h.Manifest, h.Requests = nil, nil, nil, nil, nil
	h.Label = NormLabel(h.Label)
	c := &RunColumns{}
	var err error
	enc := func(v any) string {
		if err != nil {
			return ""
		}
		var b []byte
		b, err = json.Marshal(v)
		return string(b)
	}
	c.header = enc(h)
	c.summary = enc(orEmpty(run.Summary))
	c.recomputed = enc(orEmpty(run.Recomputed))
	c.extra = enc(run.Extra)
	c.manifest = enc(run.Manifest)
	c.measured = packMeasured(run.Measured)
	c.point = pointOf(run)
	if err == nil {
		c.listing, err = listingOf(c.header, c.summary, c.recomputed, c.point)
	}
	return c, err
}

func orEmpty(m map[string]model.Stats) map[string]model.Stats {
	if m == nil {
		return map[string]model.Stats{}
	}
	return m
}
