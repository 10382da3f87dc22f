package environment

import (
	"regexp"
	"strconv"
	"strings"

	"benchlens/model"
)

// nvidia-smi -q (the documented "GPU ATTRIBUTES" layout): "==============NVSMI LOG==============",
// "Driver Version : 550.54.15", "CUDA Version : 12.4" (the driver's CUDA, not the stack's:
// not read), "Attached GPUs : 8", then per GPU a block opened by its bus id
// ("GPU 00000000:18:00.0") with indented "Product Name : …", "Minor Number : 0", a "PCI"
// group with "Bus Id : …", and "FB Memory Usage" with "Total : 81559 MiB". GPUs are listed
// in PCI bus order, the order nvidia-smi numbers them.

var (
	smiGPU   = regexp.MustCompile(`^GPU ([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\.[0-9A-Fa-f])$`)
	smiMiB   = regexp.MustCompile(`^(\d+(?:\.\d+)?)\s*MiB$`)
	smiGroup = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9 /()-]*$`)
)

func (d *doc) smiQuery() {
	d.ev.Tool = ToolSMIQuery
	var dv *model.EnvDevice
	group := ""
	for _, l := range d.lines {
		t := strings.TrimSpace(l.text)
		if m := smiGPU.FindStringSubmatch(t); m != nil {
			dv = d.device(strconv.Itoa(len(d.ev.Devices)))
			dv.BusID, group = m[1], ""
			continue
		}
		k, v, ok := keyValue(t)
		if !ok {
			if smiGroup.MatchString(t) {
				group = t
			}
			continue
		}
		switch {
		case k == "Driver Version":
			d.fact(model.FactDriver, v, l.n)
		case dv == nil:
		case k == "Product Name":
			dv.Name, dv.Line = v, l.n
		case k == "Total" && group == "FB Memory Usage":
			if m := smiMiB.FindStringSubmatch(v); m != nil {
				if f, err := strconv.ParseFloat(m[1], 64); err == nil {
					dv.MemoryMB = model.Num(f)
				}
			}
		}
	}
	d.memUnit = "MiB"
}
