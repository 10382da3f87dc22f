package environment

import (
	"regexp"
	"strconv"
	"strings"

	"benchlens/model"
)

// npu-smi info as vllm-ascend's collect_env prints it under "NPU:": a banner
// "| npu-smi 23.0.3   Version: 23.0.3 |" (the driver's version), two header rows
// ("NPU Name | Health | Power(W) Temp(C) …" over "Chip | Bus-Id | AICore(%) Memory-Usage(MB)
// HBM-Usage(MB)"), then per chip an NPU row ("| 0  910B2 | OK | 94.8 44 0 / 0 |") and a chip
// row ("| 0 | 0000:C1:00.0 | 0  0 / 0  4495 / 65536 |"); Atlas A3 tables give each NPU two
// chips. The process table below is not the machine's and is skipped.

var (
	busID    = regexp.MustCompile(`^[0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f]$`)
	usedOf   = regexp.MustCompile(`(\d+)\s*/\s*(\d+)`)
	npuSmiV  = regexp.MustCompile(`Version:\s*(\S+)`)
	chipHead = regexp.MustCompile(`(?i)hbm-usage|memory-usage`)
)

func (d *doc) npuSMI(ls []line) {
	npu, name, npuLine := "", "", 0
	chips := map[string]int{}
	memCol := false
	inProcs := false
	type chip struct {
		npu, chip, name, bus string
		mem                  model.Num
		n                    int // the NPU row, which names the chip
	}
	var found []chip
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		if !strings.HasPrefix(t, "|") {
			continue
		}
		if strings.Contains(t, "npu-smi") {
			if m := npuSmiV.FindStringSubmatch(t); m != nil {
				d.fact(model.FactDriver, m[1], l.n)
			}
			continue
		}
		cs := splitCells(t)
		if len(cs) < 2 {
			continue
		}
		low := strings.ToLower(t)
		switch {
		case strings.Contains(low, "process id") || strings.Contains(low, "process name"):
			inProcs = true
			continue
		case strings.Contains(low, "health"):
			inProcs = false
			continue
		case strings.HasPrefix(strings.ToLower(cs[0]), "chip") && strings.Contains(low, "bus-id"):
			memCol = chipHead.MatchString(t)
			continue
		}
		if inProcs {
			continue
		}
		first := strings.Fields(cs[0])
		if len(first) == 0 {
			continue
		}
		if _, err := strconv.Atoi(first[0]); err != nil {
			continue
		}
		if busID.MatchString(cs[1]) { // a chip row
			if npu == "" {
				continue
			}
			c := chip{npu: npu, chip: first[0], name: name, bus: cs[1], mem: model.Unknown, n: npuLine}
			if memCol && len(cs) > 2 {
				if pairs := usedOf.FindAllStringSubmatch(cs[2], -1); len(pairs) > 0 {
					if v, err := strconv.ParseFloat(pairs[len(pairs)-1][2], 64); err == nil && v > 0 {
						c.mem = model.Num(v)
					}
				}
			}
			chips[npu]++
			found = append(found, c)
			continue
		}
		npu, name, npuLine = first[0], strings.Join(first[1:], " "), l.n
	}
	for _, c := range found {
		id := c.npu
		if chips[c.npu] > 1 {
			id += "-" + c.chip
		}
		dv := d.device(id)
		dv.Name, dv.BusID, dv.MemoryMB, dv.Line = c.name, c.bus, c.mem, c.n
	}
}

// splitCells splits a |-framed row into its trimmed cells.
func splitCells(s string) []string {
	cs := strings.Split(strings.Trim(s, "|"), "|")
	for i := range cs {
		cs[i] = strings.TrimSpace(cs[i])
	}
	return cs
}
