package importers

import (
	"hash/maphash"

	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/importers/result"
	"benchlens/internal/par"
	"benchlens/model"
)

// A Plan is a bundle grouped as Assemble groups it, worked out from what each file says
// without holding every file's runs: a folder of 100,000 small results would hold them all
// (their records, their statistics, their bytes) until the last is stored. Each file is read
// and parsed once to plan, and the results again, a window at a time, to store (Fill).
//
// The grouping reads only a run's tool, model, label and role, and the other files' names
// and kinds; a result's runs change only by the files beside them (bundle.yaml, phase lists),
// which the plan keeps. Parts (per-request records that join a summary, a tool's config.yaml)
// change the runs they join: a bundle with any is assembled whole (Assemble).
type Plan struct {
	// Items are the bundle's runs, in Assemble's order; each holds only what the grouping read
	// and decided (Planned, Run nil), until Fill reads it whole.
	Items []Item
	seed  maphash.Seed
	// results are the files runs were planned from, by name: one map of a few words a file,
	// where three (sums, run counts, the entries' places) held 120 bytes a file of a folder.
	results map[string]planned
	// kept are the readings of the bundle's first files, kept whole with their bytes (see
	// PlanBundle): Fill takes them rather than parsing again.
	kept map[string]*identified
}

// PlanBundle reads and parses the entries on every core, keeping the bytes of the files no
// run is read from (logs, manifests, traces: Items' attachments) and letting a listed result's
// go once parsed, except the first keep bytes of files, whose results are kept read whole
// for Fill: a bundle of a few thousand small files is parsed once, a larger one's first
// windows too. Past those, a result is read only for what the grouping needs where its
// format can (Format.Plan: a vLLM result's per-request arrays are checked, not built), since
// Fill parses it whole anyway. It returns nil when the bundle has parts: Assemble reads it
// whole.
func PlanBundle(entries []Entry, keep int64) (*Plan, []error) {
	pl := &Plan{seed: maphash.MakeSeed(), results: map[string]planned{}, kept: map[string]*identified{}}
	ids := make([]identified, len(entries))
	sums := make([]uint64, len(entries))
	whole := make([]*identified, len(entries))
	first := 0 // the entries kept whole
	for size := int64(0); first < len(entries); first++ {
		if size += entries[first].Size(); size > keep {
			break
		}
	}
	par.Each(len(entries), identifyGrain, func(_, i int) {
		e := &entries[i]
		if err := e.Load(); err != nil {
			ids[i].err = err // refused whole, as ReadBundle refuses a file it cannot read
			return
		}
		ids[i] = identifyEntry(*e, i >= first) // read whole when kept for Fill, else light
		switch {
		case len(ids[i].p.Runs) == 0:
		case i < first:
			w := ids[i]
			whole[i] = &w
		case e.Listed():
			sums[i] = maphash.Bytes(pl.seed, e.Data)
			e.Unload()
		}
		ids[i] = grouped(ids[i])
	})
	for i, e := range entries {
		if ids[i].p.Part != nil {
			return nil, nil
		}
		if n := len(ids[i].heads); n > 0 {
			r := planned{runs: n, at: i}
			switch {
			case whole[i] != nil:
				pl.kept[e.Path] = whole[i]
			case e.Listed():
				r.sum, r.summed = sums[i], true
			}
			pl.results[e.Path] = r
		}
	}
	items, errs := group(entries, ids)
	// A folder's runs mostly share their tool, model, label and phase: each file's reading
	// gave them strings of its own, held for the whole import.
	same := map[string]string{}
	one := func(s string) string {
		if t, ok := same[s]; ok {
			return t
		}
		same[s] = s
		return s
	}
	for i := range items {
		h := &items[i].Planned
		h.Tool, h.Model, h.Label, h.Role = one(h.Tool), one(h.Model), one(h.Label), model.Role(one(string(h.Role)))
		h.Phase, h.PhaseWhy = one(h.Phase), one(h.PhaseWhy)
	}
	pl.Items = items
	return pl, errs
}

// planned is what a plan keeps of a result file for Fill: how many runs it gave, its place
// among the entries planned, and, when it is listed (read again to be stored), a sum of the
// bytes it was planned from.
type planned struct {
	sum    uint64
	summed bool
	runs   int
	at     int
}

// grouped keeps of a file's reading what the grouping reads: each run's head (its records,
// statistics and warnings are read again by Fill), the manifest, the phase list, what a file
// holds instead of a run, and whether it is a part.
func grouped(id identified) identified {
	id.heads = id.runHeads()
	p := id.p
	id.p = format.Parsed{Part: p.Part, Manifest: p.Manifest, Why: p.Why, Phases: p.Phases}
	return id
}

// Fill reads whole the runs of items, every planned run of one result file (Items sharing
// Result), from data, the file's bytes (or takes them as the plan kept them): each run as
// the file gives it, with what the grouping decided (manifest, label, role, phase), settled
// as Assemble settles it. data that is not what was planned from is refused (ErrChanged), the
// items left as they were.
func (p *Plan) Fill(items []Item, data []byte) error {
	name := items[0].Result.Name
	if err := p.Same(name, data); err != nil {
		return err
	}
	var id identified
	if w := p.kept[name]; w != nil && w.p.Runs != nil {
		id, *w = *w, identified{} // read once: its runs are the items' now
	} else {
		id.err = Guard(name, func() (err error) {
			id.row, id.p, err = identify(&format.File{Name: name, Data: data})
			return err
		})
	}
	if len(id.p.Runs) != p.results[name].runs {
		if id.err != nil {
			return id.err
		}
		return &position.Error{File: name, Offset: -1, Err: ErrChanged}
	}
	for i := range items {
		run := id.p.Runs[items[i].Index]
		run.Warnings = append(run.Warnings, id.p.Warnings...)
		items[i].Planned.apply(run)
		result.Settle(run)
		items[i].Run = run
	}
	return nil
}

// Same refuses data (ErrChanged) when it is not the bytes the listed file name was planned
// from: a result, or a result kept as another's part (a CSV beside its JSON).
func (p *Plan) Same(name string, data []byte) error {
	if r := p.results[name]; r.summed && maphash.Bytes(p.seed, data) != r.sum {
		return &position.Error{File: name, Offset: -1, Err: ErrChanged}
	}
	return nil
}

// At is the place, among the entries planned (PlanBundle's), of the result file name: a
// window reads its results' bytes there.
func (p *Plan) At(name string) (int, bool) {
	r, ok := p.results[name]
	return r.at, ok
}

// Window cuts items into windows of about n runs or size bytes of result files, never
// splitting the runs of one result file: what Fill is given at once.
func Window(items []Item, n int, size int64) [][]Item {
	var out [][]Item
	start, bytes := 0, int64(0)
	for i := range items {
		if i > start && items[i].Result != items[i-1].Result && (i-start >= n || bytes >= size) {
			out = append(out, items[start:i])
			start, bytes = i, 0
		}
		if i == start || items[i].Result != items[i-1].Result {
			bytes += items[i].Result.Size
			for _, f := range items[i].Parts {
				bytes += f.Size
			}
		}
	}
	if start < len(items) {
		out = append(out, items[start:])
	}
	return out
}
