package sheets

import (
	"fmt"

	"planner/diag"
	"planner/domain"
)

// effectivePrice is offer o's effective price per used GPU-hour as Excel
// computes it from the price cell above it, the Cloud cells of its billing
// and the base scenario's utilisation and hours per month: the formula
// domain.Model.Terms and PriceTerms.Effective state. A cell left empty in
// Cloud is not referred to; false when a name it needs is not on Results.
func (l linker) effectivePrice(o domain.Offer, price string, i int) (string, bool) {
	refs := l.refs(i, price)
	u, err1 := refs(domain.Utilization)
	h, err2 := refs(domain.HoursPerMonth)
	if err1 != nil || err2 != nil {
		return "", false
	}
	b := o.Billing
	cloud := func(v float64, at diag.Origin) string {
		if v == 0 || at.Sheet == "" {
			return ""
		}
		return cellRef(at)
	}
	extras := cloud(b.Extras, b.ExtrasAt)
	perUsed := func(base string) string {
		if extras == "" {
			return base
		}
		return fmt.Sprintf("%s+%s/%s/%s", base, extras, h, u)
	}
	switch b.KindOrDefault() {
	case domain.AllHours:
		monthly := cloud(b.TermMonths, b.TermAt)
		if up := cloud(b.Upfront, b.UpfrontAt); up != "" && monthly != "" {
			monthly = up + "/" + monthly
		} else {
			monthly = ""
		}
		if extras != "" {
			monthly = join(monthly, extras)
		}
		if monthly == "" {
			return fmt.Sprintf("%s/%s", price, u), true
		}
		return fmt.Sprintf("(%s+(%s)/%s)/%s", price, monthly, h, u), true
	case domain.Spot:
		m := l.out.Plan.Model()
		f, found := m.FallbackOf(o)
		share := cloud(b.Interruption, b.InterruptionAt)
		if !found || f.PriceAt.Sheet == "" {
			return "", false
		}
		fallback, ok := l.effectivePrice(f, priceRef(f), i)
		if !ok {
			return "", false
		}
		if share == "" {
			return perUsed(price), true
		}
		return perUsed(fmt.Sprintf("(1-%s)*%s+%s*(%s)", share, price, share, fallback)), true
	}
	return perUsed(price), true
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "+" + b
}
