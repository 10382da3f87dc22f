// Package utilisation reads device-utilisation traces (formats/logs-and-utilisation.md §7)
// into per-device busy timelines: nvidia-smi dmon, nvidia-smi --query-gpu CSV, dcgmi dmon,
// npu-smi info watch, npu-smi info snapshot tables and rocm-smi (concise tables, --csv,
// --json, GPU[n] key lines). Bytes in, model.UtilEvidence out; no I/O.
//
// Columns are found by header name, never by position. T is seconds from the file's first
// sample; Start, when the file dates its samples, is the wall time of that first sample (the
// recording machine's local time, zone unknown). Files without a clock are spaced by the
// sampling period when a command line echoed in the file states it (nvidia-smi -l/-lms/dmon
// -d, dcgmi dmon -d ms, npu-smi watch -d, watch -n), else 1 s per sample, with a warning.
// Odd rows are skipped and counted in the warnings; an error (*position.Error, "file: line N: why")
// is returned only when nothing usable is left.
package utilisation

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"benchlens/importers/position"
	"benchlens/model"
)

// Tool names, as stored in model.UtilEvidence.Tool.
const (
	ToolDmon      = "nvidia-smi dmon"
	ToolQuery     = "nvidia-smi query"
	ToolDCGM      = "dcgmi dmon"
	ToolNPUWatch  = "npu-smi watch"
	ToolNPUInfo   = "npu-smi info"
	ToolROCm      = "rocm-smi"
	ToolROCmCSV   = "rocm-smi csv"
	ToolROCmJSON  = "rocm-smi json"
	headLines     = 64
	headBytes     = 16 << 10
	unknownFormat = "not a utilisation trace of a supported tool (nvidia-smi dmon or --query-gpu CSV, dcgmi dmon, npu-smi, rocm-smi)"
)

// Parse reads a utilisation trace into per-device busy series. T is seconds from the file's
// first sample. Warnings report skipped rows, inferred columns and assumed sampling periods.
// Errors name the file and the line ("%s: line %d: …").
func Parse(name string, data []byte) (*model.UtilEvidence, []string, error) {
	tool := Detect(data)
	if tool == "" {
		return nil, nil, &position.Error{File: name, Offset: -1, Err: errors.New(unknownFormat)}
	}
	p := &parser{name: name, ls: lines(data), b: newBuilder()}
	var err error
	switch tool {
	case ToolDmon:
		p.dmon()
	case ToolQuery:
		err = p.query()
	case ToolDCGM:
		p.dcgm()
	case ToolNPUWatch:
		p.npuWatch()
	case ToolNPUInfo:
		p.npuInfo()
	case ToolROCm:
		p.rocmTable()
	case ToolROCmCSV:
		p.rocmCSV()
	case ToolROCmJSON:
		err = p.rocmJSON(data)
	}
	if err != nil {
		return nil, p.n.list(), err
	}
	if p.b.samples() == 0 {
		if line, why := p.n.firstSkip(); line > 0 {
			return nil, p.n.list(), &position.Error{File: name, Line: line, Offset: -1, Err: errors.New("no usable sample: " + why)}
		}
		return nil, p.n.list(), &position.Error{File: name, Line: max(p.headerLine, 1), Offset: -1, Err: errors.New("no samples")}
	}
	ev := p.b.result(tool)
	if p.inv != nil && len(p.inv.Devices) > 0 {
		ev.Inventory = p.inv
	}
	ev.Snapshot = tool == ToolNPUInfo && p.b.tick == 0
	return ev, p.n.list(), nil
}

// parser is the state shared by the format readers.
type parser struct {
	name       string
	ls         []string
	b          *builder
	n          notes
	headerLine int // line of the first header, for errors
	inv        *model.Inventory
	// bannerLine and deviceLines are where npu-smi info's inventory was read (ReadNPUTable).
	bannerLine  int
	deviceLines []int
}

// noClock spaces samples by the stated period or 1 s, with a warning.
func (p *parser) noClock(tool string, unit float64, flags ...string) {
	p.n.add("%s", p.clockless(tool, unit, flags...))
}

// clockless sets the sampling period of a file without timestamps and returns the warning
// that says where it came from.
func (p *parser) clockless(tool string, unit float64, flags ...string) string {
	if s, flag, ok := statedPeriod(p.ls, tool, unit, flags); ok {
		p.b.period = s
		return fmt.Sprintf("no timestamps: samples spaced %g s apart as %s states", s, flag)
	}
	return "no timestamps and no sampling period stated: samples assumed 1 s apart"
}

// statedPeriod looks for the command line echoed in the file (e.g. "$ nvidia-smi dmon -d 2")
// and reads the sampling period from one of flags (value times unit seconds) or from a
// surrounding `watch -n N`.
func statedPeriod(ls []string, tool string, unit float64, flags []string) (float64, string, bool) {
	for i, l := range ls {
		if i > 200 {
			break
		}
		if !strings.Contains(l, tool) {
			continue
		}
		f := strings.Fields(l)
		toolAt := -1
		for j, w := range f {
			if strings.HasSuffix(w, tool) {
				toolAt = j
				break
			}
		}
		if toolAt < 0 {
			continue
		}
		for j := 1; j+1 < toolAt; j++ {
			if (f[j] == "-n" || f[j] == "--interval") && slices.Contains(f[:j], "watch") {
				if v, err := strconv.ParseFloat(f[j+1], 64); err == nil && v > 0 && v < 1e6 {
					return v, "watch -n " + f[j+1], true
				}
			}
		}
		for j := toolAt + 1; j < len(f); j++ {
			w := f[j]
			for _, flag := range flags {
				val, ok := "", false
				switch {
				case w == flag && j+1 < len(f):
					val, ok = f[j+1], true
				case strings.HasPrefix(w, flag+"="):
					val, ok = w[len(flag)+1:], true
				}
				if !ok {
					continue
				}
				v, err := strconv.ParseFloat(val, 64)
				if err == nil && v > 0 && v < 1e9 {
					mult := unit
					if flag == "-lms" || flag == "--loop-ms" {
						mult = 0.001
					}
					return v * mult, tool + " " + flag + " " + val, true
				}
			}
		}
	}
	return 0, "", false
}

// Detect names the tool (one of the Tool constants) that wrote data, judging by its first
// lines, or "" when none: the importers' registry gives each tool its row.
func Detect(data []byte) string {
	head := data[:min(len(data), headBytes)]
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	if t := bytes.TrimSpace(head); len(t) > 0 && t[0] == '{' {
		if bytes.Contains(head, []byte(`"card`)) {
			return ToolROCmJSON
		}
		return ""
	}
	ls := lines(head)
	for i, l := range ls {
		if i >= headLines {
			break
		}
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		lower := strings.ToLower(t)
		switch {
		case strings.Contains(t, "nvidia-smi") && strings.Contains(t, "--query-gpu="):
			if queryRowsFollow(ls[i+1 : min(len(ls), headLines)]) {
				return ToolQuery // the command line echoed above a noheader file
			}
			// A command quoted in prose (a README) is not a trace.
		case t[0] == '#':
			if _, ok := dmonHeader(t); ok {
				return ToolDmon
			}
			if strings.HasPrefix(strings.TrimSpace(lower[1:]), "entity") {
				return ToolDCGM
			}
		case strings.HasPrefix(lower, "npuid"):
			return ToolNPUWatch
		case strings.Contains(t, "npu-smi") && strings.Contains(t, "Version:"),
			t[0] == '|' && strings.Contains(t, "NPU") && strings.Contains(t, "Health"):
			return ToolNPUInfo
		case strings.Contains(t, "ROCm System Management Interface"), rocmHeader(t) != nil, rocmKeyed(t):
			return ToolROCm
		case strings.HasPrefix(lower, "device,"):
			return ToolROCmCSV
		case isQueryHeader(t), isQueryRow(t):
			return ToolQuery
		}
	}
	return ""
}

// queryRowsFollow tells whether the first line with text after an echoed --query-gpu command is
// a query header or a row of values, as nvidia-smi writes below it.
func queryRowsFollow(ls []string) bool {
	for _, l := range ls {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		if isQueryHeader(t) || isQueryRow(t) {
			return true
		}
		f := strings.Split(t, ",")
		for _, c := range f {
			if _, ok := value(c); !ok {
				return false
			}
		}
		return len(f) >= 2
	}
	return false
}
