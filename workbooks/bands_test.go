package workbooks

import (
	"testing"

	"planner/domain"
	"planner/units"
)

// The default workbook's every number lies inside its band: init's
// workbook raises no warning of an implausible value.
func TestDefaultsArePlausible(t *testing.T) {
	m := DefaultModel()
	check := func(what, quantity, unit string, v float64) {
		if f := domain.Plausibility(units.USD, quantity, unit, v); f != nil {
			t.Errorf("%s: %s", what, f.Advice("type ", ""))
		}
	}
	for _, in := range m.Inputs {
		if in.Value.IsText {
			continue
		}
		check(in.Name, in.Name, in.Unit, in.Value.Num)
		if in.HasRange {
			check(in.Name+" low", in.Name, in.Unit, in.Low)
			check(in.Name+" high", in.Name, in.Unit, in.High)
		}
	}
	for _, s := range m.Scenarios {
		for name, v := range s.Set {
			if in, ok := m.Input(name); ok && !v.IsText {
				check(s.Name+" "+name, name, in.Unit, v.Num)
			}
		}
	}
	for _, g := range m.GPUs {
		check(g.Name+" memory", domain.GPUMemoryGB, "", g.MemoryGB)
		if g.Watts != 0 {
			check(g.Name+" watts", domain.GPUWatts, "", g.Watts)
		}
	}
	for _, o := range m.Offers {
		check(o.Label(), domain.OfferPrice, "", o.Price)
	}
}
