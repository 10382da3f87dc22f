package importers

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"benchlens/importers/position"
)

// Entry is one file of a bundle, in memory. Archives are never unpacked to disk. A large
// plain file is mapped rather than read: Drop lets go of the pages before an offset once every
// reader has passed it, and Close unmaps it; both are no-ops for files read into the heap.
type Entry struct {
	Path  string // slash-separated, starting with the bundle's own name
	Data  []byte
	Drop  func(upTo int)
	Close func()
}

// mapAbove is the size from which plain files are mapped instead of read.
const mapAbove = 32 << 20

func heapEntry(path string, data []byte) Entry {
	return Entry{Path: path, Data: data, Drop: func(int) {}, Close: func() {}}
}

// Limits bound what one bundle may expand to, so a hostile archive is refused quickly.
type Limits struct {
	MaxBytes   int64 // total decompressed bytes
	MaxEntries int   // files
	MaxDepth   int   // archives inside archives
	// MaxRatio bounds how many times larger than its compressed form an archive may grow:
	// benchmark JSON and logs compress 5-20×, a decompression bomb thousands of times.
	MaxRatio int64
}

// DefaultLimits suit lab bundles of a few gigabytes.
var DefaultLimits = Limits{MaxBytes: 8 << 30, MaxEntries: 100_000, MaxDepth: 3, MaxRatio: 200}

// ratioFloor is the expansion below which the ratio is not checked: small files compress
// arbitrarily well without being bombs.
const ratioFloor = 64 << 20

// ReadBundle reads a file, a folder (recursively), a .zip or a .tar.gz / .tgz. Archives found
// inside a folder or another archive are opened too. Unreadable parts are reported and skipped.
func ReadBundle(root string, lim Limits) ([]Entry, []error) {
	r := &reader{lim: lim}
	info, err := os.Stat(root)
	if err != nil {
		return nil, []error{&position.Error{File: root, Offset: -1, Err: errors.Unwrap(err)}}
	}
	base := filepath.Base(filepath.Clean(root))
	if info.IsDir() {
		r.walkDir(root, base)
	} else if info.Size() >= mapAbove && !isArchiveName(base) {
		r.mapLarge(root, base, info.Size())
	} else {
		data, err := r.readFile(root, info.Size())
		if err != nil {
			r.fail(root, err)
		} else {
			r.add(base, data, 0)
		}
	}
	sort.Slice(r.entries, func(i, j int) bool { return r.entries[i].Path < r.entries[j].Path })
	return r.entries, r.errs
}

type reader struct {
	lim     Limits
	total   int64
	entries []Entry
	errs    []error
}

var errTooLarge = errors.New("bundle too large")

func (r *reader) fail(name string, err error) {
	r.errs = append(r.errs, &position.Error{File: name, Offset: -1, Err: err})
}

func (r *reader) walkDir(dir, prefix string) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			r.fail(p, err)
			return nil
		}
		if d.IsDir() || !d.Type().IsRegular() {
			return nil // symlinks and devices are not followed
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			r.fail(p, err)
			return nil
		}
		name := path.Join(prefix, filepath.ToSlash(rel))
		if info.Size() >= mapAbove && !isArchiveName(name) {
			r.mapLarge(p, name, info.Size())
			return nil
		}
		data, err := r.readFile(p, info.Size())
		if err != nil {
			r.fail(p, err)
			if errors.Is(err, errTooLarge) {
				return filepath.SkipAll
			}
			return nil
		}
		r.add(name, data, 0)
		return nil
	})
	if err != nil {
		r.fail(dir, err)
	}
}

// mapLarge adds a large plain file by mapping it.
func (r *reader) mapLarge(p, name string, size int64) {
	if err := r.reserve(size); err != nil {
		r.fail(p, err)
		return
	}
	if len(r.entries) >= r.lim.MaxEntries {
		r.fail(name, fmt.Errorf("more than %d files in one bundle", r.lim.MaxEntries))
		return
	}
	data, drop, unmap, err := mapFile(p, size)
	if err != nil {
		r.fail(p, err)
		return
	}
	r.entries = append(r.entries, Entry{Path: name, Data: data, Drop: drop, Close: unmap})
}

func isArchiveName(name string) bool {
	lower := strings.ToLower(name)
	for _, ext := range []string{".zip", ".tar.gz", ".tgz", ".tar"} {
		if strings.HasSuffix(lower, ext) {
			return true
		}
	}
	return false
}

func (r *reader) readFile(p string, size int64) ([]byte, error) {
	if err := r.reserve(size); err != nil {
		return nil, err
	}
	return os.ReadFile(p)
}

func (r *reader) reserve(n int64) error {
	if r.total+n > r.lim.MaxBytes {
		return fmt.Errorf("%w: more than %d bytes once expanded", errTooLarge, r.lim.MaxBytes)
	}
	r.total += n
	return nil
}

// add keeps a file, or opens it when it is an archive.
func (r *reader) add(name string, data []byte, depth int) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".zip") || (bytes.HasPrefix(data, []byte("PK\x03\x04")) && !strings.HasSuffix(lower, ".xlsx")):
		r.openZip(name, data, depth)
	case strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz"):
		r.openTarGz(name, data, depth)
	case strings.HasSuffix(lower, ".tar"):
		r.openTar(name, tar.NewReader(bytes.NewReader(data)), archiveRoot(name), depth)
	default:
		if len(r.entries) >= r.lim.MaxEntries {
			r.fail(name, fmt.Errorf("more than %d files in one bundle", r.lim.MaxEntries))
			return
		}
		r.entries = append(r.entries, heapEntry(name, data))
	}
}

// archiveRoot names an archive's contents after the archive, without its extension.
func archiveRoot(name string) string {
	for _, ext := range []string{".tar.gz", ".tgz", ".zip", ".tar"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return name
}

func (r *reader) nested(name string, depth int) bool {
	if depth >= r.lim.MaxDepth {
		r.fail(name, fmt.Errorf("archives nested deeper than %d", r.lim.MaxDepth))
		return false
	}
	return true
}

func (r *reader) openZip(name string, data []byte, depth int) {
	if !r.nested(name, depth) {
		return
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		r.fail(name, fmt.Errorf("not a readable zip archive: %v", err))
		return
	}
	root := archiveRoot(name)
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || !f.Mode().IsRegular() {
			continue
		}
		inner, ok := safeJoin(root, f.Name)
		if !ok {
			r.fail(name+"!"+f.Name, errors.New("entry escapes the archive; refused"))
			continue
		}
		data, err := r.readLimited(func() (io.ReadCloser, error) {
			rc, err := f.Open()
			if err != nil {
				return nil, err
			}
			return struct {
				io.Reader
				io.Closer
			}{&ratioReader{r: rc, in: int64(f.CompressedSize64), max: r.lim.MaxRatio}, rc}, nil
		})
		if err != nil {
			r.fail(inner, err)
			if errors.Is(err, errTooLarge) || errors.Is(err, errBomb) {
				return
			}
			continue
		}
		r.add(inner, data, depth+1)
	}
}

func (r *reader) openTarGz(name string, data []byte, depth int) {
	if !r.nested(name, depth) {
		return
	}
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		r.fail(name, fmt.Errorf("not a readable gzip file: %v", err))
		return
	}
	defer gz.Close()
	r.openTar(name, tar.NewReader(&ratioReader{r: gz, in: int64(len(data)), max: r.lim.MaxRatio}), archiveRoot(name), depth)
}

func (r *reader) openTar(name string, tr *tar.Reader, root string, depth int) {
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if errors.Is(err, errBomb) {
				r.fail(name, err)
			} else {
				r.fail(name, fmt.Errorf("broken tar archive: %v", err))
			}
			return
		}
		if h.Typeflag != tar.TypeReg {
			if h.Typeflag == tar.TypeSymlink || h.Typeflag == tar.TypeLink {
				r.fail(name+"!"+h.Name, errors.New("links in archives are not followed; refused"))
			}
			continue
		}
		inner, ok := safeJoin(root, h.Name)
		if !ok {
			r.fail(name+"!"+h.Name, errors.New("entry escapes the archive; refused"))
			continue
		}
		data, err := r.readLimited(func() (io.ReadCloser, error) { return io.NopCloser(tr), nil })
		if err != nil {
			r.fail(inner, err)
			if errors.Is(err, errTooLarge) || errors.Is(err, errBomb) {
				return
			}
			continue
		}
		r.add(inner, data, depth+1)
	}
}

// readLimited reads an archive member without trusting its declared size.
func (r *reader) readLimited(open func() (io.ReadCloser, error)) ([]byte, error) {
	rc, err := open()
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	left := r.lim.MaxBytes - r.total
	data, err := io.ReadAll(io.LimitReader(rc, left+1))
	if err != nil {
		return nil, err
	}
	if err := r.reserve(int64(len(data))); err != nil {
		return nil, err
	}
	return data, nil
}

// safeJoin places an archive member under root, refusing absolute paths and "..".
func safeJoin(root, member string) (string, bool) {
	member = strings.ReplaceAll(member, `\`, "/")
	if strings.HasPrefix(member, "/") || (len(member) > 1 && member[1] == ':') {
		return "", false
	}
	clean := path.Clean(member)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", false
	}
	return path.Join(root, clean), true
}

// ReadFS reads every file below root of fsys (the demo bundles embedded in the binary), named
// as if root were a folder called name.
func ReadFS(fsys fs.FS, root, name string, lim Limits) ([]Entry, []error) {
	r := &reader{lim: lim}
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			r.fail(p, err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err == nil {
			err = r.reserve(int64(len(data)))
		}
		if err != nil {
			r.fail(p, err)
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		r.add(path.Join(name, rel), data, 0)
		return nil
	})
	if err != nil {
		r.fail(root, err)
	}
	sort.Slice(r.entries, func(i, j int) bool { return r.entries[i].Path < r.entries[j].Path })
	return r.entries, r.errs
}

// errBomb refuses an archive that expands far beyond what real bundles do.
var errBomb = errors.New("expands more than the allowed ratio: refused as a decompression bomb")

// ratioReader stops reading once the output outgrows the compressed input by the limit.
type ratioReader struct {
	r       io.Reader
	in, out int64
	max     int64
}

func (rr *ratioReader) Read(p []byte) (int, error) {
	n, err := rr.r.Read(p)
	rr.out += int64(n)
	if rr.max > 0 && rr.out > ratioFloor && rr.out > rr.max*max(rr.in, 1) {
		return n, fmt.Errorf("%w (%d bytes from %d)", errBomb, rr.out, rr.in)
	}
	return n, err
}
