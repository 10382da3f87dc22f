package reproduce

import (
	"fmt"
	"strings"

	"benchlens/model"
)

// processVisible are the visible-device variables a process reads itself; the container's
// (NVIDIA_VISIBLE_DEVICES, ASCEND_VISIBLE_DEVICES) are set where the container starts, so
// they are pins, not part of the command.
var processVisible = []string{"CUDA_VISIBLE_DEVICES", "HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "ASCEND_RT_VISIBLE_DEVICES"}

// place pins the server to what its run's environment files state: the devices it saw (the
// visible-device variable it was started with) and, when their NUMA affinity is known, the
// NUMA node(s) through numactl.
func (c *Command) place(fp model.Fingerprint) {
	if v, ok := fp.Visible(); ok {
		for _, name := range processVisible {
			if v.Name == name {
				c.Env = append(c.Env, v.Name+"="+v.Value)
				c.Notes = append(c.Notes, fmt.Sprintf("%s as %s line %d printed it", v.Name, fp.VarFile(v.Name), v.Line))
			}
		}
	}
	if n, ok := fp.Fact(model.FactNUMA); ok {
		c.NUMA = n.Value
		what := "node"
		if strings.ContainsAny(n.Value, ",-") {
			what = "nodes"
		}
		c.Notes = append(c.Notes, fmt.Sprintf("bound to NUMA %s %s, its devices' affinity (%s)", what, n.Value, n.Source()))
	}
}
