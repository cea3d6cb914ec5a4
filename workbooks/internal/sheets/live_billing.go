package sheets

import (
	"fmt"

	"planner/diag"
	"planner/domain"
)

// termFormulas are an offer's price terms (domain.PriceTerms) as Excel
// formulas of its Cloud cells; "" stands for a term that is zero.
type termFormulas struct{ perUsedHour, perCalendarHour, perMonth string }

// priceTerms states domain.Model.Terms in Excel, the offer's price read
// from price. A cell left empty in Cloud is not referred to; false when a
// spot offer's fallback has no price cell.
func priceTerms(m *domain.Model, o domain.Offer, price string) (termFormulas, bool) {
	b := o.Billing
	extras := cloudRef(b.Extras, b.ExtrasAt)
	switch b.KindOrDefault() {
	case domain.AllHours:
		var upfront string
		if up, term := cloudRef(b.Upfront, b.UpfrontAt), cloudRef(b.TermMonths, b.TermAt); up != "" && term != "" {
			upfront = up + "/" + term
		}
		return termFormulas{perCalendarHour: price, perMonth: join(upfront, extras)}, true
	case domain.Spot:
		f, found := m.FallbackOf(o)
		if !found || f.PriceAt.Sheet == "" {
			return termFormulas{}, false
		}
		fallback, ok := priceTerms(m, f, priceRef(f))
		share := cloudRef(b.Interruption, b.InterruptionAt)
		if !ok || share == "" {
			return termFormulas{perUsedHour: price, perMonth: extras}, ok
		}
		of := func(term string) string {
			if term == "" {
				return ""
			}
			return fmt.Sprintf("%s*(%s)", share, term)
		}
		return termFormulas{perUsedHour: join(fmt.Sprintf("(1-%s)*%s", share, price), of(fallback.perUsedHour)),
			perCalendarHour: of(fallback.perCalendarHour), perMonth: join(of(fallback.perMonth), extras)}, true
	}
	return termFormulas{perUsedHour: price, perMonth: extras}, true
}

// cloudRef refers to a billing's Cloud cell; "" when it holds nothing.
func cloudRef(v float64, at diag.Origin) string {
	if v == 0 || at.Sheet == "" {
		return ""
	}
	return cellRef(at)
}

// fixed is what the terms charge whatever the GPU does, in $ per GPU over
// a month of hours calendar hours; "" when nothing.
func (t termFormulas) fixed(hours string) string {
	month := t.perMonth
	if month != "" {
		month = fmt.Sprintf("(%s)", month)
	}
	switch {
	case t.perCalendarHour != "" && month != "":
		return fmt.Sprintf("(%s)*%s+%s", t.perCalendarHour, hours, month)
	case t.perCalendarHour != "":
		return fmt.Sprintf("(%s)*%s", t.perCalendarHour, hours)
	}
	return month
}

// effectivePrice is offer o's effective price per used GPU-hour as Excel
// computes it from the price cell above it, the Cloud cells of its billing
// and scenario i's utilisation and hours per month (PriceTerms.Effective);
// false when a name it needs is not on Results.
func (l linker) effectivePrice(o domain.Offer, price string, i int) (string, bool) {
	refs := l.refs(i, price)
	u, err1 := refs(domain.Utilization)
	h, err2 := refs(domain.HoursPerMonth)
	if err1 != nil || err2 != nil {
		return "", false
	}
	m := l.out.Plan.Model()
	t, ok := priceTerms(&m, o, price)
	if !ok {
		return "", false
	}
	fixed := t.fixed(h)
	if fixed == "" {
		return t.perUsedHour, true
	}
	spread := fmt.Sprintf("(%s)/%s/%s", fixed, h, u)
	return join(t.perUsedHour, spread), true
}

// exactBreakeven is offer o's break-even as Excel computes it when the
// engine takes it from the price terms (engine.Plan.ExactBreakeven):
// (cost_per_gpu_hour − the fixed part per calendar hour) ÷ the price per
// used hour, from its list price cell price and scenario i's inputs; false
// where the formula's own value stands. Along a path over the term
// (engine's exactBreakeven) it is the utilisation where the NPV is zero:
// the effective price effective times the formula's value asWritten,
// less the fixed part, over the price per used hour.
func (l linker) exactBreakeven(o domain.Offer, price string, i int, effective, asWritten string) (string, bool) {
	m := l.out.Plan.Model()
	if t := m.Terms(o); !l.out.Plan.ExactBreakeven() || t.PerUsedHour == 0 || t.PerCalendarHour == 0 && t.PerMonth == 0 {
		return "", false
	}
	refs := l.refs(i, price)
	cost, err1 := refs(domain.CostPerGPUHour)
	h, err2 := refs(domain.HoursPerMonth)
	t, ok := priceTerms(&m, o, price)
	fixed := t.fixed(h)
	if err1 != nil || err2 != nil || !ok || fixed == "" || t.perUsedHour == "" {
		return "", false
	}
	flat := fmt.Sprintf("(%s-(%s)/%s)/(%s)", cost, fixed, h, t.perUsedHour)
	rent, err1 := refs(domain.RentChange)
	power, err2 := refs(domain.ElectricityChange)
	if err1 != nil || err2 != nil {
		return flat, true
	}
	along := fmt.Sprintf("(%s*(%s)-(%s)/%s)/(%s)", effective, asWritten, fixed, h, t.perUsedHour)
	return fmt.Sprintf("IF(AND(%s=0,%s=0),%s,%s)", rent, power, flat, along), true
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "+" + b
}
