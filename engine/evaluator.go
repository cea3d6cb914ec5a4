package engine

import (
	"fmt"

	"planner/domain"
)

// Slot addresses an input's or a formula's value in an Evaluator.
type Slot int32

// Evaluator evaluates the node-level formulas of one scenario again and
// again with other input values, without allocating: the inner loop of
// goal seeking, sweeps and anything else that asks "what if" many times.
// It reports no errors; a formula that is not finite simply holds NaN or
// ±Inf, and Eval explains it.
type Evaluator struct {
	plan  *Plan
	prog  *program
	code  []instr // the node-level instructions Run executes
	slots []float64
}

// NewEvaluator prepares an evaluator holding sc's values. When vary names
// the inputs that will change, Run executes only the instructions that
// depend on them; the rest keep the values they have for sc.
func (p *Plan) NewEvaluator(sc domain.Scenario, vary ...string) (*Evaluator, error) {
	st, _, err := p.evalState(sc, false)
	if err != nil {
		return nil, err
	}
	e := &Evaluator{plan: p, prog: p.prog, code: p.prog.node, slots: st.slots}
	if len(vary) > 0 {
		varying := make([]bool, p.prog.slots)
		for _, name := range vary {
			s, ok := p.prog.inputSlot[name]
			if !ok || name == domain.OfferPrice || name == domain.OfferRenewalMonths {
				return nil, fmt.Errorf("%s is not an input%s", name, p.DidYouMean(name))
			}
			varying[s] = true
		}
		e.code = takeBranches(varyingCode(p.prog.node, varying), st.slots, p.fixedCondition(varying, false))
		e.code, _ = p.liveCode(e.code, p.prog.offer)
	}
	return e, nil
}

// Slot finds the slot of an input or formula.
func (p *Plan) Slot(name string) (Slot, error) {
	if s, ok := p.prog.inputSlot[name]; ok {
		return Slot(s), nil
	}
	if i, ok := p.index[name]; ok {
		return Slot(p.prog.formulaSlot[i]), nil
	}
	return 0, fmt.Errorf("%s is neither an input nor a formula%s", name, p.DidYouMean(name))
}

// Set gives a slot a value for the next Run.
func (e *Evaluator) Set(s Slot, v float64) { e.slots[s] = v }

// Run evaluates the node-level formulas (those that depend on the varying
// inputs, when the evaluator was made with them).
func (e *Evaluator) Run() { run(e.code, e.slots) }

// RunOffer evaluates the per-offer formulas at a $/GPU-hour price billed
// for the hours used, after Run.
func (e *Evaluator) RunOffer(price float64) {
	e.plan.setPrice(e.slots, price)
	run(e.prog.offer, e.slots)
}

// RunOfferOf evaluates the per-offer formulas for offer o as it bills,
// after Run.
func (e *Evaluator) RunOfferOf(o domain.Offer) {
	e.plan.setOffer(e.slots, o)
	run(e.prog.offer, e.slots)
}

// Get reads a slot after Run.
func (e *Evaluator) Get(s Slot) float64 { return e.slots[s] }
