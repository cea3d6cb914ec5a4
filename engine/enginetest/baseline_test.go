package enginetest

import (
	"testing"

	"planner/domain"
)

// The baseline computes what planner computes, so the comparison is fair:
// every node-level formula, and owning's NPV against each offer, at the
// defaults and with every line and path beyond the article's three.
func TestBaselineMatchesPlanner(t *testing.T) {
	in := DefaultInputs()
	check(t, nil, in)
	set := map[string]domain.Value{"cost_of_capital": domain.Num(0.08), "residual": domain.Num(0.3),
		"maintenance_per_year": domain.Num(0.05), "staff_per_month": domain.Num(400), "network_per_month": domain.Num(150),
		"software_per_gpu_year": domain.Num(1200), "electricity_price_change_per_year": domain.Num(0.04),
		"depreciation": domain.Num(0.4), "tax_rate": domain.Num(0.25), "rent_price_change_per_year": domain.Num(-0.2)}
	in.Rate, in.Residual, in.Maintenance, in.Staff, in.Network = 0.08, 0.3, 0.05, 400, 150
	in.Software, in.PriceChange, in.Depreciation, in.TaxRate = 1200, 0.04, 0.4, 0.25
	check(t, set, in)
}

// check compares planner's evaluation of SpecModel with set against the
// baseline's of in, value for value.
func check(t *testing.T, set map[string]domain.Value, in NodeInputs) {
	t.Helper()
	r := Eval(t, set)
	var out NodeOutputs
	HandWritten(&in, &out)
	for name, want := range map[string]float64{"per_gpu_capex": out.PerGPU, "amortization_hours": out.AmortHours,
		"monthly_rate": out.Monthly, "discount_factor": out.Discount, "annuity_factor": out.Annuity,
		"capital_per_month": out.CapitalMonth, "capital_per_gpu_hour": out.Capital, "node_kw": out.KW,
		"power_per_month": out.PowerMonth, "power_per_gpu_hour": out.Power, "power_path_factor": out.PathFactor,
		"rack_per_gpu_hour": out.Rack, "maintenance_per_month": out.MaintenanceMonth,
		"maintenance_per_gpu_hour": out.Maintenance, "staff_per_gpu_hour": out.Staff, "network_per_gpu_hour": out.Network,
		"software_per_gpu_hour": out.Software, "cost_per_gpu_hour": out.Cost, "cost_per_used_hour": out.Used,
		"node_cost_per_month": out.NodeMonth, "running_cost_per_month": out.Running,
		"depreciation_per_month": out.DepreciationMonth, "depreciation_pv": out.DepreciationPV, "tax_shield_pv": out.TaxShield} {
		got, ok := r.Values[name]
		if !ok || got != want {
			t.Errorf("%s: planner %v, hand-written %v", name, got, want)
		}
	}
	if n := len(r.Values) - len(SpecModel().Inputs) + 1; n != 24 { // the text input gpu is not among the values
		t.Errorf("planner evaluates %d node-level formulas; the baseline has 24", n)
	}
	rentChange := 0.0
	if v, ok := set["rent_price_change_per_year"]; ok {
		rentChange = v.Num
	}
	compared := 0
	for _, o := range r.Offers {
		got, ok := o.Values[domain.NPVSaving]
		if !ok {
			continue
		}
		compared++
		want := NPV(&in, &out, OfferInputs{Price: o.Offer.Price, Renewal: domain.RenewalMonths(*o.Offer), RentChange: rentChange})
		if got != want {
			t.Errorf("NPV against %s: planner %v, hand-written %v", o.Offer.Label(), got, want)
		}
	}
	if compared == 0 {
		t.Error("planner compared no offer's NPV")
	}
}
