// Package format is the contract between the importers' registry (importers.Formats) and the
// reader of each file format: the File a format is offered, the Parsed it gives back, and
// ErrUnrecognized, the answer of a reader that finds, reading further than its sniff looked,
// that the file is another format's (pprof's profile.ParseData and its errUnrecognized are
// the model). It sits below every reader package, which is why it holds no format itself.
package format

import (
	"bytes"
	"errors"
	"strings"

	"benchlens/model"
)

// ErrUnrecognized is what Parse returns for a file that is not its format after all; the
// registry then asks the next row. Any other error refuses the file.
var ErrUnrecognized = errors.New("not this format")

// File is one file offered to the formats. Data may be mapped: readers never write to it.
type File struct {
	Name string // path inside the bundle, slash-separated
	Data []byte
	// Drop, when set, is told how far a reader has got, so the pages of a mapped file before
	// that offset can leave memory.
	Drop func(upTo int)
	// MaxBytes bounds what a compressed file may expand to; 0 leaves the reader's default.
	MaxBytes int64

	lead    []byte
	leadSet bool
	sniffs  map[string]any
	quoted  *Quoted
}

// Sniffed returns what sniff tells of the file, worked out once per file and key: several
// rows of the registry ask the same question (nine ask trace.Detect), and each asking scanned
// the head again, a third of a small result's import.
func (f *File) Sniffed(key string, sniff func() any) any {
	if v, ok := f.sniffs[key]; ok {
		return v
	}
	v := sniff()
	if f.sniffs == nil {
		f.sniffs = map[string]any{}
	}
	f.sniffs[key] = v
	return v
}

// Lead is the file without a UTF-8 byte-order mark and leading white space: where content
// sniffers look.
func (f *File) Lead() []byte {
	if !f.leadSet {
		f.lead = bytes.TrimLeft(bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf")), " \t\r\n")
		f.leadSet = true
	}
	return f.lead
}

// SniffBytes is how much of a file's lead a sniffer reads (Head).
const SniffBytes = 64 << 10

// Head is the first SniffBytes of Lead: where a sniffer looks for the keys that tell its
// format. A search of the whole lead cost a 112 MB result a scan of all of it for each
// format's key, twice (Recognised, then identify): a third of its import.
func (f *File) Head() []byte {
	lead := f.Lead()
	return lead[:min(len(lead), SniffBytes)]
}

// HeadQuotes reports whether the head holds key in double quotes (`"key"`), as
// bytes.Contains(f.Head(), `"key"`) does; key holds no quote. The head is read once for all
// the keys sniffers ask of it (Quote): a dozen of them scanning 64 KiB each cost a small
// result more than parsing it.
func (f *File) HeadQuotes(key string) bool {
	if f.quoted == nil {
		f.quoted = Quote(f.Head())
	}
	return f.quoted.Has(key)
}

// Quoted is every text that stands between two consecutive double quotes of a text: `"k"`,
// k holding no quote, occurs in the text exactly when k is one of them (the quote after the
// first of `"k"` is the next one). It answers all of a sniffer's bytes.Contains of quoted keys
// from one pass over the text (a JSON head of 9 KB holds a few hundred quotes).
type Quoted struct {
	text   []byte
	quotes []int32 // offsets of the text's quotes
}

// Quote finds the quotes of b.
func Quote(b []byte) *Quoted {
	q := &Quoted{text: b}
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return q
		}
		q.quotes = append(q.quotes, int32(i+j))
		i += j + 1
	}
}

// Has reports whether `"key"` occurs in the text; key holds no quote.
func (q *Quoted) Has(key string) bool {
	for k := 1; k < len(q.quotes); k++ {
		from, to := q.quotes[k-1]+1, q.quotes[k]
		if int(to-from) == len(key) && string(q.text[from:to]) == key {
			return true
		}
	}
	return false
}

// Base is the file's name without its folders.
func (f *File) Base() string { return f.Name[strings.LastIndexAny(f.Name, `/\`)+1:] }

// NameEnds reports whether the name ends in one of suffixes, case-insensitively, a ".gz"
// after it ignored (the bundle reader has decompressed it).
func (f *File) NameEnds(suffixes ...string) bool {
	lower := strings.TrimSuffix(strings.ToLower(f.Name), ".gz")
	for _, s := range suffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	return false
}

// Parsed is what a file turned out to hold. A result's reader fills Runs or Part; an
// evidence reader fills Evidence; a reader of a file recognised but not read says Why.
type Parsed struct {
	Runs []*model.Run // benchmark runs of a result
	// Part holds per-request records that belong to a summary in another file of the same
	// folder (llmperf individual responses, a genai-perf raw export, AIPerf records).
	Part *Part
	// Evidence is what a log, utilisation or profiler trace (or any other attached file) says;
	// its Kind is the row's, and Format, when the reader leaves it empty, the kind.
	Evidence *model.Evidence
	// Manifest is a bundle.yaml's keys.
	Manifest model.Manifest
	// Why says what a recognised file holds instead of a run (an AIPerf roll-up over runs, a
	// report that needs exporting first), for the line the import report gives it.
	Why string
	// Warnings are what the reader noticed and let through. The registry adds them to every
	// run of the file, or to its evidence.
	Warnings []model.Warning
	// Phases are a phase list's records: which result files beside it were warm-up runs and
	// which were measured (METHOD.md rule 12).
	Phases []Phase
}

// Phase is one record of a phase list: a result file (or a folder of them) and its phase.
type Phase struct {
	File   string // as the list names it: a path below the list's folder, a tail of one, or the lab's absolute path
	Phase  string // model.PhaseWarmup or model.PhaseMeasured
	Record int    // 1-based record (line of a CSV) that says so; 0 in bundle.yaml
}

// Part is per-request data waiting for its summary.
type Part struct {
	Tool     string
	Stem     string // the run's file stem, to pair with its summary
	Requests []model.Request
	Extra    map[string]any
	// Warmup counts records the tool marked as warm-up (AIPerf's benchmark_phase "warmup"):
	// left out of Requests, as the tool left them out of its statistics.
	Warmup int
	// Fill, when set, completes the run from what the part's file says beyond per-request
	// records (MLPerf LoadGen's detail log: its version, the test date, the events it flagged).
	// A part without its summary is a run of its own, which Fill then makes whole; What says
	// what the part is ("per-request records" when empty).
	Fill func(*model.Run)
	What string
	// All makes the part complete every run of its tool in its folder (inference-perf's
	// config.yaml, one for all its stages) with Fill; alone it is no run.
	All bool
	// Refs names files of the bundle the records point into, relative to the part's folder
	// (AISBench's time points in db_data/<db_name>). Resolve is given their bytes (nil for
	// one the bundle lacks) before the part joins its run, and says what it could not read.
	Refs    []string
	Resolve func(files map[string][]byte) (warnings []model.Warning)
	// Warnings are what reading the part noticed; they go to its run.
	Warnings []model.Warning
}

// Unread is the Parse of a format benchlens recognises and keeps beside the runs without
// reading: why says what it is and what to do instead ("an Nsight Systems report: export it
// with nsys export --type sqlite").
func Unread(why string) func(*File) (Parsed, error) {
	return func(*File) (Parsed, error) { return Parsed{Why: why}, nil }
}

// Refuse is the Parse of a format benchlens recognises only to refuse it: the import reports
// the file as rejected, saying what it is and why.
func Refuse(why string) func(*File) (Parsed, error) {
	return func(*File) (Parsed, error) { return Parsed{}, errors.New(why) }
}
