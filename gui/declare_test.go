package gui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"benchlens/library"
)

// "Declare the change" on the real H100 pair: the model swapped in for FP8 weights, on the
// linear path. The verdict reads it as a manifest's change block (the swap is no longer load
// drift), the view says what was declared, and the saved comparison keeps it.
func TestDeclareTheChangeInTheApp(t *testing.T) {
	u, _ := newTestApp(t, filepath.Join(t.TempDir(), "lib.db"))
	importH100(t, u)
	ui(func() { u.compare.setArm(true, "fp16") })
	ui(func() { u.compare.setArm(false, "fp8") })
	shownH100(t, u)
	if causes := get(func() string { return drawnText(u.compare.content) }); !strings.Contains(causes, "load_drift") {
		t.Fatalf("the undeclared swap is not load drift: %s", causes)
	}
	ui(func() { test.Tap(u.compare.declare) })
	eventually(t, "the declare dialog", func() bool { return shownText(u, "Declare the change") })
	ui(func() {
		top := topDialog(u)
		fields, ok := find(top, func(e *escEntry) bool { return strings.Contains(e.Text, "workload.model_name") })
		if !ok {
			t.Fatalf("the fields are not filled with the field that differs: %s", drawnText(top))
		}
		fields.SetText("workload.model_name")
		what, _ := find(top, func(e *escEntry) bool { return e.PlaceHolder == "what changed, e.g. FP8 weights" })
		what.SetText("FP8 weights")
		path, _ := find(top, func(s *widget.Select) bool { return true })
		path.SetSelected("linear")
	})
	tapButton(t, u, "Declare")
	deadline := time.Now().Add(5 * time.Minute) // compared again with the declaration: slow under -race
	for !get(func() bool { return u.compare.record != nil && u.compare.record.Change != nil }) {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for the comparison with the declared change")
		}
		time.Sleep(50 * time.Millisecond)
	}
	text := get(func() string { return drawnText(u.compare.content) })
	if strings.Contains(text, "load_drift") {
		t.Errorf("the declared swap is still load drift: %s", text)
	}
	if !strings.Contains(text, "Declared change: FP8 weights · fields workload.model_name · path linear") {
		t.Errorf("the view does not say what was declared: %s", text)
	}
	id := get(func() int64 {
		id, err := u.compare.saveOnce()
		if err != nil {
			t.Fatal(err)
		}
		return id
	})
	_, rec, err := library.SavedRecord(u.st, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Change == nil || rec.Change.What != "FP8 weights" || rec.Change.TargetPath() != "linear" {
		t.Errorf("the saved comparison's change: %+v", rec.Change)
	}
}
