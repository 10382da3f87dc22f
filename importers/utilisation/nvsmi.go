package utilisation

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"benchlens/importers/position"
)

// dmonHeader reads a dmon name header (§7.1): "# gpu pwr …" or "#Date Time gpu …". It
// returns the column names, lower case, Date and Time included.
func dmonHeader(t string) ([]string, bool) {
	if !strings.HasPrefix(t, "#") {
		return nil, false
	}
	f := strings.Fields(t[1:])
	i := 0
	if i < len(f) && f[i] == "Date" {
		i++
	}
	if i < len(f) && f[i] == "Time" {
		i++
	}
	if i >= len(f) || f[i] != "gpu" {
		return nil, false
	}
	for j := range f {
		f[j] = strings.ToLower(f[j])
	}
	return f, true
}

// dmon reads `nvidia-smi dmon [-s …] [-o D|T|DT] [--gpm-metrics …]`: one row per GPU per
// tick, header refreshes re-map the columns. Busy is "sm" (GPM "smutil" or "gract" when the
// sm column is absent), memory busy is "mem".
func (p *parser) dmon() {
	var cols []string
	iDate, iTime, iGPU, iBusy, iMem := -1, -1, -1, -1, -1
	var clk clock
	timed, decided := false, false
	noBusy := false
	for ln, l := range p.ls {
		line := ln + 1
		t := strings.TrimSpace(l)
		if t == "" || t[0] == '$' {
			continue // blank, or the command line echoed
		}
		if t[0] == '#' {
			if f, ok := dmonHeader(t); ok {
				cols = f
				iDate, iTime, iGPU = index(f, "date"), index(f, "time"), index(f, "gpu")
				iBusy = firstIndex(f, "sm", "smutil", "gract")
				iMem = firstIndex(f, "mem", "dram")
				if iBusy < 0 {
					noBusy = true
				}
				if p.headerLine == 0 {
					p.headerLine = line
				}
			}
			continue // units line or another comment
		}
		if cols == nil {
			p.n.skip(line, "text before the first header")
			continue
		}
		f := strings.Fields(t)
		if len(f) != len(cols) {
			p.n.skip(line, "row with a different number of fields than its header")
			continue
		}
		gpu := f[iGPU]
		if _, err := strconv.ParseUint(gpu, 10, 16); err != nil {
			p.n.skip(line, "gpu index is not a number")
			continue
		}
		busy, mem, ok := busyMem(f, iBusy, iMem, 1, 1)
		if !ok {
			p.n.skip(line, "busy value is not a number")
			continue
		}
		hasTime := iTime >= 0
		if !decided {
			decided, timed = true, hasTime
			switch {
			case !timed && iDate >= 0:
				p.n.add("dmon -o D prints only the date: samples spaced by the period")
				p.noClock("dmon", 1, "-d", "--delay")
			case !timed:
				p.noClock("dmon", 1, "-d", "--delay")
			case iDate < 0:
				p.n.add("dmon -o T prints no date: start time unknown, times anchored to the first sample")
			}
		}
		if hasTime != timed {
			p.n.skip(line, "time column appears or disappears after a header refresh")
			continue
		}
		var at float64
		if timed {
			sod, ok := parseHMS(f[iTime])
			if !ok {
				p.n.skip(line, "bad time")
				continue
			}
			if iDate >= 0 {
				y, m, d, ok := parseYMD(f[iDate])
				if !ok {
					p.n.skip(line, "bad date")
					continue
				}
				w, unix := wallTime(y, m, d, sod)
				p.b.dateFirst(w)
				at = unix
			} else {
				at = clk.seconds(sod)
			}
		} else {
			at = p.b.tickTime(gpu)
		}
		p.b.add(gpu, "", at, busy, mem)
	}
	if noBusy {
		p.n.add("a header has no sm column (dmon -s without u): busy unknown there")
	}
	if clk.rolled > 0 {
		p.n.add("time of day went back past midnight %d time(s): later samples counted on the next day", clk.rolled)
	}
}

func index(f []string, name string) int {
	for i, s := range f {
		if s == name {
			return i
		}
	}
	return -1
}

func firstIndex(f []string, names ...string) int {
	for _, n := range names {
		if i := index(f, n); i >= 0 {
			return i
		}
	}
	return -1
}

// queryAliases maps --query-gpu spellings to the canonical names the header echoes.
var queryAliases = map[string]string{
	"gpu_name": "name", "gpu_uuid": "uuid", "gpu_bus_id": "pci.bus_id", "count": "count",
}

// knownQuery are names that mark a --query-gpu header.
var knownQuery = map[string]bool{
	"timestamp": true, "index": true, "name": true, "uuid": true, "pci.bus_id": true,
	"utilization.gpu": true, "utilization.memory": true, "memory.used": true,
	"memory.total": true, "power.draw": true, "temperature.gpu": true, "driver_version": true,
}

// queryName strips the unit: "utilization.gpu [%]" → "utilization.gpu".
func queryName(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, " ["); i >= 0 {
		s = s[:i]
	}
	s = strings.ToLower(s)
	if a, ok := queryAliases[s]; ok {
		return a
	}
	return s
}

func isQueryHeader(t string) bool {
	f := strings.Split(t, ",")
	if len(f) < 2 {
		return false
	}
	known := false
	for _, c := range f {
		n := queryName(c)
		if n == "" || strings.ContainsAny(n, " /:") {
			return false
		}
		for _, r := range n {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_') {
				return false
			}
		}
		known = known || knownQuery[n]
	}
	return known
}

// isQueryRow recognises a noheader row: it starts with a query timestamp, or it holds a
// "NN %" value and only values or plain words.
func isQueryRow(t string) bool {
	f := strings.Split(t, ",")
	if len(f) < 2 {
		return false
	}
	if _, _, ok := queryTime(strings.TrimSpace(f[0])); ok {
		return true
	}
	pct := false
	for _, c := range f {
		c = strings.TrimSpace(c)
		if strings.HasSuffix(c, " %") {
			if _, ok := value(c); ok {
				pct = true
			}
		}
	}
	return pct
}

// queryTime reads "2025/03/25 22:31:57.123" (the fraction is optional).
func queryTime(s string) (float64, time.Time, bool) {
	if len(s) < 19 || s[10] != ' ' {
		return 0, time.Time{}, false
	}
	y, m, d, ok := parseYMD(s[:10])
	if !ok {
		return 0, time.Time{}, false
	}
	sod, ok := parseHMS(s[11:])
	if !ok {
		return 0, time.Time{}, false
	}
	w, unix := wallTime(y, m, d, sod)
	return unix, w, true
}

// query reads `nvidia-smi --query-gpu=… --format=csv[,noheader][,nounits]`.
func (p *parser) query() error {
	var cols []string
	first := -1 // first data line (index)
	for i, l := range p.ls {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "$") {
			continue
		}
		if isQueryHeader(t) {
			for _, c := range strings.Split(t, ",") {
				cols = append(cols, queryName(c))
			}
			p.headerLine = i + 1
			first = i + 1
		} else {
			first = i
		}
		break
	}
	if first < 0 {
		return &position.Error{File: p.name, Line: 1, Offset: -1, Err: errors.New("no rows")}
	}
	if cols == nil {
		var err error
		if cols, err = p.inferQuery(first); err != nil {
			return err
		}
	}
	m := p.mapQuery(cols)
	var posInTick int
	lastTS := ""
	for ln := first; ln < len(p.ls); ln++ {
		line := ln + 1
		t := strings.TrimSpace(p.ls[ln])
		if t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "$") {
			continue
		}
		if isQueryHeader(t) {
			cols = cols[:0]
			for _, c := range strings.Split(t, ",") {
				cols = append(cols, queryName(c))
			}
			m = p.mapQuery(cols)
			continue
		}
		f := strings.Split(t, ",")
		if len(f) != len(cols) {
			why := "row with too few fields"
			if len(f) > len(cols) {
				why = "row with too many fields"
			}
			p.n.skip(line, why)
			continue
		}
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		busy := math.NaN()
		if m.busy >= 0 {
			v, ok := value(f[m.busy])
			if !ok {
				p.n.skip(line, "utilization.gpu is not a number")
				continue
			}
			busy = v
		}
		mem := math.NaN()
		if m.mem >= 0 {
			if v, ok := value(f[m.mem]); ok {
				mem = v
			}
		}
		name := ""
		if m.name >= 0 {
			name = f[m.name]
		}
		var at float64
		ts := ""
		if m.ts >= 0 {
			unix, w, ok := queryTime(f[m.ts])
			if !ok {
				p.n.skip(line, "bad timestamp")
				continue
			}
			p.b.dateFirst(w)
			at, ts = unix, f[m.ts]
		}
		id := ""
		switch {
		case m.id >= 0:
			id = f[m.id]
		case m.ts >= 0:
			if ts != lastTS {
				posInTick = 0
			}
			id = strconv.Itoa(posInTick)
			posInTick++
		default:
			id = "0"
		}
		lastTS = ts
		if id == "" {
			p.n.skip(line, "empty GPU id")
			continue
		}
		if m.ts < 0 {
			at = p.b.tickTime(id)
		}
		p.b.add(id, name, at, busy, mem)
	}
	return nil
}

type queryCols struct{ ts, id, name, busy, mem int }

func (p *parser) mapQuery(cols []string) queryCols {
	m := queryCols{
		ts:   index(cols, "timestamp"),
		id:   firstIndex(cols, "index", "uuid", "pci.bus_id"),
		name: index(cols, "name"),
		busy: index(cols, "utilization.gpu"),
		mem:  index(cols, "utilization.memory"),
	}
	if m.busy < 0 {
		p.n.add("no utilization.gpu column: busy unknown")
	}
	if m.id < 0 {
		if m.ts >= 0 {
			p.n.add("no index, uuid or pci.bus_id column: GPUs numbered by their order within each timestamp")
		} else {
			p.n.add("no index, uuid or pci.bus_id column: one GPU assumed")
		}
	}
	if m.ts < 0 {
		p.noClock("nvidia-smi", 1, "-l", "--loop", "-lms", "--loop-ms")
	}
	return m
}

// inferQuery finds the columns of a noheader file: from a --query-gpu= list echoed in the
// file, else from the values (timestamp, GPU-… uuid, bus id, "NVIDIA …" name, the first and
// second "%" columns as utilization.gpu and utilization.memory, a plain integer as index).
func (p *parser) inferQuery(first int) ([]string, error) {
	for i, l := range p.ls {
		if i > 200 {
			break
		}
		if j := strings.Index(l, "--query-gpu="); j >= 0 {
			list := strings.Fields(l[j+len("--query-gpu="):])
			if len(list) > 0 {
				var cols []string
				for _, c := range strings.Split(strings.Trim(list[0], `"'`), ",") {
					cols = append(cols, queryName(c))
				}
				p.n.add("no header: columns taken from the echoed --query-gpu list")
				return cols, nil
			}
		}
	}
	width := len(strings.Split(p.ls[first], ","))
	var rows [][]string
	for i := first; i < len(p.ls) && len(rows) < 50; i++ {
		f := strings.Split(p.ls[i], ",")
		if len(f) != width {
			continue
		}
		for j := range f {
			f[j] = strings.TrimSpace(f[j])
		}
		rows = append(rows, f)
	}
	cols := make([]string, width)
	all := func(j int, ok func(string) bool) bool {
		for _, r := range rows {
			if !ok(r[j]) {
				return false
			}
		}
		return true
	}
	take := func(name string, ok func(string) bool) {
		for j := range cols {
			if cols[j] == "" && all(j, ok) {
				cols[j] = name
				return
			}
		}
	}
	take("timestamp", func(s string) bool { _, _, ok := queryTime(s); return ok })
	take("uuid", func(s string) bool { return strings.HasPrefix(s, "GPU-") || strings.HasPrefix(s, "MIG-") })
	take("pci.bus_id", isBusID)
	take("name", func(s string) bool {
		return strings.HasPrefix(s, "NVIDIA") || strings.HasPrefix(s, "Tesla") || strings.HasPrefix(s, "Quadro") ||
			strings.HasPrefix(s, "GeForce") || strings.HasPrefix(s, "TITAN")
	})
	pct := func(s string) bool {
		_, ok := value(s)
		return ok && (strings.HasSuffix(s, "%") || missing(s))
	}
	take("utilization.gpu", pct)
	if index(cols, "utilization.gpu") < 0 {
		return nil, &position.Error{File: p.name, Line: first + 1, Offset: -1, Err: errors.New("noheader CSV without units: cannot tell which column is utilization.gpu (record with a header or without nounits)")}
	}
	take("utilization.memory", pct)
	take("index", func(s string) bool { n, err := strconv.Atoi(s); return err == nil && n >= 0 && n < 1024 })
	var found []string
	for j, c := range cols {
		if c != "" {
			found = append(found, fmt.Sprintf("%s=%d", c, j+1))
		}
	}
	p.n.add("no header: columns inferred from the values (%s)", strings.Join(found, ", "))
	return cols, nil
}

// isBusID matches "00000000:1B:00.0".
func isBusID(s string) bool {
	parts := strings.Split(s, ":")
	if len(parts) != 3 || len(parts[0]) < 4 || len(parts[1]) != 2 || len(parts[2]) != 4 || parts[2][2] != '.' {
		return false
	}
	for _, r := range parts[0] + parts[1] + parts[2][:2] + parts[2][3:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f' || r >= 'A' && r <= 'F') {
			return false
		}
	}
	return true
}
