package utilisation

import (
	"math"
	"strconv"
	"strings"

	"benchlens/model"
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

// npuIDs drops the chip from "npu-chip" ids unless some NPU shows more than one chip, and
// returns the renaming it applied.
func (p *parser) npuIDs() func(string) string {
	chips := map[string]int{}
	for _, id := range p.b.order {
		npu, _, _ := strings.Cut(id, "-")
		chips[npu]++
		if chips[npu] > 1 {
			return func(id string) string { return id }
		}
	}
	drop := func(id string) string { npu, _, _ := strings.Cut(id, "-"); return npu }
	p.b.rename(drop)
	return drop
}

// npuInfo reads `npu-smi info` snapshot tables (§7.4, more-formats.md §3.5) of every layout:
// A2 (`NPU Name | Health | …` over `Chip | Bus-Id | AICore(%) …`), A3 (`Chip Phy-ID`, two
// chips per NPU, each with its own NPU row) and A5 (`NPU ID | Name | Health | …` over an
// empty `| | | Bus-Id | NPU Util(%) …` row). Columns are found by their header names. Each
// table is one sample per chip; several tables (a watch loop) are successive samples. The
// first table's devices, versions and process table are kept as the Inventory.
func (p *parser) npuInfo() {
	spacing := p.clockless("npu-smi", 1) // applies only when there are several snapshots
	var t npuTable
	for ln, l := range p.ls {
		line := ln + 1
		s := strings.TrimSpace(l)
		switch {
		case s == "":
			continue
		case s[0] == '+':
			t.border()
			continue
		case strings.Contains(s, "npu-smi") && strings.Contains(s, "Version:"):
			p.b.newTick()
			if p.inv == nil || len(p.inv.Devices) == 0 {
				p.inv = &model.Inventory{}
				p.inv.ToolVersion, p.inv.DriverVersion = npuBanner(s)
				p.bannerLine = line
			}
			t = npuTable{}
			continue
		case s[0] != '|':
			continue
		}
		cells := splitCells(s)
		switch {
		case hasCell(cells, "health"):
			p.b.newTick()
			t.header(cells)
			if p.inv == nil {
				p.inv = &model.Inventory{}
			}
			if p.headerLine == 0 {
				p.headerLine = line
			}
			continue
		case hasCell(cells, "process id"):
			t.procHeader(cells)
			continue
		case t.procs != nil:
			p.npuProcess(&t, cells)
			continue
		case t.row1 != nil && t.expect == 2:
			p.npuChip(&t, cells, line)
			continue
		case t.row1 != nil && t.row2 == nil:
			t.row2 = t.columns(cells) // the second header row
			continue
		}
		if t.row2 == nil {
			continue
		}
		v := t.values(t.row1, cells)
		if _, err := strconv.ParseUint(v.get("npu", "npu id"), 10, 16); err != nil {
			continue // a note such as "No running processes found in NPU 2"
		}
		t.npu, t.expect, t.npuLine = v, 2, line
	}
	if p.b.tick > 0 {
		p.n.add("%s", spacing)
	}
	rename := p.npuIDs()
	if p.inv != nil {
		for i := range p.inv.Devices {
			p.inv.Devices[i].ID = rename(p.inv.Devices[i].ID)
		}
		for i := range p.inv.Processes {
			p.inv.Processes[i].Device = rename(p.inv.Processes[i].Device)
		}
	}
}

// NPUTable is the first `npu-smi info` table of some lines, as an environment dump embeds
// one (vllm-ascend's collect_env under "NPU:"): the inventory the utilisation reader keeps,
// with the 1-based lines (within the lines given) of its banner and of each device's NPU row.
type NPUTable struct {
	Inventory   *model.Inventory
	BannerLine  int
	DeviceLines []int // one per Inventory.Devices
}

// ReadNPUTable reads lines as an npu-smi info table, the one reader of every layout for the
// utilisation tool and the environment dumps; nil when they hold no device.
func ReadNPUTable(lines []string) *NPUTable {
	p := &parser{name: "npu-smi info", ls: lines, b: newBuilder()}
	p.npuInfo()
	if p.inv == nil || len(p.inv.Devices) == 0 {
		return nil
	}
	return &NPUTable{Inventory: p.inv, BannerLine: p.bannerLine, DeviceLines: p.deviceLines}
}

// npuBanner reads "npu-smi 24.1.0.3   Version: 24.1.0.3": the tool's and the driver's version.
func npuBanner(s string) (tool, driver string) {
	s = strings.Trim(s, "| ")
	head, ver, _ := strings.Cut(s, "Version:")
	return strings.Join(strings.Fields(head), " "), strings.TrimSpace(ver)
}

// npuTable is the state of one npu-smi info table: its two header rows' column names per
// cell, the NPU row read and waiting for its chip row, and the process table's columns.
type npuTable struct {
	row1, row2 [][]string
	npu        npuValues
	npuLine    int // the NPU row's line, which names the chip
	expect     int // 2 after an NPU row: its chip row comes next
	procs      [][]string
}

// border is a +---+ line: it ends an NPU's pair of rows.
func (t *npuTable) border() { t.expect = 0 }

func (t *npuTable) header(cells []string) {
	*t = npuTable{row1: t.columns(cells)}
}

func (t *npuTable) procHeader(cells []string) { t.procs = t.columns(cells) }

// columns splits each header cell into its column names ("Power(W)  Temp(C)", "NPU Util(%)").
func (t *npuTable) columns(cells []string) [][]string {
	out := make([][]string, len(cells))
	for i, c := range cells {
		for _, n := range npuNames(c) {
			out[i] = append(out[i], npuKey(n))
		}
	}
	return out
}

// npuValues maps normalised column names to a row's values.
type npuValues map[string]string

func (v npuValues) get(keys ...string) string {
	for _, k := range keys {
		if s, ok := v[strings.ReplaceAll(k, " ", "")]; ok {
			return s
		}
	}
	return ""
}

// values reads a row by its header: a cell of one column is its whole text, a cell of several
// is split into words ("98.9  38  0 / 0"), any extra words joining the cell's last column.
func (t *npuTable) values(cols [][]string, cells []string) npuValues {
	v := npuValues{}
	for i, names := range cols {
		if i >= len(cells) || len(names) == 0 {
			continue
		}
		if len(names) == 1 {
			v[names[0]] = cells[i]
			continue
		}
		words := strings.Fields(slashes(cells[i]))
		for j, n := range names {
			switch {
			case j >= len(words):
			case j == len(names)-1:
				v[n] = strings.Join(words[j:], " ")
			default:
				v[n] = words[j]
			}
		}
	}
	return v
}

// npuChip reads the chip row below an NPU row: its busy sample and its inventory entry.
func (p *parser) npuChip(t *npuTable, cells []string, line int) {
	t.expect = 0
	v := t.values(t.row2, cells)
	chip := v.get("chip")
	if chip == "" {
		chip = "0" // A5: one chip per NPU, no Chip column
	}
	if _, err := strconv.ParseUint(chip, 10, 16); err != nil {
		p.n.skip(line, "chip id is not a number")
		return
	}
	busyCol := "aicore(%)"
	if _, ok := v[busyCol]; !ok {
		busyCol = "npuutil(%)"
	}
	raw, ok := v[busyCol]
	if !ok {
		p.n.skip(line, "chip row without an AICore(%) or NPU Util(%) value")
		return
	}
	if busyCol != "aicore(%)" {
		p.n.add("no AICore(%%) column: busy is NPU Util(%%)")
	}
	busy, ok := value(raw)
	if !ok {
		p.n.skip(line, "busy value is not a number")
		return
	}
	id := t.npu.get("npu", "npu id") + "-" + chip
	name := t.npu.get("name")
	p.b.add(id, name, p.b.tickTime(id), busy, math.NaN())
	if p.b.tick > 0 || p.inv == nil {
		return // the first table is the inventory
	}
	used, total := usedTotal(v.get("hbm-usage(mb)"))
	p.deviceLines = append(p.deviceLines, t.npuLine)
	p.inv.Devices = append(p.inv.Devices, model.DeviceInfo{ID: id, Name: name, BusID: missingAs(v.get("bus-id")),
		Health: t.npu.get("health"), PowerW: num(t.npu.get("power(w)")), TempC: num(t.npu.get("temp(c)")), BusyPct: model.Num(busy),
		BusyColumn: map[string]string{"aicore(%)": "AICore(%)", "npuutil(%)": "NPU Util(%)"}[busyCol],
		HBMUsedMB:  used, HBMTotalMB: total})
}

// npuProcess reads a row of the process table ("| 0 0 | 3224097 | VLLMWorker_DP | 34309 | NA |").
func (p *parser) npuProcess(t *npuTable, cells []string) {
	if p.b.tick > 0 || p.inv == nil {
		return
	}
	v := t.values(t.procs, cells)
	pid, err := strconv.ParseInt(v.get("process id"), 10, 64)
	if err != nil {
		return // "No running processes found in NPU n"
	}
	chip := v.get("chip")
	if chip == "" {
		chip = "0"
	}
	p.inv.Processes = append(p.inv.Processes, model.DeviceProcess{Device: v.get("npu", "npu id") + "-" + chip, PID: pid,
		Name: v.get("process name"), MemoryMB: num(v.get("process memory(mb)"))})
}

// usedTotal reads "37397/65536" (spaces already joined by slashes).
func usedTotal(s string) (used, total model.Num) {
	a, b, ok := strings.Cut(slashes(s), "/")
	if !ok {
		return model.Unknown, model.Unknown
	}
	return num(a), num(b)
}

// num reads a table's number, unknown when it is missing or no number.
func num(s string) model.Num {
	if v, ok := value(s); ok {
		return model.Num(v)
	}
	return model.Unknown
}

func missingAs(s string) string {
	if s == "NA" || s == "-" || s == "N/A" {
		return ""
	}
	return s
}

// splitCells splits a |-delimited table row into its trimmed cells.
func splitCells(s string) []string {
	cells := strings.Split(strings.Trim(s, "|"), "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// hasCell reports whether a cell, lower-cased, starts with want.
func hasCell(cells []string, want string) bool {
	for _, c := range cells {
		if strings.HasPrefix(strings.ToLower(c), want) {
			return true
		}
	}
	return false
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
