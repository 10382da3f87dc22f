package model

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Node facts a Fingerprint derives from the devices, the visible-device variables and the
// NUMA table (METHOD.md's node: NUMA domain, card slot).
const (
	FactNUMA     = "numa"      // the NUMA node(s) of the devices the run could use
	FactCardSlot = "card_slot" // those devices: ids, with bus ids where printed
)

// Fact is one condition a run's files state: its value, the file and the line.
type Fact struct {
	Value string `json:"value" yaml:"value"`
	File  string `json:"file,omitempty" yaml:"file,omitempty"`
	Line  int    `json:"line,omitempty" yaml:"line,omitempty"`
	At    string `json:"at,omitempty" yaml:"at,omitempty"` // where in the file, when no one line says it: "npu-smi banner and device rows"
}

// Source says where the fact was read: "env/collect_env.txt line 23".
func (f Fact) Source() string {
	switch {
	case f.File == "":
		return ""
	case f.Line > 0:
		return fmt.Sprintf("%s line %d", f.File, f.Line)
	case f.At != "":
		return fmt.Sprintf("%s (%s)", f.File, f.At)
	}
	return f.File
}

// Composite facts: a file that states the stack or the hardware as one text (model.Facts of
// an npu-smi table or a profiler's info) rather than fact by fact.
const (
	FactBaseStack   = "base_stack_version"
	FactHardwareSKU = "hardware_sku"
)

// Fingerprint is every fact a run's files state of its conditions, merged in one place: the
// first file to state a fact gives it, a later file stating another value is a disagreement
// the comparison shows. Devices, NUMA nodes and variables of several files are joined, so a
// topology from one file and the visible devices from another still give the NUMA domain.
type Fingerprint struct {
	Facts    map[string]Fact `json:"facts,omitempty"`
	Disagree []string        `json:"disagree,omitempty"` // "driver_version: a line 3 says X, b line 9 says Y"
	// The joined devices, NUMA nodes and variables the facts were derived from (each file's
	// evidence lists its own).
	Devices []EnvDevice `json:"-"`
	NUMA    []NUMANode  `json:"-"`
	Env     []EnvVar    `json:"-"`
	EnvFile []string    `json:"-"` // the file each of Env was printed in, by index
}

// FingerprintOf merges what the evidence of a run's files states, in file order.
func FingerprintOf(evs []Evidence) Fingerprint {
	fp := Fingerprint{Facts: map[string]Fact{}}
	for i := range evs {
		ev := &evs[i]
		if e := ev.Environment; e != nil {
			fp.addEnv(ev.File, e)
		}
		if f := ev.Facts; f != nil {
			fp.Add(FactDriver, Fact{Value: f.DriverVersion, File: ev.File, At: f.Source})
			fp.Add(FactBaseStack, Fact{Value: f.BaseStackVersion, File: ev.File, At: f.Source})
			fp.Add(FactHardwareSKU, Fact{Value: f.HardwareSKU, File: ev.File, At: f.Source})
		}
	}
	fp.derive()
	return fp
}

// Fact returns the fact under key, if a file states it.
func (fp Fingerprint) Fact(key string) (Fact, bool) {
	f, ok := fp.Facts[key]
	return f, ok && f.Value != ""
}

// Add records a fact; another value for a fact already stated is kept as a disagreement.
func (fp *Fingerprint) Add(key string, f Fact) {
	if f.Value == "" {
		return
	}
	if fp.Facts == nil {
		fp.Facts = map[string]Fact{}
	}
	old, ok := fp.Facts[key]
	switch {
	case !ok:
		fp.Facts[key] = f
	case old.Value != f.Value:
		fp.Disagree = append(fp.Disagree, fmt.Sprintf("%s: %s says %q, %s says %q", key, old.Source(), old.Value, f.Source(), f.Value))
	}
}

func (fp *Fingerprint) addEnv(file string, e *EnvEvidence) {
	keys := make([]string, 0, len(e.Facts))
	for k := range e.Facts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fp.Add(k, Fact{Value: e.Facts[k].Text, File: file, Line: e.Facts[k].N})
	}
	for _, d := range e.Devices {
		fp.addDevice(file, d)
	}
	if len(fp.NUMA) == 0 {
		fp.NUMA = append(fp.NUMA, e.NUMA...)
	}
	for _, v := range e.Env {
		if _, ok := fp.Var(v.Name); !ok {
			fp.Env = append(fp.Env, v)
			fp.EnvFile = append(fp.EnvFile, file)
		}
	}
}

// addDevice joins what files say of one device id: the first to say a thing says it.
func (fp *Fingerprint) addDevice(file string, d EnvDevice) {
	for i := range fp.Devices {
		o := &fp.Devices[i]
		if o.ID != d.ID {
			continue
		}
		if o.Name == "" {
			o.Name = d.Name
		}
		if o.BusID == "" {
			o.BusID = d.BusID
		}
		if !o.MemoryMB.Known() {
			o.MemoryMB = d.MemoryMB
		}
		if o.NUMA == "" && o.CPUs == "" {
			o.NUMA, o.CPUs, o.NUMALine = d.NUMA, d.CPUs, d.NUMALine
			o.numaFile = file
		}
		return
	}
	d.file = file
	if d.NUMA != "" || d.CPUs != "" {
		d.numaFile = file
	}
	fp.Devices = append(fp.Devices, d)
}

// Var returns the variable named name and the file it was printed in.
func (fp Fingerprint) Var(name string) (EnvVar, bool) {
	for _, v := range fp.Env {
		if v.Name == name {
			return v, true
		}
	}
	return EnvVar{}, false
}

// VarFile names the file the variable was printed in.
func (fp Fingerprint) VarFile(name string) string {
	for i, v := range fp.Env {
		if v.Name == name && i < len(fp.EnvFile) {
			return fp.EnvFile[i]
		}
	}
	return ""
}

// VisibleVars are the visible-device variables, the process's own before the container's.
var VisibleVars = []string{"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES",
	"ASCEND_RT_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "ASCEND_VISIBLE_DEVICES"}

// Visible is the visible-device variable that decides which devices the run could use.
func (fp Fingerprint) Visible() (EnvVar, bool) {
	for _, name := range VisibleVars {
		if v, ok := fp.Var(name); ok {
			return v, true
		}
	}
	return EnvVar{}, false
}

// derive sets the visible devices, the card slot and the NUMA domain from the devices, the
// variables and the NUMA table.
func (fp *Fingerprint) derive() {
	vis, hasVis := fp.Visible()
	if hasVis {
		fp.Add(FactVisible, Fact{Value: vis.Name + "=" + vis.Value, File: fp.VarFile(vis.Name), Line: vis.Line})
	}
	used := fp.Devices
	if ids, ok := deviceList(vis.Value); hasVis && ok {
		used = nil
		for _, id := range ids {
			found := false
			for _, d := range fp.Devices {
				if d.ID == id {
					used, found = append(used, d), true
				}
			}
			if !found {
				used = append(used, EnvDevice{ID: id})
			}
		}
	}
	if len(used) == 0 {
		return
	}
	ids, buses := make([]string, len(used)), []string{}
	for i, d := range used {
		ids[i] = d.ID
		if d.BusID != "" {
			buses = append(buses, d.BusID)
		}
	}
	slot := "devices " + strings.Join(ids, ",")
	if len(buses) == len(used) {
		slot += " (" + strings.Join(buses, ", ") + ")"
	}
	src := Fact{File: used[0].file, Line: used[0].Line}
	if hasVis {
		src = Fact{File: fp.VarFile(vis.Name), Line: vis.Line}
	}
	src.Value = slot
	fp.Add(FactCardSlot, src)

	var nodes []string
	var at Fact
	for _, d := range used {
		ns := d.NUMA
		if ns == "" {
			ns = fp.numaOfCPUs(d.CPUs)
		}
		if ns == "" {
			return // a device of unknown affinity: the domain is unknown
		}
		for _, n := range strings.Split(ns, ",") {
			if !slices.Contains(nodes, n) {
				nodes = append(nodes, n)
			}
		}
		if at.File == "" {
			at = Fact{File: d.numaFile, Line: d.NUMALine}
		}
	}
	sortNumeric(nodes)
	at.Value = strings.Join(nodes, ",")
	fp.Add(FactNUMA, at)
}

// Stack is the base stack the files state: the accelerator toolkit PyTorch was built with
// and the PyTorch (and torch_npu) versions, "CUDA 12.4, torch 2.5.1+cu124"; else the one text
// a file gives for it (profiler info).
func (fp Fingerprint) Stack() Fact {
	var parts []string
	var at Fact
	for _, p := range []struct{ key, name string }{
		{FactCUDA, "CUDA"}, {FactROCm, "ROCm"}, {FactCANN, "CANN"},
		{FactTorch, "torch"}, {FactTorchNPU, "torch_npu"},
	} {
		if f, ok := fp.Fact(p.key); ok {
			parts = append(parts, p.name+" "+f.Value)
			if at.File == "" {
				at = f
			}
		}
	}
	if len(parts) == 0 {
		f, _ := fp.Fact(FactBaseStack)
		return f
	}
	at.Value = strings.Join(parts, ", ")
	return at
}

// Engine is the serving engine the files state, spelled as a server log's EngineVersion:
// "vllm 0.6.3", "sglang 0.5.13", "vLLM 0.11.0 + vllm-ascend 0.11.0rc1".
func (fp Fingerprint) Engine() Fact {
	vllm, hasVLLM := fp.Fact(FactVLLM)
	if asc, ok := fp.Fact(FactVLLMAscend); ok {
		v := "vllm-ascend " + asc.Value
		if hasVLLM {
			v = "vLLM " + vllm.Value + " + " + v
		}
		asc.Value = v
		return asc
	}
	if hasVLLM {
		vllm.Value = "vllm " + vllm.Value
		return vllm
	}
	if sg, ok := fp.Fact(FactSGLang); ok {
		sg.Value = "sglang " + sg.Value
		return sg
	}
	return Fact{}
}

// Hardware is the accelerators the files state, "8 × NVIDIA H100 80GB HBM3, NV18", in the
// spelling of an npu-smi table's facts ("8 × 910B3, 65536 MB HBM each"); else the one text a
// file gives for them.
func (fp Fingerprint) Hardware() Fact {
	name, ok := fp.Fact(FactDeviceModel)
	if !ok {
		f, _ := fp.Fact(FactHardwareSKU)
		return f
	}
	v := name.Value
	if n, ok := fp.Fact(FactDeviceCount); ok {
		v = n.Value + " × " + v
	}
	if m, ok := fp.Fact(FactDeviceMemory); ok {
		if strings.HasSuffix(m.Value, " MB") {
			v += ", " + m.Value + " HBM each" // npu-smi's HBM
		} else {
			v += ", " + m.Value + " each"
		}
	}
	if l, ok := fp.Fact(FactInterconnect); ok {
		v += ", " + l.Value
	}
	name.Value = v
	return name
}

// numaOfCPUs names the NUMA nodes whose CPUs a device's CPU affinity list holds.
func (fp Fingerprint) numaOfCPUs(cpus string) string {
	want := CPUSet(cpus)
	if len(want) == 0 {
		return ""
	}
	var out []string
	for _, n := range fp.NUMA {
		have := CPUSet(n.CPUs)
		for c := range want {
			if have[c] {
				out = append(out, n.ID)
				break
			}
		}
	}
	return strings.Join(out, ",")
}

// deviceList reads a visible-device value of ids ("0,1,3"); "all", "none", UUIDs and an
// empty value give false.
func deviceList(v string) ([]string, bool) {
	if strings.TrimSpace(v) == "" {
		return nil, false
	}
	var ids []string
	for _, p := range strings.Split(v, ",") {
		p = strings.TrimSpace(p)
		if _, err := strconv.Atoi(p); err != nil {
			return nil, false
		}
		ids = append(ids, p)
	}
	return ids, true
}

// CPUSet reads a CPU list ("0-47", "0,2,4", "0-31,64-95") into a set; text that is not a
// list gives an empty set.
func CPUSet(list string) map[int]bool {
	set := map[int]bool{}
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return map[int]bool{}
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 1<<16 {
				return map[int]bool{}
			}
		}
		for c := a; c <= b; c++ {
			set[c] = true
		}
	}
	return set
}

func sortNumeric(s []string) {
	sort.Slice(s, func(i, j int) bool {
		a, errA := strconv.Atoi(s[i])
		b, errB := strconv.Atoi(s[j])
		if errA == nil && errB == nil {
			return a < b
		}
		return s[i] < s[j]
	})
}

// FilesDisagree is what two of a run's own files state differently, each "field: A says X,
// B says Y": two environment dumps (Disagree), and a server log's engine version against the
// one a dump prints beside it (a log of vLLM 0.12.0 with a collect_env of 0.11.2: the dump
// was taken in another environment than the server's). Rule 1 reads the log's.
func (fp Fingerprint) FilesDisagree(logs []*LogEvidence) []string {
	out := append([]string(nil), fp.Disagree...)
	for _, l := range logs {
		if l == nil || l.Version == "" {
			continue
		}
		engine, key := "vllm", FactVLLM // vllm-ascend logs print vLLM's version
		if l.Engine == "sglang" {
			engine, key = "sglang", FactSGLang
		}
		st, ok := fp.Fact(key)
		if !ok || sameVersion(l.Version, st.Value) {
			continue
		}
		d := fmt.Sprintf("engine_version: the server log says %q, %s says %q", engine+" "+l.Version, st.Source(), engine+" "+st.Value)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// sameVersion reports whether two spellings of a version name the same release: equal dot
// by dot as far as the shorter goes ("0.11" and "0.11.2"), a leading v and what follows a
// space ("(git sha: …)") ignored.
func sameVersion(a, b string) bool {
	norm := func(s string) []string {
		s = strings.TrimPrefix(strings.ToLower(strings.TrimSpace(s)), "v")
		s, _, _ = strings.Cut(s, " ")
		return strings.Split(s, ".")
	}
	x, y := norm(a), norm(b)
	n := min(len(x), len(y))
	return slices.Equal(x[:n], y[:n])
}
