package main

import (
	"fmt"
	"math"
	"testing"
)

// docs/finance.md's paths over the term: the default workbook with the
// rent falling 30 % a year. Against Lambda's $3.99 the rent of the used
// hours holds for months 1-12, is 0.7 of itself for 13-24 and 0.49 for
// 25-36: 26.28 months' worth. Worked here month by month, without a cost
// of capital, as the page works it by hand, and against planner's run.
func TestWorkedPathsExample(t *testing.T) {
	_, plan := freshPlan(t)
	const change = -0.3
	d, _ := exampleEval(t, plan, "--set", fmt.Sprintf("rent_price_change_per_year=%g", change))
	n := articleNode()
	l, gpus, hours, u, capex, months := n.lines(), n["gpus"], n["hours_per_month"], n["utilization"], n["capex"], n["amortization_months"]
	running := l["running_cost_per_month"]
	walk := func(price, u float64) (worth, npv float64, payback int, saved [3]float64) {
		total := 0.0
		for m := 1; m <= int(months); m++ {
			rent := gpus * hours * u * price * math.Pow(1+change, float64((m-1)/12))
			worth += rent
			total += rent - running
			saved[(m-1)/12] = rent - running
			if payback == 0 && total >= capex {
				payback = m
			}
		}
		return worth, -capex + total, payback, saved
	}
	rent := gpus * hours * u * lambdaPrice
	worth, npv, payback, saved := walk(lambdaPrice, u)
	breakeven := (capex + running*months) / (worth / u)
	o := exampleOffer(t, d, "Lambda H100, 8-GPU plan")
	if !near(o.Values["npv_saving"], npv) || !near(o.Values["breakeven"], breakeven) || payback != 0 {
		t.Errorf("against Lambda: NPV %v, break-even %v; month by month %v, %v, payback %d", o.Values["npv_saving"], o.Values["breakeven"], npv, breakeven, payback)
	}
	if _, atBreakeven, _, _ := walk(lambdaPrice, breakeven); math.Abs(atBreakeven) > 1e-6 {
		t.Errorf("at the break-even %v the NPV is %v", breakeven, atBreakeven)
	}
	_, awsNPV, awsPayback, awsSaved := walk(5.97, u)
	aws := exampleOffer(t, d, "AWS p5.48xlarge Capacity Block, US East (N. Virginia)")
	if !near(aws.Values["npv_saving"], awsNPV) || aws.Values["payback_months"] != float64(awsPayback) {
		t.Errorf("against AWS: NPV %v, payback %v; month by month %v, %d", aws.Values["npv_saving"], aws.Values["payback_months"], awsNPV, awsPayback)
	}
	flat := -capex + (rent-running)*months
	quotes(t, "docs/finance.md", page(t, "docs/finance.md"),
		"NPV "+money(flat, 0)+")", "= "+money(rent, 2)+" a month", fmt.Sprintf("12 × 2.19 = %.2f months' worth, %s", worth/rent, money(worth, 2)),
		"at "+money(running, 2)+" a month, "+money(running*months, 2)+" over 36 months",
		"= "+bold(money(npv, 0)), fmt.Sprintf("u = %s ÷ %s = %s", money(capex+running*months, 2)[1:], money(worth/u, 2)[1:], bold(fmt.Sprintf("%.1f %%", 100*breakeven))),
		money(saved[0], 2)+" a month in the first year, "+money(saved[1], 2)+" in the second and "+money(saved[2], 2)+" in the third",
		"adds up to "+money(12*(saved[0]+saved[1]+saved[2]), 0), money(awsSaved[0], 2)+" a month for a year, then "+money(awsSaved[1], 2),
		"in the "+bold(ordinal(float64(awsPayback)))+" month")
	quotes(t, "README.md", page(t, "README.md"),
		"(NPV "+money(flat, 0)+")", fmt.Sprintf("%.2f months' worth", worth/rent), "the NPV "+money(npv, 0),
		fmt.Sprintf("the break-even %.1f %%", 100*breakeven), "in the "+ordinal(float64(awsPayback))+" month")
}
