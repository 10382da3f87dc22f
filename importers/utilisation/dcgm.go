package utilisation

import (
	"strconv"
	"strings"
)

// dcgm reads `dcgmi dmon -e … [-d ms]` (§7.3): header "#Entity GPUTL …", an optional unit
// row starting with ID, rows "GPU 0 …". Busy is GPUTL (0-100); without it GRACT or SMACT
// (0-1 fractions, ×100). Memory busy is MCUTL, else DRAMA ×100. GPU, GPU-I and GPU-CI
// entities become devices ("0", "GPU-I 1", "GPU-CI 2"); switches, links and CPUs are skipped.
func (p *parser) dcgm() {
	var cols []string
	iBusy, iMem := -1, -1
	busyScale, memScale := 1.0, 1.0
	clocked := false
	for ln, l := range p.ls {
		line := ln + 1
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '$' {
			continue // blank, or the command line echoed
		}
		if t[0] == '#' {
			f := strings.Fields(t[1:])
			if len(f) > 0 && strings.EqualFold(f[0], "entity") {
				cols = f[1:]
				for i := range cols {
					cols[i] = strings.ToUpper(cols[i])
				}
				busyScale, memScale = 1, 1
				iBusy = index(cols, "GPUTL")
				if iBusy < 0 {
					if iBusy = firstIndex(cols, "GRACT", "SMACT"); iBusy >= 0 {
						busyScale = 100
						p.n.add("no GPUTL column: busy is %s ×100", cols[iBusy])
					} else {
						p.n.add("no GPUTL, GRACT or SMACT column: busy unknown")
					}
				}
				iMem = index(cols, "MCUTL")
				if iMem < 0 {
					if iMem = index(cols, "DRAMA"); iMem >= 0 {
						memScale = 100
					}
				}
				if p.headerLine == 0 {
					p.headerLine = line
				}
			}
			continue
		}
		f := strings.Fields(t)
		if f[0] == "ID" {
			continue // unit row
		}
		if cols == nil {
			p.n.skip(line, "text before the first header")
			continue
		}
		if len(f) < 2 {
			p.n.skip(line, "row without an entity")
			continue
		}
		if _, err := strconv.ParseUint(f[1], 10, 32); err != nil {
			p.n.skip(line, "entity id is not a number")
			continue
		}
		var id string
		switch f[0] {
		case "GPU":
			id = f[1]
		case "GPU-I", "GPU-CI":
			id = f[0] + " " + f[1]
		default:
			p.n.skip(line, "entity is not a GPU ("+f[0]+")")
			continue
		}
		vals := f[2:]
		if len(vals) != len(cols) {
			p.n.skip(line, "row with a different number of fields than its header")
			continue
		}
		busy, mem, ok := busyMem(vals, iBusy, iMem, busyScale, memScale)
		if !ok {
			p.n.skip(line, "busy value is not a number")
			continue
		}
		if !clocked {
			clocked = true
			p.noClock("dcgmi", 0.001, "-d", "--delay")
		}
		p.b.add(id, "", p.b.tickTime(id), busy, mem)
	}
}
