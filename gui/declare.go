package gui

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/widget"

	"benchlens/model"
)

// Declaring the change in the app: what it is, the record fields it sets and the operator
// path it targets, bundle.yaml's change block (METHOD.md rule 10) given with the comparison
// for runs whose manifests lack it. The verdict reads it exactly as a manifest's, in its
// place; the record keeps it (Record.Change), so a saved comparison keeps it too. It belongs
// to the pair of arms it was declared for.

// declaredFor is the change declared for the pair on screen, nil when none.
func (v *compareView) declaredFor(base, cand string) *model.Change {
	return v.declared[[2]string{base, cand}]
}

// onDeclare opens "Declare the change": filled with the pair's declaration, else the
// comparison's (from the manifests), else the fields that differ.
func (v *compareView) onDeclare() {
	if v.record == nil {
		return
	}
	base, cand := v.sels[0], v.sels[1]
	var c model.Change
	switch {
	case v.declaredFor(base, cand) != nil:
		c = *v.declaredFor(base, cand)
	case v.record.Change != nil:
		c = *v.record.Change
	default:
		for _, cond := range v.record.Conditions() {
			if cond.State == model.ConditionDiffers {
				c.Fields = append(c.Fields, cond.Name)
			}
		}
	}
	what := newEscEntry(v.u)
	what.SetPlaceHolder(lang.L("what changed, e.g. FP8 weights"))
	what.SetText(c.What)
	fields := newEscEntry(v.u)
	fields.SetPlaceHolder("workload.model_name, dtype")
	fields.SetText(strings.Join(c.Fields, ", "))
	var paths []string
	for _, p := range model.ChangePaths {
		paths = append(paths, string(p))
	}
	path := widget.NewSelect(paths, nil)
	path.SetSelected(string(c.TargetPath()))
	hint := widget.NewLabel(lang.L("As bundle.yaml's change block (METHOD.md rule 10): the fields it sets are not held against it, and the path it targets is the one checked. Leave everything empty to remove the declaration."))
	hint.Wrapping = fyne.TextWrapWord
	d := dialog.NewForm(lang.L("Declare the change"), lang.L("Declare"), lang.L("Cancel"), []*widget.FormItem{
		widget.NewFormItem(lang.L("What"), what),
		widget.NewFormItem(lang.L("Fields"), fields),
		widget.NewFormItem(lang.L("Path"), path),
		widget.NewFormItem("", hint),
	}, func(ok bool) {
		if !ok {
			return
		}
		v.setDeclared(base, cand, what.Text, fields.Text, path.Selected)
	}, v.u.win)
	d.Resize(d.MinSize().Max(fyne.NewSize(560, 0)))
	v.u.showDialog(d)
}

// setDeclared records the pair's declaration (none when all is empty) and compares again.
func (v *compareView) setDeclared(base, cand, what, fields, path string) {
	c := model.Change{What: strings.TrimSpace(what), Path: model.ChangePath(path)}
	for _, f := range strings.Split(fields, ",") {
		if f = strings.TrimSpace(f); f != "" {
			c.Fields = append(c.Fields, f)
		}
	}
	key := [2]string{base, cand}
	if c.What == "" && len(c.Fields) == 0 {
		delete(v.declared, key)
	} else {
		if !slices.Contains(model.ChangePaths, c.Path) {
			c.Path = model.DefaultChangePath
		}
		v.declared[key] = &c
	}
	v.schedule()
}

// declaredText says what was declared with the comparison, "" when nothing was.
func declaredText(c *model.Change) string {
	if c == nil {
		return ""
	}
	s := fmt.Sprintf(lang.L("Declared change: %s"), c.What)
	if len(c.Fields) > 0 {
		s += " · " + lang.L("fields") + " " + strings.Join(c.Fields, ", ")
	}
	return s + " · " + lang.L("path") + " " + string(c.TargetPath())
}
