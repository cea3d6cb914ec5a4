package finance

import (
	"math"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// The article's node from first principles: 8 × 700 W × 1.3 = 7.28 kW for
// 730 hours at $0.12 is $637.728 of power a month, $1,000 of rack; the
// price is $285,000, no residual.
const (
	articlePower   = 8 * 700 * 1.3 / 1000 * 730 * 0.12
	articleRack    = 1000.0
	articleCapex   = 285000.0
	articleMonths  = 36
	articleGPUHrs  = 8 * 730.0
	pathsTolerance = 1e-9
)

// pathModel is the article's model with the values set, and the offers
// given.
func pathModel(t *testing.T, set map[string]float64, offers ...domain.Offer) *engine.Plan {
	t.Helper()
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		if v, ok := set[m.Inputs[i].Name]; ok {
			m.Inputs[i].Value = domain.Num(v)
		}
	}
	m.Offers = append(m.Offers, offers...)
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func evalBase(t *testing.T, p *engine.Plan, set map[string]float64) *engine.Result {
	t.Helper()
	values := map[string]domain.Value{}
	for k, v := range set {
		values[k] = domain.Num(v)
	}
	r, err := p.Eval(domain.Scenario{Name: domain.Base, Set: values})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// walk is owning against renting month by month, from first principles:
// the price at month 0, then each month m's rent less its power and rack,
// discounted at rate / 12, with the rent and the power in month m given.
// It returns the NPV and the payback month (0 for none).
func walk(rate float64, rent, power func(m int) float64) (npv float64, payback int) {
	npv = -articleCapex
	saved := 0.0
	for m := 1; m <= articleMonths; m++ {
		cash := rent(m) - power(m) - articleRack
		npv += cash / math.Pow(1+rate/12, float64(m))
		saved += cash
		if payback == 0 && saved >= articleCapex {
			payback = m
		}
	}
	return npv, payback
}

func near(a, b float64) bool { return math.Abs(a-b) <= pathsTolerance*math.Max(1, math.Abs(b)) }

// A rent falling 30 % a year, at 8 % a year: each offer's rent of the used
// hours is its price × 8 GPUs × 730 h × 50 %, times 0.7 from month 13 and
// 0.49 from month 25, discounted month by month; the NPV, the payback and
// the verdict follow it, and at the break-even utilisation the NPV is
// zero.
func TestFallingRentDiscountedMonthByMonth(t *testing.T) {
	set := map[string]float64{domain.RentChange: -0.3, domain.CostOfCapital: 0.08}
	p := pathModel(t, set)
	r := evalBase(t, p, nil)
	compared := 0
	for _, o := range r.Offers {
		if !o.Compared {
			continue
		}
		compared++
		price := o.Offer.Price
		rent := func(u float64) func(int) float64 {
			return func(m int) float64 { return price * articleGPUHrs * u * math.Pow(0.7, float64((m-1)/12)) }
		}
		flat := func(int) float64 { return articlePower }
		npv, payback := walk(0.08, rent(0.5), flat)
		if got := o.Values[domain.NPVSaving]; !near(got, npv) {
			t.Errorf("%s: NPV %v, month by month %v", o.Offer.Label(), got, npv)
		}
		if got := PaybackOf(r, o); got.Months != payback {
			t.Errorf("%s: payback in month %d, month by month %d", o.Offer.Label(), got.Months, payback)
		}
		if want := map[bool]string{true: "buy", false: "rent"}[npv >= 0]; o.Verdict != want {
			t.Errorf("%s: verdict %s with an NPV of %.0f", o.Offer.Label(), o.Verdict, npv)
		}
		be := o.Values[domain.Breakeven]
		if atBreakeven, _ := walk(0.08, rent(be), flat); math.Abs(atBreakeven) > 1e-6 {
			t.Errorf("%s: at the break-even %v the NPV is %v, not zero", o.Offer.Label(), be, atBreakeven)
		}
		at := evalBase(t, p, map[string]float64{domain.Utilization: be})
		for _, a := range at.Offers {
			if a.Offer.Label() == o.Offer.Label() && math.Abs(a.Values[domain.NPVSaving]) > 1e-6 {
				t.Errorf("%s: planner's NPV at the break-even %v is %v", o.Offer.Label(), be, a.Values[domain.NPVSaving])
			}
		}
	}
	if compared != 4 {
		t.Fatalf("%d offers compared, want the 4 of the H100 SXM", compared)
	}
}

// Electricity rising 10 % a year: the power is $637.728 for months 1-12,
// 1.1 times that for 13-24, 1.21 times for 25-36, without a cost of
// capital; the rent flat.
func TestElectricityRising(t *testing.T) {
	p := pathModel(t, map[string]float64{domain.ElectricityChange: 0.1})
	r := evalBase(t, p, nil)
	o := enginetest.Offer(t, r, "Lambda", "H100, 8-GPU plan")
	npv, payback := walk(0, func(int) float64 { return 3.99 * articleGPUHrs * 0.5 },
		func(m int) float64 { return articlePower * math.Pow(1.1, float64((m-1)/12)) })
	if got := o.Values[domain.NPVSaving]; !near(got, npv) {
		t.Errorf("NPV %v, month by month %v", got, npv)
	}
	if got := PaybackOf(r, o); got.Months != payback {
		t.Errorf("payback in month %d, month by month %d", got.Months, payback)
	}
	// Power rising costs owning more than the flat price does.
	flat := enginetest.Offer(t, evalBase(t, pathModel(t, nil), nil), "Lambda", "H100, 8-GPU plan").Values[domain.NPVSaving]
	if want := flat - articlePower*(12*0.1+12*0.21); !near(o.Values[domain.NPVSaving], want) {
		t.Errorf("NPV %v, want the flat %v less 12 × 10 %% and 12 × 21 %% of a month's power, %v", o.Values[domain.NPVSaving], flat, want)
	}
}

// A term holds its price for its months and renews at the price changed
// by then: a 24-month term at $2.00 an hour pays 8 × 730 × $2.00 a month
// for months 1-24 and, renewed after two steps of -20 %, 0.64 of that for
// months 25-36; a 12-month term renews every year, like an hourly price;
// a 36-month one keeps its price throughout. None moves with utilisation.
func TestTermRenewsAtTheChangedPrice(t *testing.T) {
	term := func(months float64) domain.Offer {
		return domain.Offer{Provider: "Example", Name: "H100, " + map[float64]string{12: "1-year", 24: "2-year", 36: "3-year"}[months],
			GPU: "H100 SXM", Price: 2.0, Billing: domain.Billing{Kind: domain.AllHours, TermMonths: months}}
	}
	set := map[string]float64{domain.RentChange: -0.2, domain.CostOfCapital: 0.06}
	p := pathModel(t, set, term(12), term(24), term(36))
	monthly := 2.0 * articleGPUHrs
	steps := map[float64]func(m int) float64{
		12: func(m int) float64 { return monthly * math.Pow(0.8, float64((m-1)/12)) },
		24: func(m int) float64 { return monthly * map[bool]float64{true: 1, false: 0.64}[m <= 24] },
		36: func(int) float64 { return monthly },
	}
	for _, u := range []float64{0.3, 0.5, 0.8} {
		r := evalBase(t, p, map[string]float64{domain.Utilization: u})
		for months, rent := range steps {
			o := enginetest.Offer(t, r, "Example", term(months).Name)
			npv, payback := walk(0.06, rent, func(int) float64 { return articlePower })
			if got := o.Values[domain.NPVSaving]; !near(got, npv) {
				t.Errorf("%v-month term at %v: NPV %v, month by month %v", months, u, got, npv)
			}
			if got := PaybackOf(r, o); got.Months != payback {
				t.Errorf("%v-month term at %v: payback in month %d, month by month %d", months, u, got.Months, payback)
			}
			if want := map[bool]string{true: "buy", false: "rent"}[npv >= 0]; o.Verdict != want {
				t.Errorf("%v-month term at %v: verdict %s with an NPV of %.0f", months, u, o.Verdict, npv)
			}
		}
	}
}
