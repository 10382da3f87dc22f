package importers

import (
	"bytes"
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"benchlens/importers/format"
	"benchlens/model"
)

// Every row of the registry says what it is and has both functions, under a name of its own.
func TestFormatsAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range Formats {
		if f.Name == "" || f.Kind == "" || f.Sniff == nil || f.Parse == nil {
			t.Errorf("incomplete row %+v", f)
		}
		if seen[f.Name] {
			t.Errorf("two rows named %q", f.Name)
		}
		seen[f.Name] = true
	}
}

// Bug: two trace detectors disagreed. trace.Sniff read the first event only up to its first
// '}' (so not past an args object) and wanted ph, pid and name; result's own check wanted ph
// and ts. A metadata event whose args come first passed neither, and the trace was kept
// unread. Now the trace package alone decides, from the whole first event.
func TestOneTraceDetector(t *testing.T) {
	for _, tt := range []struct{ name, data, kind string }{
		{"trace_view.json", `[{"name": "aten::mm", "args": {"Sequence number": 1}, "ph": "X", "ts": 10, "dur": 5, "pid": 1, "tid": 1}]`, model.KindTrace},
		{"trace_view.json", `[{"args": {"name": "Ascend Hardware"}, "name": "process_name", "ph": "M", "pid": 1, "tid": 0}]`, model.KindTrace},
		{"t.json", `{"traceEvents": [{"ph": "X", "name": "k", "ts": 1, "dur": 1, "pid": 0, "tid": 7}]}`, model.KindTrace},
		{"r.json", `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "completed": 2}`, model.KindResult},
		{"a.json", `[{"ph": "X"}]`, model.KindOther}, // an event needs ts or pid
	} {
		row, p, err := identify(&format.File{Name: tt.name, Data: []byte(tt.data)})
		if got := storedKind(row, len(p.Runs), p.Part); err != nil || got != tt.kind {
			t.Errorf("%s: kind %q, error %v; want %q", tt.data, got, err, tt.kind)
		}
	}
}

// withFormats puts rows before the registry's own for one test.
func withFormats(t *testing.T, rows ...Format) {
	old := Formats
	Formats = append(append([]Format{}, rows...), old...)
	t.Cleanup(func() { Formats = old })
}

func prefixed(prefix string) func(*format.File) bool {
	return func(f *format.File) bool { return bytes.HasPrefix(f.Data, []byte(prefix)) }
}

const vllmResult = `{"date": "20250101-000000", "backend": "vllm", "model_id": "m", "num_prompts": 2, "completed": 2}`

// A format recognised only to be kept unread gets a line saying what it is beside the runs; one
// recognised to be refused is reported as an error; a Parse that finds the file is not its
// format after all hands it on to the next row.
func TestUnreadRefusedAndHandedOn(t *testing.T) {
	withFormats(t,
		Format{Name: "report", Kind: model.KindOther, Sniff: prefixed("NSYS"), Parse: format.Unread("a report: export it first")},
		Format{Name: "thin", Kind: model.KindResult, Sniff: prefixed("MINDIE"), Parse: format.Refuse("a thin result: not imported")},
		Format{Name: "greedy", Kind: model.KindResult, Sniff: prefixed("{"), Parse: func(*format.File) (format.Parsed, error) {
			return format.Parsed{}, format.ErrUnrecognized
		}},
	)
	items, errs := Assemble([]Entry{
		heapEntry("b/run/result.json", []byte(vllmResult)),
		heapEntry("b/run/profile.nsys-rep", []byte("NSYS…")),
		heapEntry("b/run/mindie.csv", []byte("MINDIE…")),
	})
	if len(items) != 1 || items[0].Run.Tool != "vllm" {
		t.Fatalf("%d runs; the greedy row must hand the result on", len(items))
	}
	var notes, refusals []string
	for _, err := range errs {
		if IsSkip(err) {
			notes = append(notes, err.Error())
		} else {
			refusals = append(refusals, err.Error())
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "profile.nsys-rep") || !strings.Contains(notes[0], "kept beside the runs, unread: a report: export it first") {
		t.Errorf("notes %q", notes)
	}
	if len(refusals) != 1 || !strings.Contains(refusals[0], "mindie.csv") || !strings.Contains(refusals[0], "a thin result: not imported") {
		t.Errorf("refusals %q", refusals)
	}
	if got := len(items[0].Attachments); got != 1 || items[0].Attachments[0].Kind != model.KindOther {
		t.Errorf("attachments %+v: the unread report is kept beside the run", items[0].Attachments)
	}
}

// The files of one capture beside a run are read together into one piece of evidence, stored
// with the first; a second capture in another folder is its own, and a file its capture's
// Key leaves alone is read by its row.
func TestCaptureReadsItsFilesTogether(t *testing.T) {
	var reads [][]string
	capture := &Capture{
		Name: "test profiler",
		Key: func(p string) string {
			if dir := path.Dir(p); path.Base(dir) == "PROFILER_OUTPUT" {
				return path.Dir(dir)
			}
			return ""
		},
		Read: func(files []*format.File) (format.Parsed, error) {
			var names []string
			for _, f := range files {
				names = append(names, f.Base())
			}
			reads = append(reads, names)
			return format.Parsed{Evidence: &model.Evidence{Format: "test capture of " + strings.Join(names, "+")}, Warnings: []model.Warning{model.Note("read together")}}, nil
		},
	}
	single := func(f *format.File) (format.Parsed, error) {
		return format.Parsed{Evidence: &model.Evidence{Format: "alone"}}, nil
	}
	withFormats(t,
		Format{Name: "capture steps", Kind: model.KindTrace, Sniff: prefixed("STEPS"), Parse: single, Capture: capture},
		Format{Name: "capture ops", Kind: model.KindTrace, Sniff: prefixed("OPS"), Parse: single, Capture: capture},
	)
	items, errs := Assemble([]Entry{
		heapEntry("b/run/loose/steps.csv", []byte("STEPS")),
		heapEntry("b/run/rank0_pt/PROFILER_OUTPUT/ops.csv", []byte("OPS")),
		heapEntry("b/run/rank0_pt/PROFILER_OUTPUT/steps.csv", []byte("STEPS")),
		heapEntry("b/run/rank1_pt/PROFILER_OUTPUT/steps.csv", []byte("STEPS")),
		heapEntry("b/run/result.json", []byte(vllmResult)),
	})
	if len(errs) > 0 || len(items) != 1 {
		t.Fatalf("%d runs, errors %v", len(items), errs)
	}
	it := items[0]
	if len(it.Attachments) != 4 || len(it.Readings) != 3 {
		t.Fatalf("%d attachments, %d readings; want 4 files read as 3", len(it.Attachments), len(it.Readings))
	}
	var formats []string
	for _, r := range it.Readings {
		ev, err := ReadEvidence(r, DefaultLimits)
		if err != nil {
			t.Fatal(err)
		}
		if ev.Kind != model.KindTrace {
			t.Errorf("%s: kind %q", ev.Format, ev.Kind)
		}
		formats = append(formats, r.Files[0].Name+": "+ev.Format+" "+strings.Join(model.WarningsEnglish(ev.Warnings), ","))
	}
	want := []string{
		"b/run/loose/steps.csv: alone ",
		"b/run/rank0_pt/PROFILER_OUTPUT/ops.csv: test capture of ops.csv+steps.csv read together",
		"b/run/rank1_pt/PROFILER_OUTPUT/steps.csv: test capture of steps.csv read together",
	}
	if strings.Join(formats, "\n") != strings.Join(want, "\n") {
		t.Errorf("readings:\n%s\nwant:\n%s", strings.Join(formats, "\n"), strings.Join(want, "\n"))
	}
	if len(reads) != 2 {
		t.Errorf("capture read %d times: %v", len(reads), reads)
	}
}

// Evidence is read only for a file beside a run: Assemble sniffs it and leaves the parsing to
// ReadEvidence, whose errors name the file.
func TestEvidenceParsedOnlyWhenRead(t *testing.T) {
	parsed := 0
	withFormats(t, Format{Name: "counted", Kind: model.KindLog, Sniff: prefixed("LOG"), Parse: func(*format.File) (format.Parsed, error) {
		parsed++
		return format.Parsed{}, errors.New("line 2: broken")
	}})
	if _, errs := Assemble([]Entry{heapEntry("alone/server.log", []byte("LOG"))}); parsed != 0 || len(errs) != 1 || !IsSkip(errs[0]) {
		t.Fatalf("a log beside no run: parsed %d times, report %v", parsed, errs)
	}
	items, _ := Assemble([]Entry{
		heapEntry("b/run/result.json", []byte(vllmResult)),
		heapEntry("b/run/server.log", []byte("LOG")),
	})
	if parsed != 0 || len(items) != 1 || len(items[0].Readings) != 1 {
		t.Fatalf("parsed %d times while assembling, %d runs", parsed, len(items))
	}
	_, err := ReadEvidence(items[0].Readings[0], DefaultLimits)
	if parsed != 1 || err == nil || err.Error() != `b/run/server.log: line 2: broken` {
		t.Errorf("parsed %d times, error %v", parsed, err)
	}
}

// FuzzIdentify offers any bytes to the whole registry and reads evidence the way an attached
// file is read: whatever the bytes, every row's sniff and reader answers (an error at worst),
// never panics.
func FuzzIdentify(f *testing.F) {
	for _, pattern := range []string{"../testdata/fixtures/*/*", "*/testdata/*", "*/testdata/*/*"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil && len(data) < 1<<16 {
				f.Add(filepath.Base(file), data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		row, _, _ := identify(&format.File{Name: name, Data: data})
		if row != nil && row.Evidence() {
			_, _ = ReadEvidence(Reading{Format: row, Files: []*model.SourceFile{{Name: name, Data: data}}}, DefaultLimits)
		}
	})
}
