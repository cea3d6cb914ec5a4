package engine_test

import (
	"testing"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// A term of 18 months renews off the rent's yearly steps: with the rent
// changing, planner says at its term cell how it renews it; a term of
// whole years, or none changing, says nothing.
func TestTermOffTheYearlyStepsIsWarnedOf(t *testing.T) {
	term := func(months float64) domain.Offer {
		return domain.Offer{Provider: "Example", Name: "H100 term", GPU: "H100 SXM", Price: 2,
			Billing: domain.Billing{Kind: domain.AllHours, TermMonths: months, TermAt: diag.Origin{File: "plan.xlsx", Sheet: "Cloud", Row: 11, Col: 9}}}
	}
	for _, c := range []struct {
		months, change float64
		want           string
	}{
		{18, -0.2, "plan.xlsx: Cloud!I11: Example H100 term: a term of 18 months renews off the yearly steps of rent_price_change_per_year (months 13, 25, …): planner renews it every 18 months at the price changed by (1 + change) to the power 1.5, those months' years; make the term whole years, or a divisor of 12 months, to follow the steps"},
		{18, 0, ""},
		{24, -0.2, ""},
		{6, -0.2, ""},
		{9, -0.2, "plan.xlsx: Cloud!I11: Example H100 term: a term of 9 months renews off the yearly steps of rent_price_change_per_year (months 13, 25, …): planner renews it every 12 months at the price changed by (1 + change) to the power 1, those months' years; make the term whole years, or a divisor of 12 months, to follow the steps"},
	} {
		m := enginetest.SpecModel()
		for i := range m.Inputs {
			if m.Inputs[i].Name == domain.RentChange {
				m.Inputs[i].Value = domain.Num(c.change)
			}
		}
		m.Offers = append(m.Offers, term(c.months))
		p, err := engine.Build(m)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if w := p.Warnings(); w != nil {
			got = w.Error()
		}
		if got != c.want {
			t.Errorf("a %v-month term at %v a year: %q, want %q", c.months, c.change, got, c.want)
		}
	}
}
