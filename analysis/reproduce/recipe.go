// Package reproduce builds the rerun recipe of a comparison: per arm, the server command and
// the benchmark command that re-create its conditions, and the pins no command can set
// (driver, base stack, machine, NUMA domain, card slot) as a checklist. Every value comes from
// what the runs' files and manifests say; a value they do not record is a visible placeholder
// ("<seed: not recorded>"), never a guess. Flag names follow each tool's era (eras.go).
package reproduce

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"benchlens/model"
)

// Run is one run with the server logs attached to it.
type Run struct {
	Run  *model.Run
	Logs []*model.LogEvidence
	// Fingerprint is what the run's environment files state (collect_env, check_env,
	// nvidia-smi, npu-smi): the pins, the visible devices and the NUMA binding come from it.
	Fingerprint model.Fingerprint
}

// Recipe is the `reproduce` section of a comparison record.
type Recipe struct {
	Baseline  Arm `json:"baseline" yaml:"baseline"`
	Candidate Arm `json:"candidate" yaml:"candidate"`
}

// Arm is the rerun recipe of one arm: one server command per distinct server configuration
// among its runs (usually one), one benchmark command per distinct load point, the pins.
type Arm struct {
	Label     string    `json:"label" yaml:"label"`
	Server    []Command `json:"server" yaml:"server"`
	Benchmark []Command `json:"benchmark" yaml:"benchmark"`
	Pins      []Pin     `json:"pins" yaml:"pins"`
	Warmup    string    `json:"warmup" yaml:"warmup"` // how the runs' warm-up was declared
}

// Command is one command line: environment assignments, then the words to run.
type Command struct {
	Tool string   `json:"tool" yaml:"tool"` // the era, e.g. "vllm bench serve (vLLM >= 0.10)"
	Env  []string `json:"env,omitempty" yaml:"env,omitempty,flow"`
	Args []string `json:"args" yaml:"args,flow"`
	Runs []int64  `json:"runs" yaml:"runs,flow"` // the runs it re-creates
	// Shape is the load point the runs share (model.LoadPoint.Label), for a benchmark command:
	// one command per load point, each run once per repeat.
	Shape string `json:"shape,omitempty" yaml:"shape,omitempty"`
	// Warmup marks the command of warm-up runs saved beside the measured ones (METHOD.md rule
	// 12): run once before them, its result discarded.
	Warmup bool `json:"warmup,omitempty" yaml:"warmup,omitempty"`
	// NUMA is the NUMA node list a server is bound to (numactl --cpunodebind / --membind): its
	// devices' affinity, where the files state it.
	NUMA  string   `json:"numa,omitempty" yaml:"numa,omitempty"`
	Notes []string `json:"notes,omitempty" yaml:"notes,omitempty"` // what it cannot set, where values came from
}

// Pin is a condition no command sets; Recorded is false when Value is a placeholder.
type Pin struct {
	Name     string `json:"name" yaml:"name"`
	Value    string `json:"value" yaml:"value"`
	Recorded bool   `json:"recorded" yaml:"recorded"`
	// Source says where the value was read when a file states it ("run-1/collect_env.txt line
	// 27"); empty for bundle.yaml's.
	Source string `json:"source,omitempty" yaml:"source,omitempty"`
}

// Placeholder is the visible stand-in for a value the files do not record.
func Placeholder(what string) string { return "<" + what + ": not recorded>" }

// IsPlaceholder reports whether a value is a Placeholder.
func IsPlaceholder(v string) bool {
	return strings.HasPrefix(v, "<") && strings.HasSuffix(v, ": not recorded>")
}

// Build returns the recipe of both arms.
func Build(baseLabel string, base []Run, candLabel string, cand []Run) Recipe {
	return Recipe{Baseline: BuildArm(baseLabel, base), Candidate: BuildArm(candLabel, cand)}
}

// BuildArm returns one arm's recipe. Runs that need the same command share it: the repeats
// of one load point (their measured lengths are the first's), a warm-up run its own.
func BuildArm(label string, runs []Run) Arm {
	a := Arm{Label: label, Server: []Command{}, Benchmark: []Command{}}
	// Each run's point (the first run's of its repeats), points in the order the runs first
	// reach them, and a point's warm-up before its measured runs.
	var points []model.LoadPoint
	type placed struct {
		r     Run
		point int
	}
	var order []placed
	for _, r := range runs {
		if r.Run == nil {
			continue
		}
		p := model.PointOf(r.Run)
		k := slices.IndexFunc(points, p.Same)
		if k < 0 {
			points, k = append(points, p), len(points)
		}
		order = append(order, placed{r, k})
		a.Server = merge(a.Server, serverCommand(r))
	}
	slices.SortStableFunc(order, func(x, y placed) int {
		if x.point != y.point {
			return x.point - y.point
		}
		return boolRank(!x.r.Run.IsWarmup()) - boolRank(!y.r.Run.IsWarmup())
	})
	for _, o := range order {
		r, p := o.r, points[o.point]
		c := benchmarkCommand(r, p)
		if r.Run.IsWarmup() {
			c.Warmup = true
			c.Notes = append(c.Notes, "the warm-up run: "+r.Run.PhaseWhy)
		}
		a.Benchmark = merge(a.Benchmark, c)
	}
	a.Pins = pins(runs)
	a.Warmup = warmup(runs)
	return a
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// merge adds c to cmds, or its runs to an identical command already there.
func merge(cmds []Command, c Command) []Command {
	key := c.key()
	for i := range cmds {
		if cmds[i].key() == key {
			cmds[i].Runs = append(cmds[i].Runs, c.Runs...)
			return cmds
		}
	}
	return append(cmds, c)
}

func (c Command) key() string {
	return fmt.Sprint(c.Warmup) + c.NUMA + "\x02" + c.Tool + "\x00" + strings.Join(c.Env, "\x00") + "\x01" + strings.Join(c.Args, "\x00") + "\x01" + strings.Join(c.Notes, "\x00")
}

// pinFields are the conditions of METHOD.md rule 1 that no command line sets, with what the
// run's environment files state of each (read before the manifest: the files say what ran).
var pinFields = []struct {
	name, section, key string
	stated             func(model.Fingerprint) model.Fact
}{
	{"driver_version", "stack_fingerprint", "driver_version", fact(model.FactDriver)},
	{"base_stack_version", "stack_fingerprint", "base_stack_version", model.Fingerprint.Stack},
	{"engine_version", "stack_fingerprint", "engine_version", model.Fingerprint.Engine},
	{"hardware_sku", "hardware_sku", "", model.Fingerprint.Hardware},
	{"machine", "node", "machine", nil},
	{"numa", "node", "numa", fact(model.FactNUMA)},
	{"card_slot", "node", "card_slot", fact(model.FactCardSlot)},
	{"visible_devices", "", "", fact(model.FactVisible)},
}

func fact(key string) func(model.Fingerprint) model.Fact {
	return func(fp model.Fingerprint) model.Fact { f, _ := fp.Fact(key); return f }
}

// pins lists each pin's values across the arm's runs; runs that disagree show every value.
func pins(runs []Run) []Pin {
	out := make([]Pin, 0, len(pinFields))
	for _, f := range pinFields {
		seen := map[string]bool{}
		var vals []string
		source := ""
		for _, r := range runs {
			if r.Run == nil {
				continue
			}
			var v, src string
			if l := firstLog(r); f.name == "engine_version" && l != nil && l.Version != "" {
				v = l.EngineVersion() // the server's own word first, as rule 1 reads it
			}
			if f.stated != nil && v == "" {
				st := f.stated(r.Fingerprint)
				v, src = st.Value, st.Source()
			}
			switch {
			case v != "":
			case f.section == "":
			case f.key == "":
				v = r.Run.Manifest.String(f.section)
			default:
				v = r.Run.Manifest.String(f.section, f.key)
			}
			if v != "" && !seen[v] {
				seen[v] = true
				vals = append(vals, v)
				if source == "" {
					source = src
				}
			}
		}
		if len(vals) == 0 {
			if f.section != "" {
				out = append(out, Pin{Name: f.name, Value: Placeholder(f.name)})
			}
			continue
		}
		out = append(out, Pin{Name: f.name, Value: strings.Join(vals, " | "), Recorded: true, Source: source})
	}
	return out
}

// warmup says how the runs declare their warm-up: the tool's own (sent apart and left out
// of its statistics; the benchmark command sets it), or the first workload.warmup_iters
// requests of each run, which the analysis drops, so a rerun keeps them in its result and
// declares the same number in its bundle.yaml.
func warmup(runs []Run) string {
	tool, manifest := map[string]bool{}, map[string]bool{}
	for _, r := range runs {
		switch {
		case r.Run == nil:
		case r.Run.ToolWarmup != nil && r.Run.ToolWarmup.Requests > 0:
			tool[strconv.Itoa(r.Run.ToolWarmup.Requests)] = true
		case r.Run.Manifest.String("workload", "warmup_iters") != "":
			manifest[r.Run.Manifest.String("workload", "warmup_iters")] = true
		default:
			manifest[Placeholder("warmup_iters")] = true
		}
	}
	var parts []string
	if len(tool) > 0 {
		parts = append(parts, fmt.Sprintf("%s request(s) sent apart by the tool itself (set on the benchmark command)", joinKeys(tool)))
	}
	if len(manifest) > 0 {
		parts = append(parts, fmt.Sprintf("the first %s request(s) of each run dropped by the analysis: keep them in the rerun's result and declare workload.warmup_iters in its bundle.yaml", joinKeys(manifest)))
	}
	return strings.Join(parts, "; ")
}

func joinKeys(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, " | ")
}

func firstLog(r Run) *model.LogEvidence {
	for _, l := range r.Logs {
		if l != nil {
			return l
		}
	}
	return nil
}
