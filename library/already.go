package library

import (
	"fmt"
	"slices"
	"strings"

	"benchlens/internal/textsafe"
	"benchlens/model"
	"benchlens/store"
)

// alreadyStored is a run an import found in the library, with the label and role the import
// asked for (asked: by --label, --role or the bundle's manifest).
type alreadyStored struct {
	id       int64
	asked    bool
	label    string
	role     model.Role
	attached []string // files beside it that the stored run lacked, linked to it now
}

// alreadyLine names the runs of a bundle that were in the library already and, when the
// import asked for another label or role than they are stored with, says it was not applied:
// a re-import never moves runs; relabelling does. Files newly attached to them are named.
func alreadyLine(st *store.Store, bundle string, runs []alreadyStored) string {
	ids := make([]string, len(runs))
	var differ []string
	for i, r := range runs {
		ids[i] = fmt.Sprint(r.id)
		stored, err := st.Run(r.id)
		if err != nil || !r.asked || (stored.Label == r.label && stored.Role == r.role) {
			continue
		}
		if d := fmt.Sprintf("stored as %s/%s, not %s/%s", stored.Label, stored.Role, r.label, r.role); !slices.Contains(differ, d) {
			differ = append(differ, d)
		}
	}
	line := fmt.Sprintf("%s: run(s) %s already in the library", bundle, strings.Join(ids, ", "))
	if len(differ) > 0 {
		line += fmt.Sprintf(", %s: a re-import keeps them so; relabel them in the app (Library, Relabel)", strings.Join(differ, "; "))
	}
	for _, r := range runs {
		if len(r.attached) > 0 {
			quoted := make([]string, len(r.attached))
			for i, name := range r.attached {
				quoted[i] = textsafe.Quote(name)
			}
			line += fmt.Sprintf("; newly attached to run %d: %s", r.id, strings.Join(quoted, ", "))
		}
	}
	return line
}

// repeatLine says that a result's runs are runs this import stored from other files of it (a
// sweep's summary.json repeats its run=N.json): found twice, stored once. It read "already in
// the library" on a fresh library.
func repeatLine(name string, ids []int64) string {
	nums := make([]string, len(ids))
	for i, id := range ids {
		nums[i] = fmt.Sprint(id)
	}
	what := "its run is run " + nums[0]
	if len(ids) > 1 {
		what = fmt.Sprintf("its %d runs are runs %s", len(ids), strings.Join(nums, ", "))
	}
	return fmt.Sprintf("%s: %s, read from another file of this import: stored once", textsafe.Quote(name), what)
}
