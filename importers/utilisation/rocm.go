package utilisation

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"benchlens/importers/position"
)

// splitWide splits on runs of two or more spaces (header cells hold single spaces).
func splitWide(t string) []string {
	var out []string
	for _, c := range strings.Split(strings.ReplaceAll(t, "\t", "  "), "  ") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// rocmHeader reads a concise-table header: legacy "GPU  Temp  AvgPwr … GPU%" (≤5.x, also
// "Temp (DieEdge)") or 6.x "Device  Node  IDs  Temp … GPU%". nil when t is not one.
func rocmHeader(t string) []string {
	if !strings.HasPrefix(t, "GPU ") && !strings.HasPrefix(t, "Device ") {
		return nil
	}
	cols := splitWide(t)
	if len(cols) < 2 || (cols[0] != "GPU" && cols[0] != "Device") || !slices.Contains(cols, "GPU%") {
		return nil
	}
	return cols
}

// rocmKeyed recognises "GPU[0]          : …" lines of rocm-smi's non-concise output.
func rocmKeyed(t string) bool {
	_, _, _, ok := splitKeyed(t)
	return ok
}

// splitKeyed reads "GPU[0]  : GPU use (%): 95" into id "0", key "GPU use (%)", value "95".
func splitKeyed(t string) (id, key, val string, ok bool) {
	if !strings.HasPrefix(t, "GPU[") {
		return "", "", "", false
	}
	end := strings.IndexByte(t, ']')
	if end < 5 {
		return "", "", "", false
	}
	id = t[4:end]
	if _, err := strconv.ParseUint(id, 10, 16); err != nil {
		return "", "", "", false
	}
	rest := strings.TrimSpace(t[end+1:])
	if !strings.HasPrefix(rest, ":") {
		return "", "", "", false
	}
	rest = strings.TrimSpace(rest[1:])
	if i := strings.LastIndex(rest, ":"); i >= 0 {
		key, val = strings.TrimSpace(rest[:i]), strings.TrimSpace(rest[i+1:])
	} else {
		key = rest
	}
	return id, key, val, true
}

// rowCells splits a concise-table row on whitespace, keeping comma lists together:
// "0x74a1,   28851" and "NPS1, SPX, 0" are one cell each.
func rowCells(t string) []string {
	var out []string
	for _, w := range strings.Fields(t) {
		if n := len(out); n > 0 && strings.HasSuffix(out[n-1], ",") {
			out[n-1] += " " + w
			continue
		}
		out = append(out, w)
	}
	return out
}

// rocmTable reads rocm-smi's human-readable output: the concise table (legacy and 6.x; busy
// is GPU%), one table per snapshot, and "GPU[n] : GPU use (%): v" lines (--showuse;
// "GPU memory use (%)" is the memory busy). No timestamps.
func (p *parser) rocmTable() {
	p.noClock("rocm-smi", 1)
	var cols []string
	iID, iBusy := -1, -1
	for ln, l := range p.ls {
		line := ln + 1
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if strings.Contains(t, "ROCm System Management Interface") {
			p.b.newTick()
			continue
		}
		if id, key, val, ok := splitKeyed(t); ok {
			switch strings.ToLower(key) {
			case "gpu use (%)":
				v, ok := value(val)
				if !ok {
					p.n.skip(line, "GPU use (%) is not a number")
					continue
				}
				if p.headerLine == 0 {
					p.headerLine = line
				}
				p.b.add(id, "", p.b.tickTime(id), v, math.NaN())
			case "gpu memory use (%)":
				if v, ok := value(val); ok {
					p.b.setLastMem(id, v)
				}
			}
			continue
		}
		if h := rocmHeader(t); h != nil {
			cols = h
			iID, iBusy = 0, index(h, "GPU%")
			if p.headerLine == 0 {
				p.headerLine = line
			}
			continue
		}
		if cols == nil || t[0] == '=' || t[0] == '(' || t[0] < '0' || t[0] > '9' {
			continue // banners, the 6.x second header line, "End of ROCm SMI Log", notes
		}
		c := rowCells(t)
		if len(c) != len(cols) {
			p.n.skip(line, "row with a different number of cells than its header")
			continue
		}
		id := c[iID]
		if _, err := strconv.ParseUint(id, 10, 16); err != nil {
			p.n.skip(line, "device id is not a number")
			continue
		}
		busy, ok := value(c[iBusy])
		if !ok {
			p.n.skip(line, "GPU% is not a number")
			continue
		}
		p.b.add(id, "", p.b.tickTime(id), busy, math.NaN())
	}
}

// rocmNameKeys are the columns (or JSON keys) that name the card, best first.
var rocmNameKeys = []string{"card series", "device name", "card sku", "card model"}

// cardID turns "card0" into "0"; ok is false for other keys ("system").
func cardID(s string) (string, bool) {
	id, ok := strings.CutPrefix(strings.TrimSpace(s), "card")
	if !ok {
		return "", false
	}
	if _, err := strconv.ParseUint(id, 10, 16); err != nil {
		return "", false
	}
	return id, true
}

// rocmCSV reads `rocm-smi … --csv`: a header "device,…,GPU use (%),…" and one row per
// card; a repeated header or card starts the next sample (an external loop).
func (p *parser) rocmCSV() {
	p.noClock("rocm-smi", 1)
	text := strings.TrimPrefix(string(bytesOf(p.ls)), "\ufeff")
	r := csv.NewReader(strings.NewReader(text))
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.Comment = '#'
	var cols []string
	iBusy, iMem, iName := -1, -1, -1
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				line = pe.Line
			}
			p.n.skip(line, "malformed CSV")
			continue
		}
		if strings.EqualFold(strings.TrimSpace(rec[0]), "device") {
			cols = make([]string, len(rec))
			for i, c := range rec {
				cols[i] = strings.ToLower(strings.TrimSpace(c))
			}
			iBusy, iMem = index(cols, "gpu use (%)"), index(cols, "gpu memory use (%)")
			iName = firstIndex(cols, rocmNameKeys...)
			if iBusy < 0 {
				p.n.add("no GPU use (%%) column: busy unknown")
			}
			p.b.newTick()
			if p.headerLine == 0 {
				p.headerLine = line
			}
			continue
		}
		if cols == nil {
			p.n.skip(line, "text before the first header")
			continue
		}
		if len(rec) != len(cols) {
			p.n.skip(line, "row with a different number of fields than its header")
			continue
		}
		id, ok := cardID(rec[0])
		if !ok {
			p.n.skip(line, "device is not cardN")
			continue
		}
		busy, mem, name := math.NaN(), math.NaN(), ""
		if iBusy >= 0 {
			v, ok := value(rec[iBusy])
			if !ok {
				p.n.skip(line, "GPU use (%) is not a number")
				continue
			}
			busy = v
		}
		if iMem >= 0 {
			if v, ok := value(rec[iMem]); ok {
				mem = v
			}
		}
		if iName >= 0 {
			name = strings.TrimSpace(rec[iName])
		}
		p.b.add(id, name, p.b.tickTime(id), busy, mem)
	}
}

// bytesOf joins lines back (they were split once for all readers).
func bytesOf(ls []string) []byte {
	var b bytes.Buffer
	for _, l := range ls {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// rocmJSON reads `rocm-smi … --json`: {"card0": {"GPU use (%)": "95", …}, "system": …}; a
// file of several objects (an external loop) gives one sample per object.
func (p *parser) rocmJSON(data []byte) error {
	p.noClock("rocm-smi", 1)
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		var obj map[string]json.RawMessage
		err := dec.Decode(&obj)
		if err == io.EOF {
			break
		}
		if err != nil {
			at := len(bytes.TrimRight(data, " \t\r\n")) // unexpected end: the last line
			var se *json.SyntaxError
			if errors.As(err, &se) {
				at = int(se.Offset)
			}
			line := 1 + bytes.Count(data[:min(max(at-1, 0), len(data))], []byte{'\n'})
			if p.b.samples() == 0 {
				return &position.Error{File: p.name, Line: line, Offset: -1, Err: fmt.Errorf("bad JSON: %w", err)}
			}
			p.n.add("line %d: reading stopped at bad JSON: %v", line, err)
			break
		}
		p.b.newTick()
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, naturalCmp)
		for _, k := range keys {
			id, ok := cardID(k)
			if !ok {
				continue
			}
			var card map[string]any
			if json.Unmarshal(obj[k], &card) != nil {
				p.n.add("%s is not an object", k)
				continue
			}
			fields := map[string]any{}
			for ck, v := range card {
				fields[strings.ToLower(strings.TrimSpace(ck))] = v
			}
			busy, ok := jsonValue(fields["gpu use (%)"])
			if !ok {
				p.n.add("%s has no GPU use (%%)", k)
				continue
			}
			mem, _ := jsonValue(fields["gpu memory use (%)"])
			name := ""
			for _, nk := range rocmNameKeys {
				if s, ok := fields[nk].(string); ok && s != "" {
					name = s
					break
				}
			}
			p.b.add(id, name, p.b.tickTime(id), busy, mem)
		}
	}
	return nil
}

// jsonValue reads a number or a numeric string; ok is false when the key is absent or odd.
func jsonValue(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case string:
		return value(x)
	}
	return math.NaN(), false
}
