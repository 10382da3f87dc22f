package library

import (
	"fmt"
	"slices"

	"benchlens/importers"
	"benchlens/importers/position"
	"benchlens/model"
)

// unserved takes from the items the server logs that climbed to them from a folder of no run
// (Item.Climbed) but cannot be their server's: a log whose server never came up (its start-up
// failed: LogEvidence.ServerFailure). Such a log sits in a lab's folder of a failed attempt beside the folder
// of the attempt that ran; attached, it gave the run that ran "server failed" and the failed
// attempt's target backend. A log beside a result, or above it, is its own and stays. Each
// file taken from every run is said once, as left unread; with no run it goes at the end of
// the import, as a file no run took.
func unserved(items []importers.Item, evidence map[string]*model.Evidence) []error {
	taken := map[string]bool{}
	var out []error
	for i := range items {
		it := &items[i]
		for _, f := range it.Climbed {
			ev := evidence[f.Name]
			if ev == nil || ev.Log == nil || ev.Log.Client != nil {
				continue // not a server log, or read before (a re-import), or a client's console
			}
			if len(ev.Log.ServerFailure) == 0 {
				continue
			}
			why := fmt.Sprintf("not stored: a server log from a folder of no run whose server never came up (line %d): it served no run",
				ev.Log.ServerFailure[0].N)
			it.Attachments = slices.DeleteFunc(it.Attachments, func(a *model.SourceFile) bool { return a == f })
			it.Readings = slices.DeleteFunc(it.Readings, func(r importers.Reading) bool { return len(r.Files) > 0 && r.Files[0] == f })
			if !taken[f.Name] {
				taken[f.Name] = true
				out = append(out, &position.Error{File: f.Name, Offset: -1, Err: &importers.Skip{Why: why}})
			}
		}
		it.Climbed = nil
	}
	return out
}
