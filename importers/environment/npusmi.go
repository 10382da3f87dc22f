package environment

import (
	"benchlens/importers/utilisation"
	"benchlens/model"
)

// npu-smi info as vllm-ascend's collect_env prints it under "NPU:" is read by the one reader
// of npu-smi tables (utilisation.ReadNPUTable), every layout it knows: the banner's version
// is the driver's, each chip (A3 tables give each NPU two, named "n-c") a device with its
// name, bus id and HBM total, at the line of its NPU row. The process table belongs to the
// machine's moment, not to its make-up, and is left to the utilisation evidence.
func (d *doc) npuSMI(ls []line) {
	texts := make([]string, len(ls))
	for i, l := range ls {
		texts[i] = l.text
	}
	t := utilisation.ReadNPUTable(texts)
	if t == nil {
		return
	}
	at := func(n int) int {
		if n >= 1 && n <= len(ls) {
			return ls[n-1].n
		}
		return 0
	}
	if t.Inventory.DriverVersion != "" {
		d.fact(model.FactDriver, t.Inventory.DriverVersion, at(t.BannerLine))
	}
	for i, dev := range t.Inventory.Devices {
		dv := d.device(dev.ID)
		dv.Name, dv.BusID, dv.MemoryMB, dv.Line = dev.Name, dev.BusID, dev.HBMTotalMB, at(t.DeviceLines[i])
	}
}
