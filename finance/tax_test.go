package finance_test

import (
	"math"
	"testing"

	"planner/domain"
	"planner/engine/enginetest"
	"planner/finance"
)

// afterTax works owning against renting each compared offer month by month
// after tax, as a finance team's spreadsheet would: each month the rent
// saved less the running cost, less its tax, plus the tax the month's
// depreciation saves; the price at month 0 and the residual, untaxed, at
// the end; discounted at a twelfth of the yearly cost of capital. The
// depreciation of each month comes from depreciation, worked by the caller.
func afterTax(t *testing.T, set map[string]domain.Value, depreciation func(m int) float64) {
	t.Helper()
	const capex, gpus, n, hours, util = 285000.0, 8.0, 36, 730.0, 0.5
	r := enginetest.Eval(t, set)
	tax, residual, i := set["tax_rate"].Num, set["residual"].Num, set["cost_of_capital"].Num/12
	running := 700*gpus*1.3/1000*hours*0.12 + 1000
	var written float64
	for m := 1; m <= n; m++ {
		written += depreciation(m)
	}
	closeTo(t, "depreciation written off", written, capex*(1-residual))
	for _, o := range r.Offers {
		if !o.Compared {
			continue
		}
		rent := o.Offer.Price * gpus * hours * util
		npv, cumulative, payback := -capex, 0.0, 0
		for m := 1; m <= n; m++ {
			saving := (rent-running)*(1-tax) + tax*depreciation(m)
			npv += saving * math.Pow(1+i, -float64(m))
			if cumulative += saving; cumulative >= capex && payback == 0 {
				payback = m
			}
		}
		npv += residual * capex * math.Pow(1+i, -n)
		closeTo(t, o.Offer.Label()+" npv_saving", o.Values["npv_saving"], npv)
		// The sale at the end repays what the savings leave.
		sale := payback == 0 && residual > 0 && cumulative+residual*capex >= capex
		if sale {
			payback = n
		}
		if b := finance.PaybackOf(r, o); b == nil || b.Months != payback || b.WithSale != sale {
			t.Errorf("%s: payback %+v, want %d (with the sale: %v)", o.Offer.Label(), b, payback, sale)
		}
	}
}

// Straight line at 30 % tax, 8 % a year and a 30 % residual: the price
// less the residual, $199,500, a 36th each month.
func TestAfterTaxStraightLine(t *testing.T) {
	set := map[string]domain.Value{"tax_rate": domain.Num(0.3), "cost_of_capital": domain.Num(0.08), "residual": domain.Num(0.3)}
	afterTax(t, set, func(int) float64 { return 285000 * 0.7 / 36 })
}

// Declining balance at 40 % a year: each month a thirtieth (40 % ÷ 12) of
// what is left of the $199,500 to write off, the rest in month 36.
func TestAfterTaxDecliningBalance(t *testing.T) {
	set := map[string]domain.Value{"tax_rate": domain.Num(0.3), "cost_of_capital": domain.Num(0.08), "residual": domain.Num(0.3),
		"depreciation": domain.Num(0.4)}
	left := map[int]float64{0: 285000 * 0.7}
	var each []float64
	for m := 1; m <= 36; m++ {
		d := left[m-1] / 30
		if m == 36 {
			d = left[m-1]
		}
		left[m] = left[m-1] - d
		each = append(each, d)
	}
	afterTax(t, set, func(m int) float64 { return each[m-1] })
}

// With no tax the depreciation changes nothing: the NPV is the one before
// tax, whichever way the price is written off.
func TestDepreciationWithoutTaxChangesNothing(t *testing.T) {
	before := enginetest.Eval(t, nil)
	declining := enginetest.Eval(t, map[string]domain.Value{"depreciation": domain.Num(0.4)})
	for j, o := range before.Offers {
		if o.Compared && (o.Values["npv_saving"] != declining.Offers[j].Values["npv_saving"] ||
			*finance.PaybackOf(before, o) != *finance.PaybackOf(declining, declining.Offers[j])) {
			t.Errorf("%s: depreciation without tax changed the NPV or the payback", o.Offer.Label())
		}
	}
}

// On the default node (no cost of capital) at 50 % tax: against AWS,
// $17,432.40 rent less $1,637.73 running saves $15,794.67 a month,
// $7,897.34 after tax, and straight-line depreciation, $7,916.67 a month,
// saves $3,958.33 more: $11,855.67 a month repays $285,000 in 24.04
// months, in the 25th (before tax, in the 21st).
func TestAfterTaxPaybackAgainstAWS(t *testing.T) {
	r := enginetest.Eval(t, map[string]domain.Value{"tax_rate": domain.Num(0.5)})
	aws := enginetest.Offer(t, r, "AWS", "p5.48xlarge Capacity Block")
	if b := finance.PaybackOf(r, aws); b.Months != 25 {
		t.Errorf("payback %+v, want 25 months", b)
	}
}
