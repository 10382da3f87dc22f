package nsys

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// An export holds millions of rows; database/sql's conversions cost more per row than SQLite's
// own work, so the large tables are read through the driver itself, a batch of rows at a time,
// each query on its own connection and goroutine (the tables are read at once, merged by start).

// row is one row of integers (NULL reads as 0).
type row [5]int64

// batchRows is how many rows a stream hands over at once.
const batchRows = 4096

// stream runs query on a connection of its own and sends its rows in batches until the query
// ends or ctx is cancelled; the error channel then gives the query's error, or nil.
func stream(ctx context.Context, db *sql.DB, query string) (<-chan []row, <-chan error) {
	out := make(chan []row, 4)
	errc := make(chan error, 1)
	go func() {
		defer close(out)
		errc <- streamRows(ctx, db, query, out)
	}()
	return out, errc
}

func streamRows(ctx context.Context, db *sql.DB, query string, out chan<- []row) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		c, ok := dc.(*sqlite3.SQLiteConn)
		if !ok {
			return errors.New("not an SQLite connection")
		}
		rows, err := c.Query(query, nil)
		if err != nil {
			return err
		}
		defer rows.Close()
		cols := len(rows.Columns())
		if cols > len(row{}) {
			return fmt.Errorf("query of %d columns, at most %d", cols, len(row{}))
		}
		dest := make([]driver.Value, cols)
		batch := make([]row, 0, batchRows)
		for {
			err := rows.Next(dest)
			if err == io.EOF {
				break
			}
			if err != nil {
				return err
			}
			var r row
			for i, v := range dest {
				switch x := v.(type) {
				case int64:
					r[i] = x
				case float64:
					r[i] = int64(x)
				case bool:
					if x {
						r[i] = 1
					}
				}
			}
			batch = append(batch, r)
			if len(batch) == batchRows {
				select {
				case out <- batch:
				case <-ctx.Done():
					return ctx.Err()
				}
				batch = make([]row, 0, batchRows)
			}
		}
		if len(batch) > 0 {
			select {
			case out <- batch:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		return nil
	})
}

// rowCursor walks a stream's rows one at a time.
type rowCursor struct {
	in    <-chan []row
	errc  <-chan error
	batch []row
	i     int
	cur   row
	valid bool
	err   error
}

func newCursor(ctx context.Context, db *sql.DB, query string) *rowCursor {
	in, errc := stream(ctx, db, query)
	c := &rowCursor{in: in, errc: errc}
	c.next()
	return c
}

func (c *rowCursor) next() {
	for c.i >= len(c.batch) {
		b, ok := <-c.in
		if !ok {
			c.valid = false
			c.err = <-c.errc
			return
		}
		c.batch, c.i = b, 0
	}
	c.cur, c.valid = c.batch[c.i], true
	c.i++
}

// eachRow streams a query's rows through fn.
func eachRow(ctx context.Context, db *sql.DB, query string, fn func(row)) error {
	c := newCursor(ctx, db, query)
	for ; c.valid; c.next() {
		fn(c.cur)
	}
	return c.err
}
