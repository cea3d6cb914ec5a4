package engine

import "planner/domain"

// billingSlots hold an offer's price terms (domain.PriceTerms), set per
// offer in place of offer_price, when some offer bills other than by its
// used hours; offer_price is then computed from them at the scenario's
// utilisation and hours per month, so that everything varying those
// inputs (Monte Carlo, the tornado, goal seek) prices a term or spot
// offer right.
type billingSlots struct {
	perUsedHour, perCalendarHour, perMonth int32
}

// lowerBilling emits, ahead of the per-offer formulas, offer_price =
// per used hour + (per calendar hour + per month / hours_per_month) /
// utilization, the last term only when there is one (an offer billed by
// its used hours stays exact at any utilisation).
func (l *lowerer) lowerBilling(plan *Plan) {
	m := plan.model
	u, okU := l.nodeSlot(plan, domain.Utilization)
	h, okH := l.nodeSlot(plan, domain.HoursPerMonth)
	if !m.HasBilling() || !okU || !okH {
		return
	}
	b := &billingSlots{perUsedHour: l.newSlot(0), perCalendarHour: l.newSlot(0), perMonth: l.newSlot(0)}
	l.p.billing = b
	var code []instr
	l.code = &code
	spread := l.emit(opDiv, b.perMonth, h, 0)
	fixed := l.emit(opAdd, b.perCalendarHour, spread, 0)
	perUsed := l.emit(opDiv, fixed, u, 0)
	withFixed := l.emit(opAdd, b.perUsedHour, perUsed, 0)
	code = append(code, instr{op: opSel, dst: l.p.priceSlot, a: fixed, b: withFixed, c: b.perUsedHour})
	l.p.offer = append(code, l.p.offer...)
}

// nodeSlot is the slot of an input or a node-level formula.
func (l *lowerer) nodeSlot(plan *Plan, name string) (int32, bool) {
	if s, ok := l.p.inputSlot[name]; ok {
		return s, true
	}
	if i, ok := plan.index[name]; ok && !plan.perOffer[i] {
		return l.p.formulaSlot[i], true
	}
	return 0, false
}

// setOffer puts offer o's price, or its price terms, in the slots the
// per-offer code reads.
func (p *Plan) setOffer(slots []float64, o domain.Offer) {
	slots[p.prog.priceSlot] = o.Price
	if b := p.prog.billing; b != nil {
		t := p.model.Terms(o)
		slots[b.perUsedHour], slots[b.perCalendarHour], slots[b.perMonth] = t.PerUsedHour, t.PerCalendarHour, t.PerMonth
	}
}

// setPrice puts a plain price per used GPU-hour in the slots the
// per-offer code reads.
func (p *Plan) setPrice(slots []float64, price float64) {
	p.setOffer(slots, domain.Offer{Price: price})
}

// offerInput reports the slots set per offer rather than computed.
func (p *Plan) offerInput(s int32) bool {
	if b := p.prog.billing; b != nil && (s == b.perUsedHour || s == b.perCalendarHour || s == b.perMonth) {
		return true
	}
	return s == p.prog.priceSlot
}
