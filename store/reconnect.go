package store

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// A team library's server may go away for a moment (a restart, a failover, a dropped
// network): a write that meets a lost or refused connection is done again, whole, after a
// growing pause, until ReconnectFor has passed; then it fails with ErrUnreachable, which
// stops an import cleanly instead of refusing every file after it. A write transaction cut
// by the loss was rolled back by the server, so doing it again stores it once.

// ReconnectFor bounds how long a write waits for a team library's server to come back.
var ReconnectFor = 30 * time.Second

// ErrUnreachable wraps the failure of a write whose team library stayed away.
var ErrUnreachable = errors.New("the team library is unreachable")

// lostConnection reports an error that says the server or the connection went away, not
// that the write was wrong.
func lostConnection(err error) bool {
	if err == nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// 08: connection exception; 57P01-57P03: shut down by an administrator, a crash, not
		// yet accepting connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || pgconn.SafeToRetry(err) ||
		strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "connection reset")
}

// again runs a write on a team library, and runs it again while its connection is lost,
// within ReconnectFor. A file library runs it once.
func (s *Store) again(write func() error) error {
	if !s.db.d.postgres {
		return write()
	}
	deadline := time.Now().Add(ReconnectFor)
	pause := 100 * time.Millisecond
	for {
		err := write()
		if !lostConnection(err) {
			return err
		}
		if time.Now().Add(pause).After(deadline) {
			return fmt.Errorf("%w (%v; waited %v for it)", ErrUnreachable, err, ReconnectFor)
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Second)
		s.renewSession()
	}
}

// renewSession opens the claims' session again when the server cut it, and moves this
// store's claims to it: a claim names its session's backend, and one of a session that ended
// counts as stale, so another import's clean-up would take the files it holds.
func (s *Store) renewSession() {
	ctx := context.Background()
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	if s.session != nil && s.session.PingContext(ctx) == nil {
		return
	}
	session, err := s.db.DB.Conn(ctx)
	if err != nil {
		return
	}
	var pid int
	if err := session.QueryRowContext(ctx, `SELECT pg_backend_pid()`).Scan(&pid); err != nil {
		session.Close()
		return
	}
	if _, err := session.ExecContext(ctx, `UPDATE file_claims SET pid = $1 WHERE pid = $2 AND host = $3`, pid, s.claimPID, s.claimHost); err != nil {
		session.Close()
		return
	}
	if s.session != nil {
		s.session.Close()
	}
	s.session, s.claimPID = session, pid
}

// claimer is the pid a claim made now names.
func (s *Store) claimer() int {
	s.claimMu.Lock()
	defer s.claimMu.Unlock()
	return s.claimPID
}
