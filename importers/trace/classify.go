package trace

import (
	"math"
	"strconv"
	"strings"
)

// kind is an event's role, from its category (formats/traces.md 1.4, one alias table for the
// modern and the legacy names).
type kind uint8

const (
	kOther   kind = iota
	kCPU          // cpu_op, python_function, Operator, …: host ops, not counted here
	kAnno         // user_annotation
	kGPUAnno      // gpu_user_annotation
	kKernel
	kMemcpy
	kMemset
	kRuntime // cuda_runtime, cuda_driver, Runtime, xpu/privateuse1 runtime and driver
	kSync    // cuda_sync (device-row sync records)
)

// catKinds maps categories exactly; catKind falls back to a lower-case lookup.
var catKinds = map[string]kind{
	"cpu_op": kCPU, "python_function": kCPU, "overhead": kCPU, "cpu_instant_event": kCPU,
	"external_correlation": kCPU, "Trace": kOther, "fwdbwd": kOther, "ac2g": kOther,
	"user_annotation": kAnno, "gpu_user_annotation": kGPUAnno,
	"kernel": kKernel, "gpu_memcpy": kMemcpy, "gpu_memset": kMemset,
	"cuda_runtime": kRuntime, "cuda_driver": kRuntime,
	"xpu_runtime": kRuntime, "xpu_driver": kRuntime,
	"privateuse1_runtime": kRuntime, "privateuse1_driver": kRuntime,
	"mtia_runtime": kRuntime, "cuda_sync": kSync, "xpu_sync": kSync,
	// Legacy (PyTorch 1.8–1.9).
	"Operator": kCPU, "Runtime": kRuntime, "Kernel": kKernel, "Memcpy": kMemcpy, "Memset": kMemset,
	"Python": kCPU, "User annotation": kAnno, "GPU user annotation": kGPUAnno,
}

// legacyCats are the capitalised categories only legacy traces write.
var legacyCats = map[string]bool{"Operator": true, "Runtime": true, "Kernel": true, "Memcpy": true, "Memset": true}

func catKind(cat string) kind {
	if k, ok := catKinds[cat]; ok {
		return k
	}
	if cat == "" {
		return kOther
	}
	lc := strings.ToLower(cat)
	if k, ok := catKinds[lc]; ok {
		return k
	}
	for c, k := range catKinds {
		if strings.EqualFold(c, cat) {
			return k
		}
	}
	return kOther
}

// role is what a host runtime/driver call does (formats/traces.md 1.8).
type role uint8

const (
	roleOther  role = iota
	roleLaunch      // enqueues one kernel
	roleGraph       // cudaGraphLaunch: one call, many kernels
	roleSync        // blocks the host until the device catches up
)

// roles is the configurable name list, matched after stripping a `_v\d+` suffix and an
// `AscendCL@` style prefix. cudaMemcpyAsync / cudaMemsetAsync are enqueues too, but the copies
// are counted by direction on the device side, so they are not counted as kernel launches.
var roles = map[string]role{
	// CUDA runtime and driver launches.
	"cudaLaunchKernel": roleLaunch, "cudaLaunchKernelExC": roleLaunch, "cudaLaunchKernelEx": roleLaunch,
	"cudaLaunchCooperativeKernel": roleLaunch, "cudaLaunchCooperativeKernelMultiDevice": roleLaunch,
	"cudaLaunch": roleLaunch, "cuLaunchKernel": roleLaunch, "cuLaunchKernelEx": roleLaunch,
	"cuLaunchCooperativeKernel": roleLaunch, "cuLaunchCooperativeKernelMultiDevice": roleLaunch,
	"cudaGraphLaunch": roleGraph, "cuGraphLaunch": roleGraph,
	// ROCm.
	"hipLaunchKernel": roleLaunch, "hipExtLaunchKernel": roleLaunch, "hipModuleLaunchKernel": roleLaunch,
	"hipExtModuleLaunchKernel": roleLaunch, "hipLaunchCooperativeKernel": roleLaunch,
	"hipLaunchCooperativeKernelMultiDevice": roleLaunch, "hipExtLaunchMultiKernelMultiDevice": roleLaunch,
	"hipLaunchKernelExC": roleLaunch, "hipModuleLaunchCooperativeKernel": roleLaunch,
	"hipGraphLaunch": roleGraph,
	// Host-blocking syncs.
	"cudaDeviceSynchronize": roleSync, "cudaStreamSynchronize": roleSync, "cudaEventSynchronize": roleSync,
	"cudaThreadSynchronize": roleSync, "cuCtxSynchronize": roleSync, "cuStreamSynchronize": roleSync,
	"cuEventSynchronize": roleSync,
	"cudaMemcpy":         roleSync, "cudaMemcpy2D": roleSync, "cudaMemcpy3D": roleSync, "cudaMemcpyPeer": roleSync,
	"cudaMemcpyToSymbol": roleSync, "cudaMemcpyFromSymbol": roleSync,
	"cudaMemset": roleSync, "cudaMemset2D": roleSync, "cudaMemset3D": roleSync,
	"cuMemcpy": roleSync, "cuMemcpyHtoD": roleSync, "cuMemcpyDtoH": roleSync, "cuMemcpyDtoD": roleSync,
	"cuMemcpyPeer":         roleSync,
	"hipDeviceSynchronize": roleSync, "hipStreamSynchronize": roleSync, "hipEventSynchronize": roleSync,
	"hipCtxSynchronize": roleSync, "hipMemcpy": roleSync, "hipMemcpy2D": roleSync, "hipMemcpy3D": roleSync,
	"hipMemcpyHtoD": roleSync, "hipMemcpyDtoH": roleSync, "hipMemcpyDtoD": roleSync, "hipMemset": roleSync,
	"hipMemcpyPeer": roleSync,
	// c10's memcpy_and_sync uses hipMemcpyWithStream on ROCm in place of
	// cudaMemcpyAsync + cudaStreamSynchronize: it returns when the copy is done.
	"hipMemcpyWithStream": roleSync,
	// Ascend CANN (AscendCL@… on the CANN lane).
	"aclrtSynchronizeStream": roleSync, "aclrtSynchronizeStreamWithTimeout": roleSync,
	"aclrtSynchronizeDevice": roleSync, "aclrtSynchronizeDeviceWithTimeout": roleSync,
	"aclrtSynchronizeEvent": roleSync, "aclrtSynchronizeEventWithTimeout": roleSync,
	"aclrtMemcpy": roleSync, "aclrtMemcpy2d": roleSync, "aclrtMemset": roleSync,
}

// roleOf classifies a runtime/driver call name.
func roleOf(name string) role {
	if r, ok := roles[name]; ok {
		return r
	}
	if name == "Node@launch" {
		return roleLaunch
	}
	n := name
	if i := strings.LastIndexByte(n, '@'); i >= 0 {
		n = n[i+1:]
	}
	n = stripVersion(n)
	if r, ok := roles[n]; ok {
		return r
	}
	if strings.HasPrefix(n, "aclrtSynchronize") {
		return roleSync
	}
	return roleOther
}

// stripVersion drops a CUPTI `_v\d+` suffix (cudaLaunchKernel_v7000, cuMemcpyHtoD_v2).
func stripVersion(n string) string {
	i := strings.LastIndex(n, "_v")
	if i <= 0 || i+2 >= len(n) {
		return n
	}
	for _, c := range n[i+2:] {
		if c < '0' || c > '9' {
			return n
		}
	}
	return n[:i]
}

// Copy directions.
const (
	dirHtoD = iota
	dirDtoH
	dirDtoD
	dirPtoP
	dirHtoH
	dirOther
	nDirs
)

var dirNames = [nDirs]string{"HtoD", "DtoH", "DtoD", "PtoP", "HtoH", "Other"}

// copyLabels are the TopOps names of copies.
var copyLabels = [nDirs]string{"Memcpy HtoD", "Memcpy DtoH", "Memcpy DtoD", "Memcpy PtoP", "Memcpy HtoH", "Memcpy"}

// copyDir reads a copy's direction from its name (formats/traces.md 1.7): Kineto
// "Memcpy <KIND> (<SRC> -> <DST>)" or just "Memcpy <KIND>"; CUDA arrays (A) count as device
// memory. Other spellings (ROCm "CopyHostToDevice", hipMemcpy kinds, "H2D") by substring.
func copyDir(name string) int {
	if rest, ok := strings.CutPrefix(name, "Memcpy "); ok {
		k := rest
		if i := strings.IndexAny(k, " ("); i >= 0 {
			k = k[:i]
		}
		switch k {
		case "HtoD", "HtoA":
			return dirHtoD
		case "DtoH", "AtoH":
			return dirDtoH
		case "DtoD", "AtoA", "AtoD", "DtoA":
			return dirDtoD
		case "PtoP":
			return dirPtoP
		case "HtoH":
			return dirHtoH
		}
	}
	l := strings.ToLower(name)
	switch {
	case strings.Contains(l, "peer") || strings.Contains(l, "ptop") || strings.Contains(l, "p2p"):
		return dirPtoP
	case strings.Contains(l, "hosttodevice") || strings.Contains(l, "htod") || strings.Contains(l, "h2d"):
		return dirHtoD
	case strings.Contains(l, "devicetohost") || strings.Contains(l, "dtoh") || strings.Contains(l, "d2h"):
		return dirDtoH
	case strings.Contains(l, "devicetodevice") || strings.Contains(l, "dtod") || strings.Contains(l, "d2d"):
		return dirDtoD
	case strings.Contains(l, "hosttohost") || strings.Contains(l, "htoh") || strings.Contains(l, "h2h"):
		return dirHtoH
	}
	return dirOther
}

// stepNumber reads N from "ProfilerStep#N".
func stepNumber(name string) (int64, bool) {
	rest, ok := strings.CutPrefix(name, "ProfilerStep#")
	if !ok || rest == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(rest, 10, 64)
	return n, err == nil
}

// maxUs bounds timestamps so that ns fit in int64.
const maxUs = 9e15

// toNs reads a µs time (number or decimal string) as int64 ns.
func toNs(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return intNs(x)
	case float64:
		return floatNs(x)
	case string:
		return strNs(x)
	}
	return 0, false
}

// intNs reads an integer µs time as ns.
func intNs(x int64) (int64, bool) {
	if x > maxUs || x < -maxUs {
		return 0, false
	}
	return x * 1000, true
}

// floatNs reads a µs time as ns, rounded.
func floatNs(x float64) (int64, bool) {
	if math.IsNaN(x) || x > maxUs || x < -maxUs {
		return 0, false
	}
	return int64(math.Round(x * 1000)), true
}

// strNs parses a decimal µs string exactly ("1704161511420306.491", trailing tab allowed).
func strNs(s string) (int64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	neg := false
	t := s
	if t[0] == '-' || t[0] == '+' {
		neg = t[0] == '-'
		t = t[1:]
	}
	ip, fp, _ := strings.Cut(t, ".")
	simple := len(ip) > 0 && len(ip) <= 16
	for _, c := range ip {
		simple = simple && c >= '0' && c <= '9'
	}
	for _, c := range fp {
		simple = simple && c >= '0' && c <= '9'
	}
	if !simple {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, false
		}
		return toNs(f)
	}
	n, err := strconv.ParseInt(ip, 10, 64)
	if err != nil || n > maxUs {
		return 0, false
	}
	ns := n * 1000
	scale := int64(100)
	for i := 0; i < len(fp) && i < 3; i++ {
		ns += int64(fp[i]-'0') * scale
		scale /= 10
	}
	if len(fp) > 3 && fp[3] >= '5' {
		ns++
	}
	if neg {
		ns = -ns
	}
	return ns, true
}

// shortName groups device ops as HTA's shorten_name does: template and argument lists are
// dropped, then the last space-separated word is kept ("void ns::k<T>(args)" → "ns::k");
// Triton/inductor counters and signature suffixes and long hex hash suffixes are stripped.
func shortName(s string) string {
	if s == "" {
		return s
	}
	if strings.Contains(s, "->") {
		s = strings.ReplaceAll(s, "->", "")
	}
	out := make([]byte, 0, min(len(s), 128))
	angle, paren := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '<':
			angle++
		case '>':
			if angle > 0 {
				angle--
			}
		case '(':
			if angle == 0 && paren == 0 && strings.HasPrefix(s[i:], "(anonymous namespace)") {
				out = append(out, "(anonymous)"...)
				i += len("(anonymous namespace)") - 1
				continue
			}
			paren++
		case ')':
			if paren > 0 {
				paren--
			}
		default:
			if angle == 0 && paren == 0 {
				out = append(out, c)
			}
		}
	}
	r := strings.TrimSpace(string(out))
	if i := strings.LastIndexByte(r, ' '); i >= 0 {
		r = r[i+1:]
	}
	r = stripHash(r)
	if r == "" {
		return s
	}
	return r
}

// stripHash removes Triton counters / signature suffixes ("_0", "_0d1d2de") from triton names
// and a trailing "_<16+ hex digits>" hash from any name.
func stripHash(r string) string {
	if i := strings.LastIndexByte(r, '_'); i > 0 && len(r)-i-1 >= 16 && isHex(r[i+1:]) {
		r = r[:i]
	}
	if !strings.HasPrefix(r, "triton") {
		return r
	}
	for {
		i := strings.LastIndexByte(r, '_')
		if i <= 0 || i == len(r)-1 {
			return r
		}
		seg := r[i+1:]
		if seg[0] < '0' || seg[0] > '9' {
			return r
		}
		for _, c := range seg {
			if (c < '0' || c > '9') && c != 'd' && c != 'e' {
				return r
			}
		}
		r = r[:i]
	}
}

func isHex(s string) bool {
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
