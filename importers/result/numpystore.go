package result

import (
	"bytes"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"

	"benchlens/importers/format"
	"benchlens/importers/sqlitero"
)

// AISBench keeps each request's time points as a numpy array saved with np.save in an SQLite
// table numpy_store(id INTEGER PRIMARY KEY, arr_blob BLOB) under performances/<model>/db_data/;
// the _details.jsonl lines refer to the rows by {"__db_ref__": id}.

// IsAISBenchNumpyStore sniffs the store: an SQLite file whose schema creates numpy_store.
func IsAISBenchNumpyStore(f *format.File) bool {
	return sqlitero.Is(f.Data) && bytes.Contains(sqlitero.Schema(f.Data), []byte("numpy_store"))
}

// AISBenchNumpyStoreWhy says what the store is when it is filed beside the runs.
const AISBenchNumpyStoreWhy = "AISBench's per-request time points (numpy store), read by way of the _details.jsonl lines that refer to them"

// readNumpyStore reads every array of the store, by row id.
func readNumpyStore(name string, data []byte) (map[int64][]float64, error) {
	db, done, err := sqlitero.Open(&format.File{Name: name, Data: data})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	defer done()
	rows, err := db.Query(`SELECT id, arr_blob FROM numpy_store`)
	if err != nil {
		return nil, fmt.Errorf("%s: not AISBench's numpy store: %w", name, err)
	}
	defer rows.Close()
	out := map[int64][]float64{}
	for rows.Next() {
		var id sql.NullInt64
		var blob []byte
		if err := rows.Scan(&id, &blob); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		arr, err := readNpy(blob)
		if err != nil {
			return nil, fmt.Errorf("%s, row %d: %w", name, id.Int64, err)
		}
		out[id.Int64] = arr
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}

var (
	npyMagic = []byte("\x93NUMPY")
	npyDescr = regexp.MustCompile(`'descr':\s*'([<>|=]?)([fi])(\d)'`)
	npyShape = regexp.MustCompile(`'shape':\s*\((\d*),?\s*\)`)
	npyOrder = regexp.MustCompile(`'fortran_order':\s*True`)
)

// readNpy reads a one-dimensional float or integer array in numpy's .npy format (versions 1
// to 3): the magic, the version, the header's length, a Python dict of descr, fortran_order
// and shape, then the data.
func readNpy(b []byte) ([]float64, error) {
	if !bytes.HasPrefix(b, npyMagic) || len(b) < 10 {
		return nil, errors.New("not a numpy array (.npy)")
	}
	var hlen, off int
	switch b[6] {
	case 1:
		hlen, off = int(binary.LittleEndian.Uint16(b[8:10])), 10
	case 2, 3:
		if len(b) < 12 {
			return nil, errors.New("numpy array cut short")
		}
		hlen, off = int(binary.LittleEndian.Uint32(b[8:12])), 12
	default:
		return nil, fmt.Errorf("numpy format version %d", b[6])
	}
	if hlen < 0 || off+hlen > len(b) {
		return nil, errors.New("numpy array cut short in its header")
	}
	header, body := b[off:off+hlen], b[off+hlen:]
	d := npyDescr.FindSubmatch(header)
	s := npyShape.FindSubmatch(header)
	if d == nil || s == nil || npyOrder.Match(header) {
		return nil, fmt.Errorf("numpy array of an unread kind: %q", bytes.TrimSpace(header))
	}
	size, _ := strconv.Atoi(string(d[3]))
	n := 1
	if len(s[1]) > 0 {
		var err error
		if n, err = strconv.Atoi(string(s[1])); err != nil {
			return nil, fmt.Errorf("numpy array of shape %s", s[1])
		}
	}
	if size != 4 && size != 8 || n < 0 || n > len(body)/size {
		return nil, fmt.Errorf("numpy array of %d × %d bytes in %d", n, size, len(body))
	}
	var order binary.ByteOrder = binary.LittleEndian
	if string(d[1]) == ">" {
		order = binary.BigEndian
	}
	out := make([]float64, n)
	for i := range out {
		p := body[i*size:]
		switch {
		case d[2][0] == 'f' && size == 8:
			out[i] = math.Float64frombits(order.Uint64(p))
		case d[2][0] == 'f':
			out[i] = float64(math.Float32frombits(order.Uint32(p)))
		case size == 8:
			out[i] = float64(int64(order.Uint64(p)))
		default:
			out[i] = float64(int32(order.Uint32(p)))
		}
	}
	return out, nil
}
