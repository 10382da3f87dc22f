package importers

import (
	"errors"
	"fmt"
	"io"
)

// errBomb refuses an archive that expands far beyond what real bundles do.
var errBomb = errors.New("expands more than the allowed ratio: refused as a decompression bomb")

// errBundleBomb refuses the bundle's compressed files once, together, they expand beyond the
// ratio: hundreds of small gzips each under ratioFloor are a bomb as much as one big one.
var errBundleBomb error = bundleBomb{}

type bundleBomb struct{}

func (bundleBomb) Error() string {
	return "the bundle's compressed files together expand more than the allowed ratio: refused as a decompression bomb"
}

func (bundleBomb) Is(target error) bool { return target == errBomb }

// meter follows one compressed input (an archive, a gzip) by the bytes actually read from it
// and the bytes they expanded to, including what archives nested in it expand to: a bomb is
// refused by what it does, whatever its headers declare.
type meter struct {
	name    string
	in, out int64 // compressed bytes read; decompressed bytes produced, nested ones included
	ratio   int64
	up      *meter // the archive this one was found in
}

// grew records n more bytes out of the member that has read memberIn compressed bytes and
// produced memberOut; the member, its archive and every archive above must stay in ratio.
func (m *meter) grew(n, memberIn, memberOut int64) error {
	if err := m.check(memberOut, memberIn); err != nil {
		return err
	}
	for a := m; a != nil; a = a.up {
		a.out += n
		if err := a.check(a.out, a.in); err != nil {
			return err
		}
	}
	return nil
}

func (m *meter) check(out, in int64) error {
	if m.ratio > 0 && out > ratioFloor && out > m.ratio*max(in, 1) {
		if m.up == nil && m.name == "" { // the bundle's own meter
			return fmt.Errorf("%w (%d bytes from %d): this and the rest of them are not read", errBundleBomb, out, in)
		}
		return fmt.Errorf("%w (%d bytes from %d)", errBomb, out, in)
	}
	return nil
}

// memberReader counts a member's bytes against its archive's meter and the bundle's budget.
type memberReader struct {
	r       io.Reader
	m       *meter
	inStart int64
	out     int64
	budget  *reader
}

func (mr *memberReader) Read(p []byte) (int, error) {
	n, err := mr.r.Read(p)
	mr.out += int64(n)
	if e := mr.budget.reserve(int64(n)); e != nil {
		return n, e
	}
	if e := mr.m.grew(int64(n), mr.m.in-mr.inStart, mr.out); e != nil {
		return n, e
	}
	return n, err
}

// countingReaderAt counts the compressed bytes an archive reader really takes, for the
// archive and, for one found in the bundle itself, for the bundle's own meter.
type countingReaderAt struct {
	r    io.ReaderAt
	n    *int64
	also *int64 // nil for an archive inside another
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	*c.n += int64(n)
	if c.also != nil {
		*c.also += int64(n)
	}
	return n, err
}
