package importers

import (
	"fmt"

	"benchlens/importers/position"
	"benchlens/importers/serverlog"
	"benchlens/importers/trace"
	"benchlens/importers/utilisation"
	"benchlens/model"
)

// ReadEvidence reads what a log, utilisation or trace file says. Other kinds give nil. The
// limit bounds a compressed trace's expansion.
func ReadEvidence(f *model.SourceFile, lim Limits) (*model.Evidence, error) {
	ev := &model.Evidence{Kind: f.Kind}
	switch f.Kind {
	case model.KindLog:
		l, err := serverlog.Parse(f.Name, f.Data)
		if err != nil {
			return nil, position.InFile(f.Name, err)
		}
		ev.Log, ev.Format = l, l.Engine+" server log"
	case model.KindUtilisation:
		u, warnings, err := utilisation.Parse(f.Name, f.Data)
		if err != nil {
			return nil, position.InFile(f.Name, err)
		}
		ev.Utilisation, ev.Format, ev.Warnings = u, u.Tool, warnings
	case model.KindTrace:
		t, err := trace.Parse(f.Name, f.Data, lim.MaxBytes)
		if err != nil {
			return nil, position.InFile(f.Name, err)
		}
		ev.Trace, ev.Format = t, t.Source
	default:
		return nil, nil
	}

	if ev.Format == "" {
		ev.Format = fmt.Sprint(f.Kind)
	}
	return ev, nil
}
