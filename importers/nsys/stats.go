package nsys

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"regexp"
	"strconv"
	"strings"

	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/importers/trace"
	"benchlens/model"
)

// The `nsys stats` reports (more-formats.md G2): one table per report, as CSV (`-f csv`, one
// file per report or all of them on stdout after "Processing [...]" lines) or as the console's
// column layout (a title, a right-aligned header, a dashed row, numbers with thousands
// separators). Columns are matched by name, case and spaces ignored, in both naming
// generations: `Time (%)`, `Avg (ns)`, `Num Calls`, `Count` now; `Time(%)`, `Average`,
// `Calls`, `Operations` (sizes in KiB) before. Units come from the header.

// report is a kind of stats report benchlens reads.
type report int

const (
	repNone    report = iota
	repKern           // cuda_gpu_kern_sum (gpukernsum), with or without GridXYZ/BlockXYZ
	repAPI            // cuda_api_sum (cudaapisum)
	repMemTime        // cuda_gpu_mem_time_sum (gpumemtimesum)
	repMemSize        // cuda_gpu_mem_size_sum (gpumemsizesum)
	repNVTX           // nvtx_sum (nvtxsum)
)

// reportNames are each report's current and older names, the first one canonical.
var reportNames = map[report][]string{
	repKern: {"cuda_gpu_kern_sum", "cuda_gpu_kern_gb_sum", "gpukernsum"}, repAPI: {"cuda_api_sum", "cudaapisum"},
	repMemTime: {"cuda_gpu_mem_time_sum", "gpumemtimesum"}, repMemSize: {"cuda_gpu_mem_size_sum", "gpumemsizesum"},
	repNVTX: {"nvtx_sum", "nvtxsum", "nvtx_pushpop_sum"},
}

// columns of a report's header, by normalised name.
type columns struct {
	kind  report
	idx   map[string]int
	n     int
	scale float64 // ns per unit of the time columns
	mem   float64 // bytes per unit of a size report's Total
}

// norm lower-cases a header cell and drops its spaces: "Total Time (ns)" → "totaltime(ns)".
func norm(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), "")) }

// find returns the index of the first column whose normalised name is one of names or starts
// with one of them followed by "(" (a unit).
func (c *columns) find(names ...string) int {
	for _, n := range names {
		if i, ok := c.idx[n]; ok {
			return i
		}
	}
	for k, i := range c.idx {
		for _, n := range names {
			if strings.HasPrefix(k, n+"(") {
				return i
			}
		}
	}
	return -1
}

// unitNs reads a time unit from "(ns)", "(us)", "(ms)", "(s)"; ns when absent.
func unitNs(cell string) float64 {
	switch {
	case strings.HasSuffix(cell, "(us)"), strings.HasSuffix(cell, "(μs)"), strings.HasSuffix(cell, "(µs)"):
		return 1e3
	case strings.HasSuffix(cell, "(ms)"):
		return 1e6
	case strings.HasSuffix(cell, "(s)") && !strings.HasSuffix(cell, "(ns)"):
		return 1e9
	}
	return 1
}

// unitBytes reads a size unit: MB (as nsys writes it, 10^6 B), MiB, KB, KiB (the older report's
// unit, stated in its usage text), B.
func unitBytes(cell string) float64 {
	switch {
	case strings.HasSuffix(cell, "(mib)"):
		return 1 << 20
	case strings.HasSuffix(cell, "(kib)"):
		return 1 << 10
	case strings.HasSuffix(cell, "(kb)"):
		return 1e3
	case strings.HasSuffix(cell, "(gb)"):
		return 1e9
	case strings.HasSuffix(cell, "(b)"):
		return 1
	case strings.HasSuffix(cell, "(mb)"):
		return 1e6
	}
	return 1 << 10 // the older gpumemsizesum: "All memory values given in KiB"
}

// header tells a report by its header cells, or repNone.
func header(cells []string) *columns {
	c := &columns{idx: map[string]int{}, n: len(cells), scale: 1}
	for i, cell := range cells {
		k := norm(cell)
		if _, dup := c.idx[k]; !dup && k != "" {
			c.idx[k] = i
		}
	}
	total := c.find("totaltime")
	if total < 0 {
		total = c.find("total")
	}
	if total < 0 {
		return nil
	}
	hasName, hasOp, hasRange := c.find("name") >= 0, c.find("operation") >= 0, c.find("range") >= 0
	calls := c.find("numcalls", "calls") >= 0
	count := c.find("instances", "count", "operations") >= 0
	isTime := c.find("totaltime") >= 0
	switch {
	case hasRange && count && isTime:
		c.kind = repNVTX
	case hasOp && count && isTime:
		c.kind = repMemTime
	case hasOp && count:
		c.kind = repMemSize
		c.mem = unitBytes(norm(cells[total]))
	case hasName && calls && isTime:
		c.kind = repAPI
	case hasName && c.find("instances") >= 0 && isTime && c.find("time(%)") >= 0:
		c.kind = repKern
	default:
		return nil
	}
	c.scale = unitNs(norm(cells[total]))
	return c
}

// stats gathers the reports of one file (or of one capture's files) into trace figures.
type stats struct {
	tot      *trace.Totals
	reports  map[report]bool
	order    []string
	steps    int
	ranges   map[string]int // NVTX range → instances
	warnings []model.Warning
	apiSeen  bool
	sizes    map[string]int64 // copy direction → bytes, from a size report
}

func newStats() *stats {
	return &stats{tot: trace.NewTotals(), reports: map[report]bool{}, ranges: map[string]int{}, sizes: map[string]int64{}}
}

// row adds one data row of a report.
func (s *stats) row(c *columns, cells []string, num func(string) (float64, bool)) error {
	get := func(names ...string) string {
		if i := c.find(names...); i >= 0 && i < len(cells) {
			return strings.TrimSpace(cells[i])
		}
		return ""
	}
	count := func(names ...string) (int, error) {
		v, ok := num(get(names...))
		if !ok || v < 0 || v > 1e15 {
			return 0, fmt.Errorf("%q is not a count", get(names...))
		}
		return int(v), nil
	}
	totalNs := func() (int64, error) {
		v, ok := num(get("totaltime"))
		if !ok || v < 0 || v*c.scale > math.MaxInt64/2 {
			return 0, fmt.Errorf("%q is not a time", get("totaltime"))
		}
		return int64(math.Round(v * c.scale)), nil
	}
	switch c.kind {
	case repKern:
		n, err := count("instances")
		if err != nil {
			return err
		}
		t, err := totalNs()
		if err != nil {
			return err
		}
		s.tot.Kernel(get("name"), n, t)
	case repAPI:
		n, err := count("numcalls", "calls")
		if err != nil {
			return err
		}
		t, err := totalNs()
		if err != nil {
			return err
		}
		name := get("name")
		s.tot.Call(name, n, t)
		if strings.HasPrefix(name, "cu") { // CUDA runtime and driver APIs, not osrt_sum's poll, ioctl …
			s.apiSeen = true
			s.saw(repAPI)
		}
	case repMemTime:
		n, err := count("count", "operations", "instances")
		if err != nil {
			return err
		}
		t, err := totalNs()
		if err != nil {
			return err
		}
		op := get("operation")
		if dir, ok := opDirection(op); ok {
			s.tot.Copy(dir, n, -1, t)
		} else {
			s.tot.Memset(n, t)
		}
	case repMemSize:
		v, ok := num(get("total"))
		if !ok || v < 0 {
			return fmt.Errorf("%q is not a size", get("total"))
		}
		if dir, ok := opDirection(get("operation")); ok {
			s.sizes[dir] += int64(math.Round(v * c.mem))
		}
	case repNVTX:
		n, err := count("instances", "count")
		if err != nil {
			return err
		}
		s.ranges[get("range")] += n
	}
	return nil
}

// opDirection reads a copy's direction from its operation: "[CUDA memcpy Host-to-Device]",
// "[CUDA memcpy HtoD]", "[CUDA Unified Memory memcpy DtoH]", "[CUDA memcpy Peer-to-Peer]";
// false for a memset.
func opDirection(op string) (string, bool) {
	l := strings.ToLower(op)
	if strings.Contains(l, "memset") {
		return "", false
	}
	l = strings.NewReplacer("-", "", " ", "", "unified", "").Replace(l)
	switch {
	case strings.Contains(l, "hosttodevice"), strings.Contains(l, "htod"), strings.Contains(l, "hosttoarray"), strings.Contains(l, "htoa"):
		return "HtoD", true
	case strings.Contains(l, "devicetohost"), strings.Contains(l, "dtoh"), strings.Contains(l, "arraytohost"), strings.Contains(l, "atoh"):
		return "DtoH", true
	case strings.Contains(l, "peertopeer"), strings.Contains(l, "ptop"):
		return "PtoP", true
	case strings.Contains(l, "hosttohost"), strings.Contains(l, "htoh"):
		return "HtoH", true
	case strings.Contains(l, "device"), strings.Contains(l, "dtod"), strings.Contains(l, "array"):
		return "DtoD", true
	}
	return "Other", true
}

// csvNum reads a CSV number.
func csvNum(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// columnNum reads a console number: thousands separators allowed.
func columnNum(s string) (float64, bool) { return csvNum(strings.ReplaceAll(s, ",", "")) }

// stepRange names a step range of nvtx_sum.
var stepRange = regexp.MustCompile(`(?i)(?:^|[^a-z0-9])(?:profilerstep|step|iteration|iter)(?:[ _#:-]?\d+)?$`)

// finish writes what the reports say into trace evidence: no timeline (busy unknown), the
// launches from cuda_api_sum or, without it, the kernel instances; steps from nvtx_sum's
// step ranges.
func (s *stats) finish() *model.TraceEvidence {
	ev := &model.TraceEvidence{Source: "nsys-stats", Tool: "nsys stats", BusyFraction: model.Unknown}
	for dir, b := range s.sizes {
		s.tot.CopyBytes(dir, b)
	}
	for name, n := range s.ranges {
		if stepRange.MatchString(name) {
			s.steps += n
		}
	}
	ev.Steps = s.steps
	if !s.apiSeen && s.reports[repKern] {
		s.warnings = append(s.warnings, model.Warn(model.WarnNsysNoAPI, s.tot.Kernels()))
	}
	s.tot.Fill(ev, s.apiSeen)
	ev.Files = s.order
	s.warnings = append(s.warnings, model.Warn(model.WarnNsysTotalsOnly))
	return ev
}

func (s *stats) saw(k report) {
	if k == repAPI && !s.apiSeen {
		return // named once a row shows CUDA API calls
	}
	if !s.reports[k] {
		s.reports[k] = true
		s.order = append(s.order, reportNames[k][0])
	}
}

// titled names the report a title or preamble line announces: "[3/8] Executing 'nvtx_sum'
// stats report", " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):", "Processing [x.sqlite] with
// [/opt/…/reports/cuda_api_sum.py]...".
var titled = regexp.MustCompile(`(?:'|\(|/)([a-z_]+)(?:'|\)|\.py)`)

// ours reports whether a report name is one benchlens reads, "" (unnamed) included.
func ours(name string) bool {
	if name == "" {
		return true
	}
	for _, names := range reportNames {
		for _, n := range names {
			if n == name {
				return true
			}
		}
	}
	return false
}

// read reads one file holding one or more reports. A table under a title or preamble naming
// another report (osrt_sum, whose columns are cuda_api_sum's) is skipped.
func (s *stats) read(name string, data []byte) error {
	lines := bytes.Split(data, []byte("\n"))
	found := false
	current := ""
	if k, _ := statsReportOf(name); k == repNone {
		current = hintedOther(name)
	}
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(string(lines[i]), "\r")
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if isPreamble(t) || strings.Contains(t, "Executing '") {
			if m := titled.FindStringSubmatch(t); m != nil {
				current = m[1]
			}
			continue
		}
		if !ours(current) {
			continue
		}
		// The console layout: a header, then a dashed row fixing the columns.
		if i+1 < len(lines) && isDashes(strings.TrimRight(string(lines[i+1]), "\r")) {
			n := len(dashSpans(strings.TrimRight(string(lines[i+1]), "\r")))
			c := header(columnCells(line, n))
			if c == nil {
				continue
			}
			found = true
			s.saw(c.kind)
			i += 2
			for ; i < len(lines); i++ {
				row := strings.TrimRight(string(lines[i]), "\r")
				if strings.TrimSpace(row) == "" {
					break
				}
				if err := s.row(c, columnCells(row, n), columnNum); err != nil {
					return &position.Error{File: name, Line: i + 1, Offset: -1, Err: err}
				}
			}
			continue
		}
		if !strings.Contains(t, ",") {
			continue
		}
		cells, err := csv.NewReader(strings.NewReader(line)).Read()
		if err != nil {
			continue
		}
		c := header(cells)
		if c == nil {
			continue
		}
		found = true
		s.saw(c.kind)
		// The CSV rows: up to a blank line or the next report's preamble.
		end := i + 1
		for end < len(lines) && strings.TrimSpace(string(lines[end])) != "" && !isPreamble(string(lines[end])) {
			end++
		}
		r := csv.NewReader(bytes.NewReader(bytes.Join(lines[i+1:end], []byte("\n"))))
		r.FieldsPerRecord = -1
		for {
			rec, err := r.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				line := 1
				var pe *csv.ParseError
				if errors.As(err, &pe) {
					line, err = pe.Line, pe.Err
				}
				return &position.Error{File: name, Line: i + 1 + line, Offset: -1, Err: err}
			}
			if err := s.row(c, rec, csvNum); err != nil {
				line, _ := r.FieldPos(0)
				return &position.Error{File: name, Line: i + 1 + line, Offset: -1, Err: err}
			}
		}
		i = end - 1
	}
	if !found {
		return &position.Error{File: name, Line: 1, Offset: -1, Err: fmt.Errorf("no nsys stats report header (cuda_gpu_kern_sum, cuda_api_sum, cuda_gpu_mem_time_sum, cuda_gpu_mem_size_sum, nvtx_sum)")}
	}
	return nil
}

func isPreamble(l string) bool {
	l = strings.TrimSpace(l)
	return strings.HasPrefix(l, "Processing [") || strings.HasPrefix(l, "Generating SQLite") || strings.HasPrefix(l, "SKIPPED:") ||
		strings.HasPrefix(l, "** ") || strings.HasPrefix(l, "[")
}

// isDashes is the console layout's row of dashed column rules.
func isDashes(l string) bool {
	t := strings.TrimSpace(l)
	return len(t) >= 3 && strings.Trim(t, "- ") == "" && strings.Contains(t, "--")
}

// dashSpans are the columns a dashed row fixes: [start, end) of each run of dashes.
func dashSpans(l string) [][2]int {
	var spans [][2]int
	for i := 0; i < len(l); {
		if l[i] != '-' {
			i++
			continue
		}
		j := i
		for j < len(l) && l[j] == '-' {
			j++
		}
		spans = append(spans, [2]int{i, j})
		i = j
	}
	return spans
}

// columnCells splits a console row into n cells at runs of two or more spaces (names hold
// single spaces only); the last cell takes the rest of the line.
func columnCells(l string, n int) []string {
	t := strings.TrimSpace(l)
	var out []string
	for len(out) < n-1 {
		k := strings.Index(t, "  ")
		if k < 0 {
			break
		}
		out = append(out, t[:k])
		t = strings.TrimLeft(t[k:], " ")
	}
	return append(out, t)
}

// hintedOther is the report a file's name says when it is one benchlens does not read
// ("x_osrt_sum.csv" → osrt_sum), else "".
func hintedOther(p string) string {
	stem := strings.TrimSuffix(strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/"))), ".csv")
	for _, other := range []string{"osrt_sum", "cuda_gpu_trace", "cuda_api_trace", "cuda_kern_exec_sum", "cuda_kern_exec_trace",
		"nvtx_gpu_proj_sum", "nvtx_kern_sum", "cuda_api_gpu_sum", "um_sum", "um_total_sum", "openmp_sum", "vulkan_api_sum",
		"opengl_khr_range_sum", "dx12_pix_sum", "wddm_queue_sum", "mpi_event_sum", "nvvideo_api_sum", "osrtsum", "gputrace",
		"cudaapitrace", "nvtxppsum"} {
		if stem == other || strings.HasSuffix(stem, "_"+other) {
			return other
		}
	}
	return ""
}

// statsReportOf names the report a file's name says ("summary_cuda_gpu_kern_sum.csv"), and the
// base it was written with (-o BASE: "summary"), or repNone.
func statsReportOf(p string) (report, string) {
	base := strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/")))
	stem := strings.TrimSuffix(strings.TrimSuffix(base, ".csv"), ".txt")
	for k, names := range reportNames {
		for _, n := range names {
			if stem == n {
				return k, ""
			}
			if strings.HasSuffix(stem, "_"+n) {
				return k, strings.TrimSuffix(stem, "_"+n)
			}
		}
	}
	return repNone, ""
}

// IsStats sniffs an nsys stats report: a header of one of the reports benchlens reads, as CSV
// or above the console layout's dashed row, in the file's first lines.
func IsStats(f *format.File) bool {
	lead := f.Lead()
	if len(lead) == 0 || lead[0] == '{' || lead[0] == '[' && !bytes.HasPrefix(lead, []byte("[1/")) {
		return false
	}
	lines := bytes.SplitN(lead[:min(len(lead), 64<<10)], []byte("\n"), 80)
	for i, l := range lines {
		line := strings.TrimRight(string(l), "\r")
		if i+1 < len(lines) && isDashes(strings.TrimRight(string(lines[i+1]), "\r")) {
			if header(columnCells(line, len(dashSpans(strings.TrimRight(string(lines[i+1]), "\r"))))) != nil {
				return true
			}
			continue
		}
		if strings.Contains(line, ",") {
			if cells, err := csv.NewReader(strings.NewReader(line)).Read(); err == nil && header(cells) != nil {
				return true
			}
		}
	}
	return false
}

// StatsKey names the nsys stats run a report file belongs to: its folder and the base it was
// written with (`-o BASE` writes BASE_<report>.csv); "" when the name says no report, and the
// file is read alone.
func StatsKey(p string) string {
	k, base := statsReportOf(p)
	if k == repNone {
		return ""
	}
	return path.Dir(strings.ReplaceAll(p, `\`, "/")) + "/" + base
}

// ReadStats reads the report files of one nsys stats run (one file, or several of one BASE)
// into one trace evidence: kernels, host calls, copies with their bytes, NVTX steps.
func ReadStats(files []*format.File) (format.Parsed, error) {
	s := newStats()
	for _, f := range files {
		if err := s.read(f.Name, f.Data); err != nil {
			return format.Parsed{}, err
		}
	}
	ev := s.finish()
	return format.Parsed{Evidence: &model.Evidence{Trace: ev, Format: "nsys stats reports"}, Warnings: s.warnings}, nil
}

// ReadStatsFile is the row's Parse: one report file alone.
func ReadStatsFile(f *format.File) (format.Parsed, error) { return ReadStats([]*format.File{f}) }

// IsReport sniffs an Nsight Systems report (.nsys-rep, or .qdrep before 2021.3), which only
// nsys itself reads.
func IsReport(f *format.File) bool { return f.NameEnds(".nsys-rep", ".qdrep") }

// ReportWhy is what the import says of a report.
const ReportWhy = "an Nsight Systems report (.nsys-rep): export it with `nsys export --type sqlite` (or run `nsys stats -f csv`) and import the .sqlite"
