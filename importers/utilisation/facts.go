package utilisation

import (
	"fmt"
	"strings"

	"benchlens/model"
)

// Facts is what a trace's inventory says of the run's conditions (METHOD.md rule 1): the
// driver version from npu-smi's banner and the hardware from its device rows ("8 × 910B3,
// 65536 MB HBM each"; "8 × Ascend910 (2 chips each), 65536 MB HBM per chip"); nil when the
// trace keeps no inventory.
func Facts(u *model.UtilEvidence) *model.Facts {
	inv := u.Inventory
	if inv == nil || len(inv.Devices) == 0 {
		return nil
	}
	type sku struct {
		name  string
		cards map[string]int // NPU id → chips
		hbm   map[float64]bool
	}
	var skus []*sku
	by := map[string]*sku{}
	for _, d := range inv.Devices {
		m := by[d.Name]
		if m == nil {
			m = &sku{name: d.Name, cards: map[string]int{}, hbm: map[float64]bool{}}
			by[d.Name] = m
			skus = append(skus, m)
		}
		card, _, _ := strings.Cut(d.ID, "-")
		m.cards[card]++
		if d.HBMTotalMB.Known() {
			m.hbm[d.HBMTotalMB.F()] = true
		}
	}
	var parts []string
	for _, m := range skus {
		s := fmt.Sprintf("%d × %s", len(m.cards), orUnnamed(m.name))
		chips := 0
		for _, n := range m.cards {
			chips = max(chips, n)
		}
		if chips > 1 {
			s += fmt.Sprintf(" (%d chips each)", chips)
		}
		if len(m.hbm) == 1 {
			per := "each"
			if chips > 1 {
				per = "per chip"
			}
			for mb := range m.hbm {
				s += fmt.Sprintf(", %g MB HBM %s", mb, per)
			}
		}
		parts = append(parts, s)
	}
	return &model.Facts{DriverVersion: inv.DriverVersion, HardwareSKU: strings.Join(parts, " + "),
		Source: u.Tool + ": the banner's Version and the device rows"}
}

func orUnnamed(s string) string {
	if s == "" {
		return "unnamed device"
	}
	return s
}
