package importers

import (
	"errors"

	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/model"
)

// Format is one row of the registry (Formats): a kind of file benchlens recognises by its
// content, with the one function that tells it and the one that reads it.
type Format struct {
	// Name says what the file is ("nvidia-smi dmon", "vLLM / SGLang benchmark result JSON").
	Name string
	// Kind is what the file is to a run, a model.Kind* constant. Results (model.KindResult:
	// runs, or per-request records for a summary beside them), manifests, phase lists and model.KindOther
	// (recognised, then kept unread or refused) are read as the bundle is assembled. Every
	// other kind is evidence (log, utilisation, trace, ...): read by ReadEvidence once the file
	// has found its runs, and only then.
	Kind string
	// Sniff tells from the file's name and first bytes (64 KiB at most) whether it is this
	// format. It is cheap and never fails. Rows are asked in order; the first to say yes reads
	// the file.
	Sniff func(f *format.File) bool
	// Parse reads the file. format.ErrUnrecognized hands a result, manifest or other file on
	// to the next row whose Sniff says yes; for evidence, whose reading comes later, Sniff
	// decides and ErrUnrecognized is an error like any other. Errors need not name the file:
	// the registry adds it.
	Parse func(f *format.File) (format.Parsed, error)
	// Plan, when set, reads of a file only what a plan groups its runs by (PlanBundle): each
	// run's tool, model, label and role, and nothing else of it. ok is true only when Parse
	// would give those runs without an error; otherwise Parse reads the file.
	Plan func(f *format.File) (p format.Parsed, ok bool)
	// Capture, when set, makes the file one of several a tool writes together; see Capture.
	Capture *Capture
	// Applies, when set, says whether a file of this format beside or above a run belongs to
	// it, from the two paths: an MLPerf submission's systems/<system>.json belongs to the runs
	// under results/<system>/ only.
	Applies func(file, result string) bool
}

// Evidence reports whether files of this format are evidence beside a run rather than
// results, manifests or files kept unread.
func (f *Format) Evidence() bool {
	switch f.Kind {
	case model.KindResult, model.KindCompanion, model.KindManifest, model.KindPhases, model.KindOther:
		return false
	}
	return true
}

// Capture is output a tool writes as several files of one folder that make sense only
// together (torch_npu's ASCEND_PROFILER_OUTPUT: trace_view.json, kernel_details.csv,
// step_trace_time.csv, …). Evidence rows that share a Capture, whose files beside one run give
// the same Key, are read together by Read into one piece of evidence, stored with the first
// of them; the others stay attached to the run as files.
type Capture struct {
	Name string
	// Key names the capture a file belongs to from its path: e.g. the folder above
	// ASCEND_PROFILER_OUTPUT. "" when the file stands alone; its row's Parse then reads it.
	Key func(path string) string
	// Read reads the files of one capture, in path order.
	Read func(files []*format.File) (format.Parsed, error)
}

// Reading is one piece of evidence to read: an attached file of an evidence format, or the
// files of one capture (Capture set), read together and stored with the first.
type Reading struct {
	Format  *Format
	Capture *Capture
	Files   []*model.SourceFile
}

// identify finds the row that reads f and, unless it is evidence (read later by
// ReadEvidence), reads it. No row knowing the file gives a nil row.
func identify(f *format.File) (*Format, format.Parsed, error) { return identifyFor(f, false) }

// identifyFor is identify; planning, a row's Plan reads the file when it can (see Format.Plan).
func identifyFor(f *format.File, planning bool) (*Format, format.Parsed, error) {
	for i := range Formats {
		row := &Formats[i]
		if !row.Sniff(f) {
			continue
		}
		if row.Evidence() {
			return row, format.Parsed{}, nil
		}
		if planning && row.Plan != nil {
			if p, ok := row.Plan(f); ok {
				return row, p, nil
			}
		}
		p, err := row.Parse(f)
		if errors.Is(err, format.ErrUnrecognized) {
			continue
		}
		if err != nil {
			err = position.InFile(f.Name, err)
		}
		return row, p, err
	}
	return nil, format.Parsed{}, nil
}

// Recognised reports whether some format of the registry sniffs the entry as its own: a file
// worth storing before its runs are known (the rest, kept only beside a run, wait for it).
// It only sniffs, and may run beside Assemble.
func Recognised(e Entry) bool {
	f := &format.File{Name: e.Path, Data: e.Data}
	for i := range Formats {
		if Formats[i].Sniff(f) {
			return true
		}
	}
	return false
}

// storedKind is the kind a file is stored with: what its row read, a result format that held
// no run being a file kept unread.
func storedKind(row *Format, runs int, part *format.Part) string {
	switch {
	case row == nil:
		return model.KindOther
	case runs > 0:
		return model.KindResult
	case part != nil:
		return model.KindCompanion
	case row.Kind == model.KindResult:
		return model.KindOther
	}
	return row.Kind
}

// ReadEvidence reads what an attached log, utilisation trace, profiler trace (or any other
// evidence format) says; a capture's files are read together. The limit bounds a compressed
// file's expansion.
func ReadEvidence(r Reading, lim Limits) (*model.Evidence, error) {
	files := make([]*format.File, len(r.Files))
	for i, sf := range r.Files {
		files[i] = &format.File{Name: sf.Name, Data: sf.Data, MaxBytes: lim.MaxBytes}
	}
	var p format.Parsed
	var err error
	if r.Capture != nil {
		p, err = r.Capture.Read(files)
	} else {
		p, err = r.Format.Parse(files[0])
	}
	if err != nil {
		return nil, position.InFile(files[0].Name, err)
	}
	ev := p.Evidence
	if ev == nil {
		ev = &model.Evidence{}
	}
	ev.Kind = r.Format.Kind
	if ev.Format == "" {
		ev.Format = r.Format.Kind
	}
	ev.Warnings = append(ev.Warnings, p.Warnings...)
	return ev, nil
}

// readings lists the evidence to read among a run's attachments, in their order: one per
// file, or one per capture.
func readings(files []*model.SourceFile, rowOf map[*model.SourceFile]*Format) []Reading {
	type key struct {
		c   *Capture
		key string
	}
	var out []Reading
	at := map[key]int{}
	for _, f := range files {
		row := rowOf[f]
		if row == nil || !row.Evidence() {
			continue
		}
		if c := row.Capture; c != nil {
			if k := c.Key(f.Name); k != "" {
				if i, ok := at[key{c, k}]; ok {
					out[i].Files = append(out[i].Files, f)
					continue
				}
				at[key{c, k}] = len(out)
				out = append(out, Reading{Format: row, Capture: c, Files: []*model.SourceFile{f}})
				continue
			}
		}
		out = append(out, Reading{Format: row, Files: []*model.SourceFile{f}})
	}
	return out
}
