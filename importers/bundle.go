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
	"syscall"

	"benchlens/importers/position"
	"benchlens/internal/textsafe"
)

// Entry is one file of a bundle. Archives are never unpacked beside the bundle: a small member
// is read into the heap, a large one (or a large plain file) is mapped, members from a file
// written to an unlinked temporary file first. Drop lets go of the pages before an offset once
// every reader has passed it, and Close unmaps it; both are no-ops for files in the heap.
type Entry struct {
	Path  string // slash-separated, starting with the bundle's own name
	Data  []byte
	Drop  func(upTo int)
	Close func()
	// load reads a file ListBundle listed without reading it (Data nil until Load); size is
	// its size when listed.
	load func() ([]byte, error)
	size int64
}

// Listed reports a file whose bytes are not read until Load.
func (e *Entry) Listed() bool { return e.load != nil }

// Size is the file's size: its bytes', or when listed and not read, its size when listed.
func (e *Entry) Size() int64 {
	if e.Data == nil && e.load != nil {
		return e.size
	}
	return int64(len(e.Data))
}

// Load reads a listed file's bytes into Data, if they are not there, checking that it is still
// the file listed (the same file, of the same size): a file replaced or rewritten since is
// refused, never read half. The error names the file as ReadBundle's would.
func (e *Entry) Load() error {
	if e.Data != nil || e.load == nil {
		return nil
	}
	data, err := e.load()
	if err != nil {
		return err
	}
	e.Data = data
	return nil
}

// Unload lets a listed file's bytes go (Load reads them again); a file read or mapped keeps them.
func (e *Entry) Unload() {
	if e.load != nil {
		e.Data = nil
	}
}

// ErrChanged refuses a listed file that is no longer what was listed, or a result whose bytes
// are not those its runs were planned from (Plan).
var ErrChanged = errors.New("changed while the bundle was being imported (replaced, grown, cut or rewritten); not stored: import it again")

// listedEntry is a small plain file of a folder, read when Load is called.
func listedEntry(p, name string, info os.FileInfo) Entry {
	id, size := idOf(info), info.Size()
	load := func() ([]byte, error) {
		f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return nil, &position.Error{File: p, Offset: -1, Err: errors.Unwrap(err)}
		}
		defer f.Close()
		now, err := f.Stat()
		if err != nil {
			return nil, &position.Error{File: p, Offset: -1, Err: err}
		}
		if !id.same(now) || now.Size() != size {
			return nil, &position.Error{File: p, Offset: -1, Err: ErrChanged}
		}
		data := make([]byte, size) // read at once: no slice grown and copied on the way
		switch _, err := io.ReadFull(f, data); {
		case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) && len(data) > 0:
			return nil, &position.Error{File: p, Offset: -1, Err: ErrChanged}
		case err != nil:
			return nil, &position.Error{File: p, Offset: -1, Err: err}
		}
		return data, nil
	}
	return Entry{Path: name, Drop: func(int) {}, Close: func() {}, load: load, size: size}
}

// mapAbove is the size from which files are mapped instead of read into the heap.
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
// arbitrarily well without being bombs. It is counted per member and per archive, so a bomb
// is refused after a few megabytes whatever its members declare.
const ratioFloor = 4 << 20

// OwnFile is a file an import must never read as input: the library it writes to, or one of
// its side files. It is known by identity (os.SameFile), so no other name, hard link or
// mount of it gets in.
type OwnFile struct {
	Info os.FileInfo
	What string // what it is, for the line that says it was skipped
}

// ReadBundle reads a file, a folder (recursively), a .zip, a .tar, a .tar.gz / .tgz or a
// gzipped file. Archives found inside a folder or another archive are opened too. Unreadable
// parts are reported and skipped; so is every file not read (links, devices, pipes, the own
// files): Skipped names them.
func ReadBundle(root string, lim Limits, own ...OwnFile) (entries []Entry, errs []error) {
	entries, errs = ListBundle(root, lim, own...)
	entries, loadErrs := LoadAll(entries)
	return entries, append(errs, loadErrs...)
}

// LoadAll reads the listed entries' bytes (Load), leaving out, with its error, each that
// cannot be read or changed since it was listed.
func LoadAll(entries []Entry) (loaded []Entry, errs []error) {
	loaded = entries[:0]
	for i := range entries {
		if err := entries[i].Load(); err != nil {
			errs = append(errs, err)
			continue
		}
		loaded = append(loaded, entries[i])
	}
	return loaded, errs
}

// ListBundle is ReadBundle leaving a folder's small plain files unread (Listed) until Load: a
// folder of many small results is read a window at a time, not whole.
func ListBundle(root string, lim Limits, own ...OwnFile) (entries []Entry, errs []error) {
	r := newReader(lim, own)
	info, err := os.Stat(root)
	if err != nil {
		return nil, []error{&position.Error{File: root, Offset: -1, Err: errors.Unwrap(err)}}
	}
	base := filepath.Base(filepath.Clean(root))
	if base == "." || base == ".." {
		// "import ." names the bundle by the folder it is: its paths start with that name as
		// every other bundle's do (--label-by folder read "." as the bundle and each
		// experiment folder as one of its files).
		if abs, err := filepath.Abs(root); err == nil {
			base = filepath.Base(abs)
		}
	}
	if !info.IsDir() && !info.Mode().IsRegular() {
		r.fail(root, errors.New(kindOf(info.Mode())+": only regular files are read; refused"))
		return nil, r.errs
	}
	if info.IsDir() {
		r.walkDir(root, base)
	} else {
		r.openFile(root, base)
	}
	sort.Slice(r.entries, func(i, j int) bool { return r.entries[i].Path < r.entries[j].Path })
	return r.entries, r.errs
}

type reader struct {
	lim     Limits
	own     []OwnFile
	whole   *meter // every compressed file of the bundle together
	bombed  bool   // whole went over the ratio: no further archive is opened
	total   int64
	members int // archive members seen, whatever their kind
	entries []Entry
	errs    []error
}

func newReader(lim Limits, own []OwnFile) *reader {
	return &reader{lim: lim, own: own, whole: &meter{ratio: lim.MaxRatio}}
}

var errTooLarge = errors.New("bundle too large")

func (r *reader) fail(name string, err error) {
	if errors.Is(err, errBundleBomb) {
		if r.bombed {
			return // said once, for the first file over the ratio
		}
		r.bombed = true
	}
	r.errs = append(r.errs, &position.Error{File: name, Offset: -1, Err: err})
}

func (r *reader) skip(name, why string) {
	r.fail(name, &Skip{Why: why})
}

func (r *reader) walkDir(dir, prefix string) {
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			r.fail(p, err)
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			r.skipLink(dir, p)
			return nil
		}
		if !d.Type().IsRegular() {
			r.skip(p, kindOf(d.Type())+": only regular files are read")
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		r.openFile(p, path.Join(prefix, filepath.ToSlash(rel)))
		if r.full() {
			return filepath.SkipAll
		}
		return nil
	})
	if err != nil {
		r.fail(dir, err)
	}
}

// skipLink reports a symbolic link in a folder: links are not followed, so that a bundle is
// what its folder holds and a loop cannot trap the walk.
func (r *reader) skipLink(dir, p string) {
	target, err := filepath.EvalSymlinks(p)
	switch {
	case err != nil:
		r.skip(p, fmt.Sprintf("symbolic link that does not resolve (%v); not followed", errors.Unwrap(err)))
	case !within(filepath.ToSlash(mustAbs(target)), filepath.ToSlash(mustAbs(dir))):
		r.skip(p, "symbolic link to "+textsafe.Quote(target)+", outside the folder; not followed")
	default:
		r.skip(p, "symbolic link to "+textsafe.Quote(target)+"; not followed (the folder's own copy is read)")
	}
}

func mustAbs(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeIrregular != 0, m&fs.ModeCharDevice != 0:
		return "special file"
	}
	return "not a regular file"
}

// full reports whether the bundle has reached its byte budget.
func (r *reader) full() bool { return r.total >= r.lim.MaxBytes }

// openFile reads one file of the file system: an archive or a gzip is opened in place, a large
// plain file is mapped, a small one listed (read by Load). Only regular files are opened (a FIFO would block,
// /dev/zero never end); the check is made on the open file, so it cannot change in between.
func (r *reader) openFile(p, name string) {
	// O_NONBLOCK: should a pipe take the file's place after the check, opening it must not hang.
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		r.fail(p, errors.Unwrap(err))
		return
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		r.fail(p, err)
		return
	}
	if !info.Mode().IsRegular() {
		r.skip(p, kindOf(info.Mode())+": only regular files are read")
		return
	}
	for _, o := range r.own {
		if os.SameFile(info, o.Info) {
			r.skip(p, o.What+": never imported into itself")
			return
		}
	}
	var magic [4]byte
	n, _ := f.ReadAt(magic[:], 0)
	switch kind := archiveKind(name, magic[:n]); {
	case kind != "":
		r.openArchive(name, kind, f, info.Size(), nil, 0)
	case info.Size() >= mapAbove:
		if err := r.reserve(info.Size()); err != nil {
			r.fail(p, err)
			return
		}
		data, drop, unmap, err := mapOpen(f, info.Size())
		if err != nil {
			r.fail(p, err)
			return
		}
		r.keep(Entry{Path: name, Data: data, Drop: drop, Close: unmap})
	default:
		if err := r.reserve(info.Size()); err != nil {
			r.fail(p, err)
			return
		}
		r.keep(listedEntry(p, name, info))
	}
}

// archiveKind names how a file is opened: "zip", "tar", "tar.gz", "gz" or "" for a plain file.
func archiveKind(name string, head []byte) string {
	lower := strings.ToLower(name)
	gz := len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b
	switch {
	case strings.HasSuffix(lower, ".zip") || (bytes.HasPrefix(head, []byte("PK\x03\x04")) && !strings.HasSuffix(lower, ".xlsx")):
		return "zip"
	case strings.HasSuffix(lower, ".tar.gz") || strings.HasSuffix(lower, ".tgz"):
		return "tar.gz"
	case strings.HasSuffix(lower, ".tar"):
		return "tar"
	case gz:
		return "gz"
	}
	return ""
}

func (r *reader) reserve(n int64) error {
	if r.total+n > r.lim.MaxBytes {
		return fmt.Errorf("%w: more than %d bytes once expanded", errTooLarge, r.lim.MaxBytes)
	}
	r.total += n
	return nil
}

// tooMany counts one more archive member and reports, once, when the bundle holds more files
// than it may, or an archive more members: the rest of the archive is not read. Reporting
// each further member would let a small archive of empty members or links print hundreds of
// thousands of lines.
func (r *reader) tooMany(archive string) bool {
	r.members++
	if r.members <= r.lim.MaxEntries && len(r.entries) < r.lim.MaxEntries {
		return false
	}
	r.fail(archive, fmt.Errorf("more than %d files in one bundle: the rest of the archive is not read", r.lim.MaxEntries))
	return true
}

// keep adds a file that is no archive.
func (r *reader) keep(e Entry) {
	if len(r.entries) >= r.lim.MaxEntries {
		e.Close()
		r.fail(e.Path, fmt.Errorf("more than %d files in one bundle", r.lim.MaxEntries))
		return
	}
	r.entries = append(r.entries, e)
}

// add keeps a file read from memory (an embedded bundle), or opens it when it is an archive.
func (r *reader) add(name string, data []byte, depth int) {
	if kind := archiveKind(name, data[:min(len(data), 4)]); kind != "" {
		r.openArchive(name, kind, bytes.NewReader(data), int64(len(data)), nil, depth)
		return
	}
	r.keep(heapEntry(name, data))
}

// archiveRoot names an archive's contents after the archive, without its extension.
func archiveRoot(name string) string {
	for _, ext := range []string{".tar.gz", ".tgz", ".zip", ".tar", ".gz"} {
		if strings.HasSuffix(strings.ToLower(name), ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return name
}

// openArchive reads the members of an archive (or the one file in a gzip) from src, whose size
// is the archive's own size on disk or in its parent.
func (r *reader) openArchive(name, kind string, src io.ReaderAt, size int64, parent *meter, depth int) {
	if r.bombed {
		return
	}
	if depth >= r.lim.MaxDepth {
		r.fail(name, fmt.Errorf("archives nested deeper than %d", r.lim.MaxDepth))
		return
	}
	m := &meter{name: name, up: parent, ratio: r.lim.MaxRatio}
	in := &countingReaderAt{r: src, n: &m.in}
	if parent == nil {
		m.up, in.also = r.whole, &r.whole.in
	}
	stream := io.NewSectionReader(in, 0, size)
	switch kind {
	case "zip":
		r.openZip(name, in, size, m, depth)
	case "tar":
		r.openTar(name, tar.NewReader(stream), m, depth)
	case "tar.gz", "gz":
		zr, err := gzip.NewReader(stream)
		if err != nil {
			r.fail(name, fmt.Errorf("not a readable gzip file: %v", err))
			return
		}
		defer zr.Close()
		gz := truncationSaid{zr}
		if kind == "gz" {
			// A gzipped file keeps its name: it is read as what it holds.
			if err := r.extract(name, gz, m, depth); err != nil {
				r.fail(name, err)
			}
			return
		}
		r.openTar(name, tar.NewReader(gz), m, depth)
	}
}

// errTruncatedGzip replaces gzip's bare "unexpected EOF", which names no cause.
var errTruncatedGzip = errors.New("truncated gzip: the data ends inside the compressed stream")

// truncationSaid reads a gzip stream, saying a cut-off one is a truncated gzip.
type truncationSaid struct{ *gzip.Reader }

func (t truncationSaid) Read(p []byte) (int, error) {
	n, err := t.Reader.Read(p)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		err = errTruncatedGzip
	}
	return n, err
}

func (r *reader) openZip(name string, src io.ReaderAt, size int64, m *meter, depth int) {
	zr, err := zip.NewReader(src, size)
	if err != nil {
		r.fail(name, fmt.Errorf("not a readable zip archive: %v", err))
		return
	}
	root := archiveRoot(name)
	read := 0
	for _, f := range zr.File {
		if r.tooMany(name) {
			return
		}
		if f.FileInfo().IsDir() {
			continue
		}
		if !f.Mode().IsRegular() {
			r.skip(name+"!"+f.Name, kindOf(f.Mode())+" in the archive; not followed")
			continue
		}
		inner, ok := safeJoin(root, f.Name)
		if !ok {
			r.fail(name+"!"+f.Name, errors.New("entry escapes the archive; refused"))
			continue
		}
		rc, err := f.Open()
		if err != nil {
			r.fail(inner, err)
			continue
		}
		read++
		err = r.extract(inner, rc, m, depth+1)
		rc.Close()
		if err != nil {
			r.fail(inner, err)
			if errors.Is(err, errTooLarge) || errors.Is(err, errBomb) {
				return
			}
		}
	}
	if read == 0 {
		r.skip(name, "archive holds no files")
	}
}

func (r *reader) openTar(name string, tr *tar.Reader, m *meter, depth int) {
	root := archiveRoot(name)
	read := 0
	defer func() {
		if read == 0 {
			r.skip(name, "archive holds no files")
		}
	}()
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if errors.Is(err, errBomb) || errors.Is(err, errTooLarge) {
				r.fail(name, err)
			} else {
				r.fail(name, fmt.Errorf("broken tar archive: %v", err))
			}
			read = -1
			return
		}
		if r.tooMany(name) {
			read = -1
			return
		}
		switch h.Typeflag {
		case tar.TypeReg:
		case tar.TypeDir:
			continue
		case tar.TypeSymlink, tar.TypeLink:
			r.fail(name+"!"+h.Name, errors.New("links in archives are not followed; refused"))
			continue
		default:
			r.skip(name+"!"+h.Name, "special file in the archive; not read")
			continue
		}
		inner, ok := safeJoin(root, h.Name)
		if !ok {
			r.fail(name+"!"+h.Name, errors.New("entry escapes the archive; refused"))
			continue
		}
		read++
		if err := r.extract(inner, tr, m, depth+1); err != nil {
			r.fail(inner, err)
			if errors.Is(err, errTooLarge) || errors.Is(err, errBomb) {
				read = -1
				return
			}
		}
	}
}

// extract reads one member by the bytes it actually yields, never its declared size, counting
// them against the bundle's budget and the archive's ratio as they arrive. A small member
// stays in the heap; a large one goes to an unlinked temporary file that is then mapped like
// a plain file, so a gigabyte member costs no more memory than a gigabyte file.
func (r *reader) extract(name string, src io.Reader, m *meter, depth int) error {
	mr := &memberReader{r: src, m: m, inStart: m.in, budget: r}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(mr, mapAbove))
	if err != nil {
		return err
	}
	var e Entry
	if n < mapAbove {
		e = heapEntry(name, buf.Bytes())
	} else {
		e, err = spill(name, &buf, mr)
		if err != nil {
			return err
		}
	}
	var magic []byte
	if len(e.Data) >= 4 {
		magic = e.Data[:4]
	}
	if kind := archiveKind(name, magic); kind != "" {
		r.openArchive(name, kind, bytes.NewReader(e.Data), int64(len(e.Data)), m, depth)
		e.Close()
		return nil
	}
	r.keep(e)
	return nil
}

// spill writes a large member to an unlinked temporary file and maps it.
func spill(name string, head *bytes.Buffer, rest io.Reader) (Entry, error) {
	f, err := os.CreateTemp("", "benchlens-member-*")
	if err != nil {
		return Entry{}, fmt.Errorf("no room for a temporary copy: %v", err)
	}
	defer f.Close()
	os.Remove(f.Name()) // unlinked: nothing is left behind, whatever happens next
	n, err := head.WriteTo(f)
	if err == nil {
		var m int64
		m, err = io.Copy(f, rest)
		n += m
	}
	if err != nil {
		return Entry{}, err
	}
	data, drop, unmap, err := mapOpen(f, n)
	if err != nil {
		return Entry{}, err
	}
	return Entry{Path: name, Data: data, Drop: drop, Close: unmap}, nil
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
	r := newReader(lim, nil)
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
