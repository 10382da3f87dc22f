package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/mattn/go-sqlite3"
)

// A library file moved or deleted while open (another library moved over it, a sync tool
// replacing it) is noticed before anything more is written: the store's connections keep the
// file they opened, which no longer has the name, and a write there would be lost with it,
// while a new connection by the name would pair the file moved in with this library's -wal
// and damage it. So no connection is opened once the name holds another file, every write
// transaction first checks the name, and what the session had written is saved beside the
// name from the file still open.

// ErrReplaced wraps the refusal to go on with a library whose file was replaced.
var ErrReplaced = errors.New("the library file was replaced or removed while open")

// fileGuard remembers which file a library path named when it was opened.
type fileGuard struct {
	path   string
	opened os.FileInfo

	once  sync.Once
	moved error         // the refusal, once noticed
	sides []os.FileInfo // this library's -wal and -shm when it was noticed
}

// check reports ErrReplaced when the path no longer names the file opened.
func (g *fileGuard) check() error {
	fi, err := os.Stat(g.path)
	if err == nil && os.SameFile(fi, g.opened) {
		return nil
	}
	return fmt.Errorf("%w (%s now holds another file, or none)", ErrReplaced, g.path)
}

// guardedConnector opens SQLite connections only while the path names the file opened.
type guardedConnector struct {
	dsn   string
	guard *fileGuard
	drv   *sqlite3.SQLiteDriver
}

func (c *guardedConnector) Connect(context.Context) (driver.Conn, error) {
	if err := c.guard.check(); err != nil {
		return nil, err
	}
	return c.drv.Open(c.dsn)
}

func (c *guardedConnector) Driver() driver.Driver { return c.drv }

// present refuses to go on once the library's file was replaced, after saving what the open
// file holds (this session's writes included) beside the name, once.
func (s *Store) present() error {
	if s.guard == nil {
		return nil
	}
	if err := s.guard.check(); err == nil {
		return nil
	}
	s.guard.once.Do(func() {
		// The side files under the name are still this library's (the file moved in came
		// without): they go when it closes, lest the file moved in be read with them.
		for _, side := range LibraryFiles(s.path)[1:] {
			if fi, err := os.Stat(side); err == nil {
				s.guard.sides = append(s.guard.sides, fi)
			}
		}
		kept := fmt.Sprintf("%s.displaced-%s-%d.db", s.path, time.Now().UTC().Format("20060102T150405"), os.Getpid())
		err := s.guard.check()
		if _, serr := s.db.Exec(`VACUUM INTO ?`, kept); serr != nil {
			os.Remove(kept)
			s.guard.moved = fmt.Errorf("%w; saving what it held failed (%v): nothing more was written", err, serr)
			return
		}
		s.guard.moved = fmt.Errorf("%w: nothing more was written; what it held, this session's writes included, is saved in %s (open it with --db)", err, kept)
	})
	return s.guard.moved
}

// removeSides removes, after the library closed, the side files it left under the name of a
// file that was replaced: SQLite keeps the -wal of a moved database (it may not checkpoint
// into it), and the file moved in would be read with this library's pages.
func (g *fileGuard) removeSides() {
	if g == nil || g.moved == nil {
		return
	}
	for _, side := range LibraryFiles(g.path)[1:] {
		fi, err := os.Stat(side)
		if err == nil && slices.ContainsFunc(g.sides, func(o os.FileInfo) bool { return os.SameFile(fi, o) }) {
			os.Remove(side)
		}
	}
}
