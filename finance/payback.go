package finance

import (
	"math"
	"strconv"

	"planner/domain"
	"planner/engine"
	"planner/units"
)

// Payback is when owning instead of renting an offer has paid for itself:
// the first whole month in which the monthly cash saving, undiscounted, has
// repaid the purchase price, if that is within the amortisation. With a
// tax rate the saving is after tax: the cash saving less its tax, and the
// tax the month's depreciation saves. The node is sold for its residual
// at the end of the amortisation, as the NPV counts it: savings that fall
// short of the price alone but repay it with the sale pay back in the last
// month, with the sale (WithSale), so that a positive NPV never comes with
// no payback.
type Payback struct {
	Months   int  // 1..Within; 0 when the saving does not repay the price in time
	Within   int  // the amortisation months it is looked for in
	WithSale bool // Months is the last, repaid only with the sale for the residual
}

// Known says whether the payback could be worked out at all: the model has
// the price, the amortisation and the cash saving.
func (b *Payback) Known() bool { return b != nil && b.Within > 0 }

// Words are the payback as the sheets show it: "14 months", or "no payback
// within 36 months".
func (b *Payback) Words() string {
	if b.WithSale {
		return months(b.Months) + SaleWords
	}
	if b.Months > 0 {
		return months(b.Months)
	}
	return "no payback within " + months(b.Within)
}

// SaleWords follow a payback repaid only with the sale at the end.
const SaleWords = ", with the sale at the end"

func months(n int) string {
	if n == 1 {
		return "1 month"
	}
	return strconv.Itoa(n) + " months"
}

// PaybackOf works out when owning instead of renting an offer, seen from
// a scenario's result, has paid for itself: from the offer's cash saving;
// nil when the model lacks one of the names it needs or the amortisation
// is not a whole number of months.
func PaybackOf(r *engine.Result, o engine.OfferResult) *Payback {
	capex, ok1 := r.Values[domain.Capex]
	n, ok2 := r.Values[domain.AmortizationMonths]
	saving, ok3 := o.Values[domain.CashSaving]
	if !ok1 || !ok2 || !ok3 || n < 1 || n != math.Trunc(n) || n > math.MaxInt32 {
		return nil
	}
	b := &Payback{Within: int(n)}
	if p, ok := PathOf(r, o); ok && p.Changes() {
		t := r.Values[domain.TaxRate]
		d, ok := DepreciationOf(r)
		if t != 0 && !ok {
			return nil
		}
		return p.payback(b, capex, saving, capex*r.Values[domain.Residual], t, d)
	}
	if t := r.Values[domain.TaxRate]; t != 0 {
		d, ok := DepreciationOf(r)
		if !ok {
			return nil
		}
		if d.Rate != 0 {
			b.Months = declining(capex, (1-t)*saving, t, d)
			b.sale(capex, (1-t)*saving*n+t*d.Through(d.Months), capex-d.Amount)
			return b
		}
		saving = (1-t)*saving + t*d.In(1)
	}
	if saving <= 0 {
		return b
	}
	defer b.sale(capex, saving*n, capex*r.Values[domain.Residual])
	// Rounded up as the Results sheet's ROUNDUP does, to 15 significant
	// digits first: a price repaid in exactly ten months (which floating
	// point may divide into 10.000000000000002) is repaid in the tenth.
	if m := units.CeilAsSpreadsheets(capex / saving); m <= n {
		b.Months = int(max(m, 1))
	}
	return b
}

// sale marks a payback that comes only with the sale for the residual at
// the end: the savings over the amortisation and the sale repay the price.
func (b *Payback) sale(capex, saved, sold float64) {
	if b.Months == 0 && sold > 0 && saved+sold >= capex {
		b.Months, b.WithSale = b.Within, true
	}
}

// declining is the payback month with a declining-balance depreciation,
// whose tax saving falls month by month: the first month in which the
// after-tax saving (kept a month) and the tax saved by the depreciation so
// far have repaid the price; 0 when none does. A saving that is not
// positive never repays it, as the depreciation's tax saving is at most
// the tax rate times the price.
func declining(capex, kept, t float64, d Depreciation) int {
	if kept <= 0 {
		return 0
	}
	for m := 1; m <= d.Months; m++ {
		if kept*float64(m)+t*d.Through(m) >= capex {
			return m
		}
	}
	return 0
}
