package engine

import (
	"strings"

	"github.com/expr-lang/expr/ast"

	"planner/domain"
	"planner/formulas"
)

// billingSlots hold an offer's price terms (domain.PriceTerms), set per
// offer in place of offer_price, when some offer bills other than by its
// used hours; offer_price is then computed from them at the scenario's
// utilisation and hours per month, so that everything varying those
// inputs (Monte Carlo, the tornado, goal seek) prices a term or spot
// offer right.
type billingSlots struct {
	perUsedHour, perCalendarHour, perMonth int32
	fixed                                  int32 // per calendar hour + per month / hours_per_month
}

// lowerBilling emits, as the first of the per-offer code, offer_price =
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
	b.fixed = fixed
	perUsed := l.emit(opDiv, fixed, u, 0)
	withFixed := l.emit(opAdd, b.perUsedHour, perUsed, 0)
	code = append(code, instr{op: opSel, dst: l.p.priceSlot, a: fixed, b: withFixed, c: b.perUsedHour})
	l.p.offer = append(code, l.p.offer...)
}

// exactBreakeven lowers the built-in break-even, cost_per_gpu_hour /
// offer_price, as domain.PriceTerms.Breakeven computes it when the offer
// has a fixed part and a price per used hour: (cost_per_gpu_hour − fixed)
// / per used hour, where owning and renting cost the same per used hour.
// cost ÷ the effective price is that only without a fixed part, and with
// one it moves with the utilisation. Where the offer has no fixed part, or
// no price per used hour (a term: the verdict reads the formula's value),
// the formula's own value stands, exactly as without billing. nil when
// no offer bills so, or the break-even is a formula of the plan's own.
func (l *lowerer) exactBreakeven(plan *Plan) func(tree ast.Node, dst int32) {
	b := l.p.billing
	cost, ok := l.nodeSlot(plan, domain.CostPerGPUHour)
	i, isFormula := plan.index[domain.Breakeven]
	builtin, _ := formulas.Builtin(domain.Breakeven)
	if b == nil || !ok || !isFormula || squeeze(plan.checked[i].Formula.Source) != squeeze(builtin.Source) {
		return nil
	}
	rent, okR := l.nodeSlot(plan, domain.RentChange)
	power, okP := l.nodeSlot(plan, domain.ElectricityChange)
	return func(tree ast.Node, dst int32) {
		asWritten := l.expr(tree, plan)
		exact := l.emit(opAnd, b.fixed, b.perUsedHour, 0)
		// The division is computed for every offer; by 1 where it is not
		// used, so that a term's break-even stays finite.
		perUsed := l.emit(opSel, exact, b.perUsedHour, l.constant(1))
		u := l.emit(opDiv, l.emit(opSub, cost, b.fixed, 0), perUsed, 0)
		if okR && okP {
			// Along a path the formula is the utilisation at which the
			// NPV is zero as if the whole rent grew with the used hours:
			// the rent it stands for there, offer_price × its value, less
			// the fixed part, is paid per used hour.
			paths := l.emit(opOr, rent, power, 0)
			atZero := l.emit(opDiv, l.emit(opSub, l.emit(opMul, l.p.priceSlot, asWritten, 0), b.fixed, 0), perUsed, 0)
			u = l.emit(opSel, paths, atZero, u)
		}
		*l.code = append(*l.code, instr{op: opSel, dst: dst, a: exact, b: u, c: asWritten})
	}
}

// ExactBreakeven reports whether the break-even of an offer with a fixed
// part and a price per used hour is domain.PriceTerms.Breakeven rather
// than the formula's value, so that a workbook states the same.
func (p *Plan) ExactBreakeven() bool { return p.prog.exact }

// squeeze is a formula's text without its spaces, to compare two.
func squeeze(src string) string { return strings.Join(strings.Fields(src), "") }

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
	slots[p.prog.renewalSlot] = domain.RenewalMonths(o)
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
	return s == p.prog.priceSlot || s == p.prog.renewalSlot
}
