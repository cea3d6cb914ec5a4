package domain

import (
	"math"

	"planner/diag"
)

// The ways an offer bills, as the Cloud sheet's billing column names them.
const (
	// UsedHours bills the hours the GPUs are used: the meaning of an offer
	// whose billing is empty.
	UsedHours = "used hours"
	// AllHours is a term (reserved, committed) that bills every calendar
	// hour of its months, busy or not.
	AllHours = "all hours"
	// Spot is cheaper capacity that can be taken away: the interrupted
	// share of the used hours is served by the fallback offer.
	Spot = "spot"
)

// Billings lists the ways an offer bills, for a drop-down and a message.
func Billings() []string { return []string{UsedHours, AllHours, Spot} }

// Billing is how an offer bills beyond its price per GPU-hour; its zero
// value is an offer billed for the hours used and nothing more.
type Billing struct {
	Kind         string  // UsedHours, AllHours or Spot; "" reads as UsedHours
	TermMonths   float64 // an AllHours term's length
	Upfront      float64 // what the term asks up front, per GPU
	Interruption float64 // Spot: the share of used hours lost to interruptions
	Fallback     string  // Spot: the offer (its name) serving the interrupted hours
	Extras       float64 // storage, egress, support: $ per GPU rented a month
	// The cells each was read from.
	KindAt, TermAt, UpfrontAt, InterruptionAt, FallbackAt, ExtrasAt diag.Origin
}

// IsDefault reports an offer billed as planner always billed offers: the
// used hours at its price, nothing else.
func (b Billing) IsDefault() bool {
	return (b.Kind == "" || b.Kind == UsedHours) && b.Extras == 0
}

// NoBreakeven says why an all hours offer has no break-even utilisation,
// in a sentence Results and the JSON quote.
const NoBreakeven = "none: owning and the term both pay every hour, so no utilisation makes them equal and utilisation does not move the verdict"

// NoBreakevenShort is NoBreakeven where a table's cell has room for little.
const NoBreakevenShort = "— both pay every hour"

// HasBreakeven reports whether some utilisation is the break-even against
// the offer: not for a term, which bills every hour as owning does, so the
// per-offer break-even formula only restates the utilisation.
func (b Billing) HasBreakeven() bool { return b.KindOrDefault() != AllHours }

// KindOrDefault is the billing's kind, UsedHours when the cell is empty.
func (b Billing) KindOrDefault() string {
	if b.Kind == "" {
		return UsedHours
	}
	return b.Kind
}

// PriceTerms is an offer's effective price per used GPU-hour in the form
// every billing reduces to: PerUsedHour + (PerCalendarHour +
// PerMonth / hours_per_month) / utilization. A used-hours offer has only
// its price per used hour; a term pays its price for every calendar hour
// and its upfront and extras every month, whatever the GPU does.
type PriceTerms struct {
	PerUsedHour     float64 // $ per used GPU-hour
	PerCalendarHour float64 // $ per calendar GPU-hour, paid busy or not
	PerMonth        float64 // $ per GPU a month, paid busy or not
}

// Effective is the price of one used GPU-hour at a utilisation and a
// month's calendar hours.
func (t PriceTerms) Effective(utilization, hoursPerMonth float64) float64 {
	fixed := t.PerCalendarHour + t.PerMonth/hoursPerMonth
	if fixed == 0 {
		return t.PerUsedHour
	}
	return t.PerUsedHour + fixed/utilization
}

// Breakeven is the utilisation at which owning, costPerGPUHour ÷ u a used
// hour, costs as much as renting, PerUsedHour + fixed ÷ u with fixed the
// price per calendar hour and the month spread over its hours: (cost −
// fixed) ÷ PerUsedHour. Above 1 owning never pays; below 0 the fixed part
// alone costs more than owning, so owning pays at any utilisation. False
// for an offer with no price per used hour (a term), which has none.
func (t PriceTerms) Breakeven(costPerGPUHour, hoursPerMonth float64) (float64, bool) {
	if t.PerUsedHour == 0 {
		return 0, false
	}
	fixed := t.PerCalendarHour + t.PerMonth/hoursPerMonth
	if fixed == 0 {
		return costPerGPUHour / t.PerUsedHour, true
	}
	return (costPerGPUHour - fixed) / t.PerUsedHour, true
}

// HasBilling reports whether any offer bills other than by its used hours
// alone; only then do offers' prices depend on the utilisation.
func (m *Model) HasBilling() bool {
	for _, o := range m.Offers {
		if !o.Billing.IsDefault() {
			return true
		}
	}
	return false
}

// FallbackOf finds the offer o's fallback names, by its offer name or its
// label; false when there is none of the same GPU.
func (m *Model) FallbackOf(o Offer) (Offer, bool) {
	for _, f := range m.Offers {
		if (f.Name == o.Fallback || f.Label() == o.Fallback) && SameGPU(f.GPU, o.GPU) {
			return f, true
		}
	}
	return Offer{}, false
}

// Terms is offer o's price in PriceTerms. A spot offer pays its price for
// the hours not interrupted and its fallback's effective price for the
// rest; the reader has checked the fallback exists and is not spot.
func (m *Model) Terms(o Offer) PriceTerms {
	b := o.Billing
	switch b.KindOrDefault() {
	case AllHours:
		return PriceTerms{PerCalendarHour: o.Price, PerMonth: b.Upfront/b.TermMonths + b.Extras}
	case Spot:
		f, _ := m.FallbackOf(o)
		ft := m.Terms(Offer{Price: f.Price, Billing: Billing{Kind: f.Kind, TermMonths: f.TermMonths, Upfront: f.Upfront, Extras: f.Extras}})
		i := b.Interruption
		return PriceTerms{PerUsedHour: (1-i)*o.Price + i*ft.PerUsedHour, PerCalendarHour: i * ft.PerCalendarHour,
			PerMonth: i*ft.PerMonth + b.Extras}
	}
	return PriceTerms{PerUsedHour: o.Price, PerMonth: b.Extras}
}

// RenewalMonths is how many months offer o's price holds before it renews
// at the price rent_price_change_per_year has changed it to, which it does
// at each 12th month of the amortisation: 12 for an offer billed by the
// hour (used hours, spot), as for a term of a divisor of 12 months, which
// renews within the year at the year's price; a term of whole years holds
// its price for all of them. A term of any other length
// (RenewalUnsupported) is taken as renewing every max(12, its months).
func RenewalMonths(o Offer) float64 {
	if o.KindOrDefault() != AllHours {
		return 12
	}
	return max(12, o.TermMonths)
}

// RenewalUnsupported reports a term whose renewals do not fall on the
// yearly steps of the price: neither whole years nor a divisor of 12
// months (18, 9), which the path's closed form does not follow.
func RenewalUnsupported(o Offer) bool {
	t := o.TermMonths
	return o.KindOrDefault() == AllHours && t > 0 && math.Mod(12, t) != 0 && math.Mod(t, 12) != 0
}
