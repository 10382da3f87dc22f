package environment

import (
	"regexp"
	"sort"
	"strings"

	"benchlens/model"
)

// The topologies the dumps print, alone or inside collect_env / check_env:
//
//   - nvidia-smi topo -m: a tab-separated matrix, header "\tGPU0\tGPU1…\tNIC0\tCPU
//     Affinity\tNUMA Affinity\tGPU NUMA ID" (older drivers: no GPU NUMA ID, NICs named
//     mlx5_0), rows "GPU0\t X \tNV18…\t0-103\t0\t\tN/A" (an empty cell before the GPU NUMA
//     ID), link codes X, SYS, NODE, PHB, PXB, PIX, NV#; collect_env strips the header's
//     leading tab.
//   - npu-smi info -t topo: the same matrix for NPUs, space-aligned, links HCCS, PIX, PHB,
//     SYS, SIO, HCCS_SW, then CPU Affinity.
//   - rocm-smi --showtopo (collect_env on ROCm) and --showtopotype (check_env): frames of
//     "=====", matrices "Weight / Hops / Link Type between two GPUs" (XGMI, PCIE), and
//     "GPU[0] : (Topology) Numa Node: 0" lines.

// topoHeader names the tool of a matrix header line ("GPU0 … CPU Affinity"), or "".
func topoHeader(t string) string {
	switch {
	case !strings.Contains(t, "Affinity"):
		return ""
	case strings.HasPrefix(t, "GPU0"):
		return ToolTopo
	case strings.HasPrefix(t, "NPU0"):
		return ToolNPUTopo
	}
	return ""
}

var (
	rocmNUMA = regexp.MustCompile(`^GPU\[(\d+)\]\s*:\s*\(Topology\) Numa Node:\s*(\S+)`)
	matrixID = regexp.MustCompile(`^(GPU|NPU)(\d+)$`)
	spaces2  = regexp.MustCompile(`\s{2,}`)
)

// cells splits a matrix line on tabs (keeping empty cells), or on runs of spaces when it has
// none (a topology pasted with its tabs turned to spaces).
func cells(s string, header bool) []string {
	var out []string
	switch {
	case strings.Contains(s, "\t"):
		for _, c := range strings.Split(s, "\t") {
			out = append(out, strings.TrimSpace(c))
		}
		if header {
			kept := out[:0]
			for _, c := range out {
				if c != "" {
					kept = append(kept, c)
				}
			}
			out = kept
		}
	case header:
		out = spaces2.Split(strings.TrimSpace(s), -1)
	default:
		out = strings.Fields(s)
	}
	return out
}

// topology reads a topology's lines: each device's links, CPU and NUMA affinity.
func (d *doc) topology(ls []line, _ int) {
	var cols []string // the header's device columns, then the affinity columns
	links := map[string]bool{}
	firstRow := 0
	linkMatrix := false // rocm-smi: only the Link Type matrix holds link codes
	rocm := false
	for _, l := range ls {
		t := strings.TrimSpace(l.text)
		switch {
		case t == "":
			continue
		case strings.HasPrefix(t, "====="):
			rocm = true
			linkMatrix = strings.Contains(t, "Link Type")
			cols = nil
			continue
		case strings.HasPrefix(t, "Legend:"):
			cols = nil
			continue
		}
		if m := rocmNUMA.FindStringSubmatch(t); m != nil {
			dv := d.device(m[1])
			if dv.NUMA == "" && m[2] != "-1" {
				dv.NUMA, dv.NUMALine = m[2], l.n
			}
			continue
		}
		f := cells(l.text, false)
		if len(f) == 0 {
			continue
		}
		if cols == nil {
			if h := cells(l.text, true); len(h) > 0 && matrixID.MatchString(h[0]) && (rocm || topoHeader(t) != "") {
				cols = h
			}
			continue
		}
		m := matrixID.FindStringSubmatch(f[0])
		if m == nil {
			continue
		}
		id := m[2]
		dv := d.device(id)
		if dv.Line == 0 {
			dv.Line = l.n
		}
		if firstRow == 0 {
			firstRow = l.n
		}
		for j, c := range cols {
			if j+1 >= len(f) {
				break
			}
			v := f[j+1]
			switch {
			case c == "CPU Affinity":
				if !absent(v) && dv.CPUs == "" {
					dv.CPUs, dv.NUMALine = v, l.n
				}
			case c == "NUMA Affinity":
				if !absent(v) && dv.NUMA == "" {
					dv.NUMA, dv.NUMALine = v, l.n
				}
			case matrixID.MatchString(c) && c != f[0] && (!rocm || linkMatrix):
				if v != "" && v != "X" && v != "0" {
					links[v] = true
				}
			}
		}
	}
	if len(links) > 0 {
		list := make([]string, 0, len(links))
		for k := range links {
			list = append(list, k)
		}
		sort.Strings(list)
		d.fact(model.FactInterconnect, strings.Join(list, ", "), firstRow)
	}
}
