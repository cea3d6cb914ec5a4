package finance

import (
	"math"

	"planner/domain"
	"planner/engine"
)

// Path is how the prices move over the term against one offer: the rent
// changes by RentChange a year, at each 12th month of the amortisation
// (months 13, 25, …), and the offer holds its price for Renewal months
// before renewing at the price changed by then; the electricity changes by
// PowerChange a year at the same months. Rent and Power are this month's.
type Path struct {
	Rent, Power             float64 // $ a month: the rent of the used hours, the node's power
	RentChange, PowerChange float64 // a year
	Renewal                 float64 // months: 12, or an all hours term of whole years
}

// PathOf is the path against offer o of a scenario's result; false when
// the result lacks a name it needs.
func PathOf(r *engine.Result, o engine.OfferResult) (Path, bool) {
	rent, ok1 := o.Values[domain.RentUsed]
	power, ok2 := r.Values[domain.PowerPerMonth]
	if !ok1 || !ok2 {
		return Path{}, false
	}
	return Path{Rent: rent, Power: power, RentChange: r.Values[domain.RentChange], PowerChange: r.Values[domain.ElectricityChange],
		Renewal: domain.RenewalMonths(*o.Offer)}, true
}

// Changes reports whether either price moves over the term.
func (p Path) Changes() bool { return p.RentChange != 0 || p.PowerChange != 0 }

// RentIn is month m's rent (m from 1): the offer renews every Renewal
// months at the price the yearly changes have made by then, (1 + change)
// to the power of the years since month 1 (domain.RenewalMonths: whole
// years, except for a term off the yearly steps, which planner warns of).
func (p Path) RentIn(m int) float64 {
	renewed := math.Floor(float64(m-1)/p.Renewal) * p.Renewal
	return p.Rent * math.Pow(1+p.RentChange, renewed/12)
}

// PowerIn is month m's power: changed at months 13, 25, ….
func (p Path) PowerIn(m int) float64 {
	return p.Power * math.Pow(1+p.PowerChange, float64((m-1)/12))
}

// SavingIn is month m's cash saving, from this month's: the rent and the
// power moved along their paths, the rest of the running cost as it is.
func (p Path) SavingIn(m int, saving float64) float64 {
	return saving + (p.RentIn(m) - p.Rent) - (p.PowerIn(m) - p.Power)
}

// payback is the first month whose cash saving so far, undiscounted, has
// repaid the price: after tax at t, with the tax the depreciation d saved,
// month by month, since along a path the saving need not grow; else the
// last, with the sale for the residual (sold), if that repays the rest.
func (p Path) payback(b *Payback, capex, saving, sold, t float64, d Depreciation) *Payback {
	total := 0.0
	for m := 1; m <= b.Within; m++ {
		kept := p.SavingIn(m, saving)
		if t != 0 {
			kept = (1-t)*kept + t*d.In(m)
		}
		total += kept
		if total >= capex {
			b.Months = m
			return b
		}
	}
	b.sale(capex, total, sold)
	return b
}
