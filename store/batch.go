package store

import (
	"errors"
	"fmt"
	"time"
)

// A Batch stores many runs in one write transaction: a run that fails is undone alone and
// the others go on, and one commit covers them all. A commit per run rewrote every page it
// touched (64 KiB each) and its checkpoints synced the file: 500 small results wrote 1.18 GB
// for a 57 MB library.
//
// A batch is written first without savepoints (SQLite copies each page a savepoint first
// touches, 64 KiB, aside: as many bytes again as the batch writes). A run that fails there
// undoes the whole transaction, and the batch is written again with a savepoint per run,
// which undoes the run alone.
//
// Runs are queued and written when the batch is full or flushed; each one's done is called
// only once its batch has committed or failed, so what an import reports is what the library
// holds. A crash loses the batch being written, never a committed one.
type Batch struct {
	s      *Store
	lim    BatchLimits
	queued []queuedRun
	bytes  int64
	since  time.Time // when the first queued run came
}

// BatchLimits bound a batch: it is written once it holds Runs runs, about Bytes bytes of
// requests and files, or its first run has waited Wait (an import's progress and another
// writer's turn are never held up longer).
type BatchLimits struct {
	Runs  int
	Bytes int64
	Wait  time.Duration
}

// DefaultBatch suits an import: a few hundred small results, or one large one, a transaction.
var DefaultBatch = BatchLimits{Runs: 500, Bytes: 64 << 20, Wait: 500 * time.Millisecond}

type queuedRun struct {
	n    NewRun
	done func(id int64, err error)
}

// NewBatch starts a batch; limits left zero are DefaultBatch's.
func (s *Store) NewBatch(lim BatchLimits) *Batch {
	if lim.Runs <= 0 {
		lim.Runs = DefaultBatch.Runs
	}
	if lim.Bytes <= 0 {
		lim.Bytes = DefaultBatch.Bytes
	}
	if lim.Wait <= 0 {
		lim.Wait = DefaultBatch.Wait
	}
	return &Batch{s: s, lim: lim}
}

// Add queues a run (as AddRun takes it) and writes the batch when it is full. done is called
// with the run's id, and ErrExists or an error, once the run's batch is written.
func (b *Batch) Add(n NewRun, done func(id int64, err error)) {
	if len(b.queued) == 0 {
		b.since = time.Now()
	}
	b.queued = append(b.queued, queuedRun{n, done})
	b.bytes += runBytes(n)
	if len(b.queued) >= b.lim.Runs || b.bytes >= b.lim.Bytes || time.Since(b.since) >= b.lim.Wait {
		b.Flush()
	}
}

// runBytes is about what a run costs the batch in memory and in pages.
func runBytes(n NewRun) int64 {
	size := int64(64 * len(n.Run.Requests))
	for i := range n.Run.Requests {
		size += int64(4 * len(n.Run.Requests[i].ITL))
	}
	for _, f := range n.Files {
		size += int64(len(f.File.Data))
	}
	return size
}

// Flush writes the queued runs in one transaction and calls each one's done. A team library
// whose connection is lost meanwhile gets the whole batch again (the server rolled it back).
// A batch that cannot commit stores none of its runs, and each is told so.
func (b *Batch) Flush() {
	q := b.queued
	b.queued, b.bytes = nil, 0
	if len(q) == 0 {
		return
	}
	res := make([]runResult, len(q))
	if err := b.s.again(func() error { return written(func(each bool) error { return b.s.addRuns(q, res, each) }) }); err != nil {
		if len(q) > 1 {
			err = fmt.Errorf("its batch of %d runs was not committed: %w", len(q), err)
		}
		for i, r := range res {
			switch {
			case r.failed != nil:
				res[i] = runResult{err: r.failed} // its own error, which ended the batch
			case r.stored():
				res[i] = runResult{err: err}
			}
		}
	}
	for i, r := range q {
		if res[i].err == nil {
			r.n.Run.ID = res[i].id
		}
		r.done(res[i].id, res[i].err)
	}
}

// runResult is what became of a queued run: its id and nil or ErrExists, or its error.
type runResult struct {
	id     int64
	err    error
	failed error // the run's own error, which also ended the batch's transaction
	new    bool  // the run was written in this batch
}

// stored reports a run written in its batch, found written earlier in it, or not reached:
// what a batch that does not commit loses. A run refused on its own stays refused.
func (r runResult) stored() bool {
	return r.err == nil || (errors.Is(r.err, ErrExists) && r.new)
}

// written runs write once without savepoints and, when a run or file failed there
// (errUndo), again with a savepoint for each.
func written(write func(savepoints bool) error) error {
	err := write(false)
	if errors.Is(err, errUndo) {
		err = write(true)
	}
	return err
}

// errUndo ends a transaction written without savepoints where one run or file needs undoing.
var errUndo = errors.New("a write to undo alone")

// savepoint names the savepoint each run or file of a batch is written under.
const savepoint = "run"

// savepoint starts what follows, to be kept or undone (rollbackTo) alone.
func (t *txn) savepoint() error {
	if !t.savepoints {
		return nil
	}
	_, err := t.Exec(`SAVEPOINT ` + savepoint)
	return err
}

// keep ends the savepoint, keeping what was written since.
func (t *txn) keep() error {
	if !t.savepoints {
		return nil
	}
	_, err := t.Exec(`RELEASE SAVEPOINT ` + savepoint)
	return err
}

// rollbackTo undoes what the transaction wrote since the savepoint; without savepoints it
// asks for the batch to be written again with them (errUndo).
func (t *txn) rollbackTo() error {
	if !t.savepoints {
		return errUndo
	}
	t.forget()
	_, err := t.Exec(`ROLLBACK TO SAVEPOINT ` + savepoint)
	return err
}

// addRuns writes a batch's runs in one transaction and commits. An error of a run's own (it
// cannot be encoded, its file's bytes are missing) undoes that run alone (rollbackTo); an
// error that ended the transaction (SQLite ends it on a full disk or an I/O error) or stops
// the commit is returned for the whole batch.
func (s *Store) addRuns(q []queuedRun, res []runResult, savepoints bool) error {
	clear(res)
	tx, err := s.begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() // no-op after Commit
	tx.savepoints = savepoints
	// Each run's requests are written before its row: foreign keys are checked at commit.
	if _, err := tx.Exec(tx.d.deferForeignKeys()); err != nil {
		return err
	}
	now := time.Now().UTC().Format(time.RFC3339)
	sameBatch := map[int64]bool{}
	for i, r := range q {
		if err := tx.savepoint(); err != nil {
			return err
		}
		id, err := s.addRun(tx, r.n, now)
		if lostConnection(err) {
			return err
		}
		res[i] = runResult{id: id, err: err, new: err == nil || sameBatch[id]}
		if err != nil && err != ErrExists {
			if rerr := tx.rollbackTo(); errors.Is(rerr, errUndo) {
				return rerr
			} else if rerr != nil {
				res[i].failed = err
				return fmt.Errorf("the transaction ended with %s's error: %w", r.n.Files[0].File.Name, rerr)
			}
		}
		if err := tx.keep(); err != nil {
			return err
		}
		if err == nil {
			sameBatch[id] = true
		}
	}
	return s.commit(tx)
}
