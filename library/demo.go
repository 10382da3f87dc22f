package library

import (
	"io/fs"

	"benchlens/demo"
	"benchlens/importers"
	"benchlens/store"
)

// LoadDemo imports the sample bundles embedded in the binary, one bundle per arm folder,
// named demo/<arm>.
func LoadDemo(st *store.Store) Report {
	var rep Report
	fsys := demo.Samples()
	arms, err := fs.ReadDir(fsys, ".")
	if err != nil {
		rep.Errors = append(rep.Errors, err)
		return rep
	}
	for _, arm := range arms {
		if !arm.IsDir() {
			continue
		}
		entries, errs := importers.ReadFS(fsys, arm.Name(), arm.Name(), importers.DefaultLimits)
		rep.Errors = append(rep.Errors, errs...)
		rep.add(ImportEntries(st, "demo/"+arm.Name(), entries, Options{}))
	}
	return rep
}
