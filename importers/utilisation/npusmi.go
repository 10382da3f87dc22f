package utilisation

import (
	"math"
	"strconv"
	"strings"
)

// npuNames splits an `npu-smi info watch` header into column names. Names contain single
// spaces ("AI Core(%)") and are sometimes only one space apart ("Ctrl Cpu(%) Memory(%)"): a
// name ends at ")" or at a gap of two or more spaces.
func npuNames(t string) []string {
	var names []string
	cur := ""
	i := 0
	for i < len(t) {
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
		j := i
		for j < len(t) && t[j] != ' ' && t[j] != '\t' {
			j++
		}
		if i == j {
			break
		}
		word := t[i:j]
		k := j
		for k < len(t) && (t[k] == ' ' || t[k] == '\t') {
			k++
		}
		if cur != "" {
			cur += " "
		}
		cur += word
		if strings.HasSuffix(word, ")") || k-j >= 2 || t[j:k] == "\t" || k == len(t) {
			names = append(names, cur)
			cur = ""
		}
		i = k
	}
	if cur != "" {
		names = append(names, cur)
	}
	return names
}

// npuKey normalises a column name: "AI Core(%)" → "aicore(%)".
func npuKey(s string) string {
	return strings.ToLower(strings.ReplaceAll(s, " ", ""))
}

// npuWatch reads `npu-smi info watch [-i id] [-c chip] [-d s] [-s …]` (§7.4): classic and
// newer column sets, reduced forms. Busy is "AI Core(%)" (else "NPU Util(%)", "AI Cube(%)"),
// memory busy is "Memory BW(%)". Devices are "npu" or "npu-chip" when an NPU shows
// several chips.
func (p *parser) npuWatch() {
	iNPU, iChip, iBusy, iMem, width := -1, -1, -1, -1, 0
	clocked := false
	for ln, l := range p.ls {
		line := ln + 1
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '$' || t[0] == '#' {
			continue // blank, the command line echoed, a comment
		}
		if strings.HasPrefix(strings.ToLower(t), "npuid") {
			names := npuNames(t)
			keys := make([]string, len(names))
			for i, n := range names {
				keys[i] = npuKey(n)
			}
			width = len(keys)
			iNPU = max(firstIndex(keys, "npuid(idx)", "npuid"), 0) // the line starts with NpuID…
			iChip = firstIndex(keys, "chipid(idx)", "chipid")
			iBusy = firstIndex(keys, "aicore(%)", "npuutil(%)", "aicube(%)")
			iMem = index(keys, "memorybw(%)")
			if iBusy < 0 {
				p.n.add("a header has no AI Core(%%) column: busy unknown")
			} else if keys[iBusy] != "aicore(%)" {
				p.n.add("no AI Core(%%) column: busy is %s", names[iBusy])
			}
			if p.headerLine == 0 {
				p.headerLine = line
			}
			continue
		}
		if width == 0 {
			p.n.skip(line, "text before the first header")
			continue
		}
		f := strings.Fields(t)
		if len(f) != width {
			p.n.skip(line, "row with a different number of fields than its header")
			continue
		}
		if _, err := strconv.ParseUint(f[iNPU], 10, 16); err != nil {
			p.n.skip(line, "NPU id is not a number")
			continue
		}
		chip := "0"
		if iChip >= 0 {
			chip = f[iChip]
			if _, err := strconv.ParseUint(chip, 10, 16); err != nil {
				p.n.skip(line, "chip id is not a number")
				continue
			}
		}
		busy, mem, ok := busyMem(f, iBusy, iMem, 1, 1)
		if !ok {
			p.n.skip(line, "busy value is not a number")
			continue
		}
		if !clocked {
			clocked = true
			p.noClock("npu-smi", 1, "-d")
		}
		id := f[iNPU] + "-" + chip
		p.b.add(id, "", p.b.tickTime(id), busy, mem)
	}
	p.npuIDs()
}

// npuIDs drops the chip from "npu-chip" ids unless some NPU shows more than one chip.
func (p *parser) npuIDs() {
	chips := map[string]int{}
	for _, id := range p.b.order {
		npu, _, _ := strings.Cut(id, "-")
		chips[npu]++
		if chips[npu] > 1 {
			return
		}
	}
	p.b.rename(func(id string) string { npu, _, _ := strings.Cut(id, "-"); return npu })
}

// npuInfo reads `npu-smi info` snapshot tables (§7.4): two rows per chip, the NPU row
// (id, name) then the chip row (chip[, phy-id], bus id, AICore(%) …). Each table is one
// sample per chip; several tables (a watch loop) are successive samples. The process
// table below each snapshot is ignored.
func (p *parser) npuInfo() {
	spacing := p.clockless("npu-smi", 1) // applies only when there are several snapshots
	inProc := false
	npu, name := "", ""
	var chipCols []string
	for ln, l := range p.ls {
		line := ln + 1
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '+' {
			continue
		}
		if strings.Contains(t, "npu-smi") && strings.Contains(t, "Version:") {
			p.b.newTick()
			inProc, npu = false, ""
			continue
		}
		if t[0] != '|' {
			continue
		}
		cells := strings.Split(strings.Trim(t, "|"), "|")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		first := strings.Fields(cells[0])
		switch {
		case len(first) == 0:
			continue
		case first[0] == "NPU" && len(cells) > 1 && strings.HasPrefix(cells[1], "Process"),
			len(first) > 1 && first[0] == "NPU" && first[1] == "Chip":
			inProc = true
			continue
		case first[0] == "NPU":
			p.b.newTick()
			inProc, npu = false, ""
			if p.headerLine == 0 {
				p.headerLine = line
			}
			continue
		case first[0] == "Chip":
			if len(cells) >= 3 {
				chipCols = strings.Fields(cells[2])
			}
			continue
		}
		if inProc || len(cells) < 3 {
			continue
		}
		if _, err := strconv.ParseUint(first[0], 10, 16); err != nil {
			continue // a note such as "No running processes found"
		}
		if !isBusID(cells[1]) {
			npu, name = first[0], strings.Join(first[1:], " ")
			continue
		}
		if npu == "" {
			p.n.skip(line, "chip row without its NPU row")
			continue
		}
		vals := strings.Fields(slashes(cells[2]))
		at := 0
		if len(chipCols) == len(vals) {
			for i, c := range chipCols {
				if npuKey(c) == "aicore(%)" {
					at = i
				}
			}
		}
		if len(vals) == 0 {
			p.n.skip(line, "chip row without values")
			continue
		}
		busy, ok := value(vals[at])
		if !ok {
			p.n.skip(line, "AICore(%) is not a number")
			continue
		}
		id := npu + "-" + first[0]
		p.b.add(id, name, p.b.tickTime(id), busy, math.NaN())
	}
	if p.b.tick > 0 {
		p.n.add("%s", spacing)
	} else {
		p.n.add("npu-smi info is a snapshot: one sample per chip, no timeline")
	}
	p.npuIDs()
}

// slashes joins "3419 / 65536" into "3419/65536".
func slashes(s string) string {
	for _, pat := range []string{" /", "/ "} {
		for strings.Contains(s, pat) {
			s = strings.ReplaceAll(s, pat, "/")
		}
	}
	return s
}
