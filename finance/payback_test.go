package finance_test

import (
	"math"
	"testing"

	"planner/domain"
	"planner/engine/enginetest"
	"planner/finance"
	"planner/wording"
)

// The finance case: 8 % a year, 30 % residual, 5 % maintenance, $400 staff
// and $150 network a month on the article's node. Every figure is worked
// out here month by month, the way a spreadsheet's cash-flow table would,
// not from the closed forms the library uses.
func TestOwningWithFinance(t *testing.T) {
	const (
		capex, gpus, n, hours, residual   = 285000.0, 8.0, 36, 730.0, 0.3
		rate, maintenance, staff, network = 0.08, 0.05, 400.0, 150.0
		util                              = 0.5
	)
	set := map[string]domain.Value{"cost_of_capital": domain.Num(rate), "residual": domain.Num(residual),
		"maintenance_per_year": domain.Num(maintenance), "staff_per_month": domain.Num(staff), "network_per_month": domain.Num(network)}
	r := enginetest.Eval(t, set)

	i := rate / 12
	// The payment P at each month's end whose present value, with the
	// residual's, is the price: P·Σv^m + residual·capex·v^n = capex.
	var sumV float64
	for m := 1; m <= n; m++ {
		sumV += math.Pow(1+i, -float64(m))
	}
	vn := math.Pow(1+i, -n)
	payment := (capex - residual*capex*vn) / sumV
	power := 700 * gpus * 1.3 / 1000 * hours * 0.12
	running := power + 1000 + capex*maintenance/12 + staff + network
	capital := payment / gpus / hours
	total := (payment + running) / gpus / hours
	closeTo(t, "capital_per_gpu_hour", r.Values["capital_per_gpu_hour"], capital)
	closeTo(t, "cost_per_gpu_hour", r.Values["cost_per_gpu_hour"], total)
	// Rounded as a reviewer reads them: $1.17 capital, $1.75 a GPU-hour.
	if math.Round(capital*100) != 117 || math.Round(total*100) != 175 {
		t.Errorf("capital %.4f, total %.4f; want $1.17 and $1.75", capital, total)
	}

	for _, o := range r.Offers {
		if !o.Compared {
			continue
		}
		rent := o.Offer.Price * gpus * hours * util
		npv, cumulative, payback := -capex, -capex, 0
		for m := 1; m <= n; m++ {
			npv += (rent - running) * math.Pow(1+i, -float64(m))
			if cumulative += rent - running; cumulative >= 0 && payback == 0 {
				payback = m
			}
		}
		npv += residual * capex * vn
		closeTo(t, o.Offer.Label()+" npv_saving", o.Values["npv_saving"], npv)
		closeTo(t, o.Offer.Label()+" breakeven", o.Values["breakeven_utilization"], total/o.Offer.Price)
		// The sale for the residual at the end repays what the savings leave.
		sale := payback == 0 && cumulative+residual*capex >= 0
		if sale {
			payback = n
		}
		if b := finance.PaybackOf(r, o); b == nil || b.Months != payback || b.Within != n || b.WithSale != sale {
			t.Errorf("%s: payback %+v, want %d within %d (with the sale: %v)", o.Offer.Label(), b, payback, n, sale)
		}
		// Owning pays in today's money exactly when the verdict says buy.
		if (npv > 0) != (o.Verdict == wording.Buy) {
			t.Errorf("%s: npv %v but verdict %s", o.Offer.Label(), npv, o.Verdict)
		}
	}
	// Against RunPod Community at half the month owning never pays back;
	// against AWS ($5.97) the cash saving, $17,431 rent less $3,375 running,
	// repays $285,000 in 20.3 months: in the 21st.
	community := enginetest.Offer(t, r, "RunPod", "H100 SXM, Community")
	aws := enginetest.Offer(t, r, "AWS", "p5.48xlarge Capacity Block")
	if b := finance.PaybackOf(r, community); b.Months != 0 || b.Words() != "no payback within 36 months" {
		t.Errorf("community payback %+v (%s)", b, b.Words())
	}
	if b := finance.PaybackOf(r, aws); b.Months != 21 {
		t.Errorf("AWS payback %+v", b)
	}
}

// At the defaults the new lines are zero and every figure is the
// article's: the capital line is straight-line, bit for bit, and the NPV
// is the monthly saving times the months.
func TestOwningWithoutFinanceIsTheArticles(t *testing.T) {
	r := enginetest.Eval(t, nil)
	if got, want := r.Values["capital_per_gpu_hour"], 285000.0/8*(1-0)/(36*730); got != want {
		t.Errorf("capital %v, want %v", got, want)
	}
	for _, name := range []string{"maintenance_per_gpu_hour", "staff_per_gpu_hour", "network_per_gpu_hour"} {
		if r.Values[name] != 0 {
			t.Errorf("%s = %v, want 0", name, r.Values[name])
		}
	}
	for _, o := range r.Offers {
		if o.Compared {
			closeTo(t, o.Offer.Label(), o.Values["npv_saving"], 36*o.Values["own_saving_per_month"])
		}
	}
}

func closeTo(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

// A price the cash saving repays in exactly ten months pays back in the
// tenth, as a spreadsheet's ROUNDUP says: capex $283,460 at 86 % against
// AWS's $5.97 saves 5.97 × 8 × 730 × 0.86 − 1,637.728 = $28,346 a month,
// which floating point divides into 10.000000000000002.
func TestPaybackInExactlyWholeMonths(t *testing.T) {
	r := enginetest.Eval(t, map[string]domain.Value{"capex": domain.Num(283460), "utilization": domain.Num(0.86)})
	aws := enginetest.Offer(t, r, "AWS", "p5.48xlarge Capacity Block")
	if q := 283460 / aws.Values["cash_saving_per_month"]; q == 10 {
		t.Fatalf("the quotient is exactly %v: the case shows nothing", q)
	}
	if b := finance.PaybackOf(r, aws); b.Months != 10 {
		t.Errorf("payback %+v, want 10 months", b)
	}
}

// Over 24 months with a 20 % residual, owning beats Lambda's $3.99 in
// today's money (NPV +$12,314) although the cash saving alone, $10,013 a
// month, repays only $240,314 of the $285,000: the payback counts the sale
// at the end, $57,000, as the NPV does, and says so.
func TestPaybackCountsTheSale(t *testing.T) {
	const capex, n, residual = 285000.0, 24, 0.2
	r := enginetest.Eval(t, map[string]domain.Value{"amortization_months": domain.Num(n), "residual": domain.Num(residual)})
	lambda := enginetest.Offer(t, r, "Lambda", "H100, 8-GPU plan")
	saving := 3.99*8*730*0.5 - (700*8*1.3/1000*730*0.12 + 1000)
	npv := -capex + saving*n + residual*capex
	closeTo(t, "npv_saving", lambda.Values["npv_saving"], npv)
	if math.Round(npv) != 12314 || !(saving*n < capex) || lambda.Verdict != wording.Buy {
		t.Fatalf("NPV %v, saved %v over %d months, verdict %s", npv, saving*n, n, lambda.Verdict)
	}
	b := finance.PaybackOf(r, lambda)
	if b.Months != n || !b.WithSale || b.Words() != "24 months, with the sale at the end" {
		t.Errorf("payback %+v: %q", b, b.Words())
	}
	// Without the residual there is nothing to sell: no payback.
	r = enginetest.Eval(t, map[string]domain.Value{"amortization_months": domain.Num(n)})
	if b := finance.PaybackOf(r, enginetest.Offer(t, r, "Lambda", "H100, 8-GPU plan")); b.Months != 0 || b.WithSale {
		t.Errorf("no residual: payback %+v", b)
	}
}
