// Package environment reads the environment dumps labs attach to runs and paste into bug
// reports (formats/environment.md): vLLM's collect_env in every era (flat up to v0.8, framed
// sections from v0.9), vllm-ascend's collect_env (npu-smi table, CANN info), SGLang's
// check_env (CUDA, ROCm and NPU checkers), nvidia-smi topo -m (and the rocm-smi and npu-smi
// topologies printed inside the others), nvidia-smi -q, and pip list / pip freeze. What they
// state of the run's conditions (driver, base stack, engine, devices, NUMA affinity, visible
// devices, VLLM_* / SGLANG_* variables) becomes a model.EnvEvidence, each fact with its line.
package environment

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"benchlens/importers/format"
	"benchlens/importers/position"
	"benchlens/model"
)

// Tools, as EnvEvidence.Tool names them.
const (
	ToolCollectEnv       = "vllm collect_env"
	ToolAscendCollectEnv = "vllm-ascend collect_env"
	ToolTorchCollectEnv  = "torch collect_env" // PyTorch's own, without the vLLM part
	ToolCheckEnv         = "sglang check_env"
	ToolTopo             = "nvidia-smi topo -m"
	ToolNPUTopo          = "npu-smi info -t topo"
	ToolSMIQuery         = "nvidia-smi -q"
	ToolPipList          = "pip list"
	ToolPipFreeze        = "pip freeze"
)

// sniffLines bounds how far Detect reads: every tool names itself in its first lines (a
// collect_env's PyTorch lines come after at most the vLLM log lines of its imports).
const sniffLines = 400

// Detect names the dump data is, from its first lines, or "" for none. It is exact: each
// tool is told by lines only it prints, so a server log that quotes a version line, or a
// requirements file of a few lines, is not taken for one.
func Detect(data []byte) string {
	ls := leadLines(data, sniffLines)
	first := ""
	for _, l := range ls {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "```") {
			first = t
			break
		}
	}
	switch {
	case first == "==============NVSMI LOG==============":
		return ToolSMIQuery
	case topoHeader(first) != "":
		return topoHeader(first)
	case isPipList(ls):
		return ToolPipList
	}
	var torch, debug, python, available, pytorch bool
	for _, l := range ls {
		k, _, ok := keyValue(strings.TrimSpace(l))
		if !ok {
			continue
		}
		switch k {
		case "PyTorch version":
			torch = true
		case "Is debug build":
			debug = true
		case "Python":
			python = true
		case "CUDA available", "ROCM available", "NPU available":
			available = true
		case "PyTorch":
			pytorch = true
		}
	}
	switch {
	case torch && debug:
		return ToolCollectEnv // which collect_env is decided reading the whole file
	case python && available && pytorch:
		return ToolCheckEnv
	case isPipFreeze(ls):
		return ToolPipFreeze
	}
	return ""
}

// Is is the registry's sniff: the file's first lines are a dump Detect knows.
func Is(f *format.File) bool { return Detect(f.Lead()) != "" }

// Read is the registry's parse: the dump's facts as evidence.
func Read(f *format.File) (format.Parsed, error) {
	ev, warnings, err := Parse(f.Name, f.Data)
	if err != nil {
		return format.Parsed{}, err
	}
	return format.Parsed{Evidence: &model.Evidence{Environment: ev, Format: ev.Tool}, Warnings: warnings}, nil
}

// Parse reads a dump Detect named. A dump that states none of the facts benchlens reads is
// kept with a warning; bytes no text holds refuse it, at their offset.
func Parse(name string, data []byte) (*model.EnvEvidence, []model.Warning, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return nil, nil, &position.Error{Line: bytes.Count(data[:i], []byte("\n")) + 1, Offset: i, Err: errors.New("a NUL byte: not a text dump")}
	}
	tool := Detect(data)
	d := newDoc(data)
	switch tool {
	case ToolCollectEnv:
		d.collectEnv()
	case ToolCheckEnv:
		d.checkEnv()
	case ToolTopo, ToolNPUTopo:
		d.ev.Tool = tool
		d.topology(d.lines, 0)
	case ToolSMIQuery:
		d.smiQuery()
	case ToolPipList, ToolPipFreeze:
		d.ev.Tool = tool
		d.pip(tool == ToolPipList)
	default:
		return nil, nil, errors.New("not an environment dump benchlens knows (collect_env, check_env, nvidia-smi topo -m or -q, pip list or freeze)")
	}
	d.finish()
	if !utf8.Valid(data) {
		d.warn(model.Warn(model.WarnCharsReplaced))
	}
	if len(d.ev.Facts) == 0 && len(d.ev.Devices) == 0 {
		d.warn(model.Warn(model.WarnNoFacts, d.ev.Tool))
	}
	return d.ev, d.warnings, nil
}

// line is one line of the dump, its indentation common to the whole dump removed (a dump
// pasted inside a README's <details> is indented by four spaces), with its 1-based number.
type line struct {
	n    int
	text string
}

type doc struct {
	lines    []line
	ev       *model.EnvEvidence
	warnings []model.Warning
	pkgs     map[string]model.Line // normalised package name → version and line
	conda    map[string]model.Line // the same from conda's list, used where pip's lacks one

	cudaRuntime model.Line // collect_env's nvcc version, the CUDA fact when torch states none
	gpuName     model.Line // a ROCm collect_env's one GPU name
	memUnit     string     // how the tool names its memory unit: MB (npu-smi), MiB (nvidia-smi)
}

func newDoc(data []byte) *doc {
	raw := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	indent := -1
	for _, l := range raw {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " "))
		if indent < 0 || n < indent {
			indent = n
		}
	}
	d := &doc{ev: &model.EnvEvidence{Facts: map[string]model.Line{}}, pkgs: map[string]model.Line{}, conda: map[string]model.Line{}}
	for i, l := range raw {
		if len(l) >= indent && indent > 0 && strings.TrimSpace(l[:indent]) == "" {
			l = l[indent:]
		}
		d.lines = append(d.lines, line{i + 1, strings.TrimRight(l, " \r")})
	}
	return d
}

func (d *doc) warn(w model.Warning) { d.warnings = append(d.warnings, w) }

// fact records a fact unless the value is one the tools print for "absent" or the fact is
// already stated.
func (d *doc) fact(key, value string, n int) {
	value = strings.TrimSpace(value)
	if absent(value) {
		return
	}
	if _, ok := d.ev.Facts[key]; ok {
		return
	}
	d.ev.Facts[key] = model.Line{N: n, Text: value}
}

// absent reports the values the tools print for a fact they could not read.
func absent(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "n/a", "could not collect", "no cuda", "no xpu", "none", "not available", "module not found",
		"not found", "n/a (dev)", "not set", "unknown":
		return true
	}
	return false
}

// keyValue splits "Key: value" and the padded "Key     : value" of the sectioned era.
func keyValue(s string) (key, value string, ok bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", "", false
	}
	key = strings.TrimSpace(s[:i])
	if key == "" || strings.ContainsAny(key, "=|[]") {
		return "", "", false
	}
	return key, strings.TrimSpace(s[i+1:]), true
}

// envLine matches a printed variable, NAME=value.
var envLine = regexp.MustCompile(`^([A-Z_][A-Z0-9_]*)=(.*)$`)

// keptVar reports the variables a fingerprint keeps: the visible-device ones and the
// engines' own.
func keptVar(name string) bool {
	for _, v := range model.VisibleVars {
		if name == v {
			return true
		}
	}
	return strings.HasPrefix(name, "VLLM_") || strings.HasPrefix(name, "SGLANG_")
}

// envVar records a NAME=value line if the fingerprint keeps the variable.
func (d *doc) envVar(l line) bool {
	m := envLine.FindStringSubmatch(strings.TrimSpace(l.text))
	if m == nil {
		return false
	}
	if keptVar(m[1]) {
		if _, ok := d.ev.Var(m[1]); !ok {
			d.ev.Env = append(d.ev.Env, model.EnvVar{Name: m[1], Value: m[2], Line: l.n})
		}
	}
	return true
}

// leadLines returns the first n lines of data.
func leadLines(data []byte, n int) []string {
	if len(data) > 64<<10 {
		data = data[:64<<10]
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	ls := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if len(ls) > n {
		ls = ls[:n]
	}
	return ls
}

// finish derives the device facts (model, count, memory) from the devices the dump listed,
// and the stack facts from its package list, where no line stated them.
func (d *doc) finish() {
	for _, p := range []struct{ fact, pkg string }{
		{model.FactTorch, "torch"}, {model.FactTorchNPU, "torch-npu"}, {model.FactVLLM, "vllm"},
		{model.FactVLLMAscend, "vllm-ascend"}, {model.FactSGLang, "sglang"}, {model.FactTransformers, "transformers"},
	} {
		if v, ok := d.pkgs[p.pkg]; ok {
			d.fact(p.fact, v.Text, v.N)
		} else if v, ok := d.conda[p.pkg]; ok {
			d.fact(p.fact, v.Text, v.N)
		}
	}
	devs := d.ev.Devices
	if len(devs) == 0 {
		return
	}
	d.fact(model.FactDeviceCount, fmt.Sprint(len(devs)), devs[0].Line)
	names, mems := map[string]bool{}, map[string]bool{}
	var order []string
	for _, dv := range devs {
		if dv.Name != "" && !names[dv.Name] {
			names[dv.Name] = true
			order = append(order, dv.Name)
		}
		if dv.MemoryMB.Known() {
			mems[fmt.Sprintf("%g %s", dv.MemoryMB.F(), cmp.Or(d.memUnit, "MB"))] = true
		}
	}
	if len(order) > 0 {
		d.fact(model.FactDeviceModel, strings.Join(order, " + "), devs[0].Line)
	}
	if len(mems) == 1 {
		for m := range mems {
			d.fact(model.FactDeviceMemory, m, devs[0].Line)
		}
	}
}

// device returns the device with id, added if new.
func (d *doc) device(id string) *model.EnvDevice {
	for i := range d.ev.Devices {
		if d.ev.Devices[i].ID == id {
			return &d.ev.Devices[i]
		}
	}
	d.ev.Devices = append(d.ev.Devices, model.EnvDevice{ID: id, MemoryMB: model.Unknown})
	return &d.ev.Devices[len(d.ev.Devices)-1]
}

// pkgName normalises a package name as pip compares them: lower case, '_' and '.' as '-'.
func pkgName(s string) string { return pkgSeparators.Replace(strings.ToLower(strings.TrimSpace(s))) }

var pkgSeparators = strings.NewReplacer("_", "-", ".", "-")

func (d *doc) pkg(name, version string, n int) {
	name, version = pkgName(name), strings.TrimSpace(version)
	if _, ok := d.pkgs[name]; ok || absent(version) {
		return
	}
	d.pkgs[name] = model.Line{N: n, Text: version}
}
