package engine

import (
	"fmt"
	"math"
	"slices"

	"planner/domain"
)

// Batch evaluates one scenario for a block of samples of a few varying
// inputs at once, column by column. Instructions that do not depend on the
// varying inputs run once, when the batch is made; their results are
// broadcast into columns the varying instructions read. Running a block
// allocates nothing.
type Batch struct {
	plan        *Plan
	size        int
	result      *Result     // the scenario evaluated once, without variation
	vary        []int32     // slots of the varying inputs, in the order given
	vec         [][]float64 // per slot: its column; nil when no varying instruction reads it
	varies      []bool      // per slot: it depends on a varying input
	node        []instr     // node instructions that depend on a varying input
	offer       []instr     // per-offer instructions that depend on a varying input
	nodeRun     []instr     // node without the copies a shared column makes needless
	offerRun    []instr     // the same of offer
	offers      []batchOffer
	guards      []int32          // varying node slots whose non-finite value fails a sample
	offerGuards []int32          // the same among the per-offer slots
	writes      map[int32]*instr // writers, once made
}

// batchOffer is a compared offer with its per-offer constant columns.
type batchOffer struct {
	index int         // in the model's offers
	slots []int32     // per-offer slots the varying instructions read
	cols  [][]float64 // their columns, broadcast from this offer's values
}

// NewBatch prepares to evaluate sc for blocks of up to size samples in which
// the inputs named in vary take other values. When needs names formulas
// (node-level or per offer), only what they depend on is evaluated.
func (p *Plan) NewBatch(sc domain.Scenario, vary []string, size int, needs ...string) (*Batch, error) {
	st, res, err := p.evalState(sc, true)
	if err != nil {
		return nil, err
	}
	b := &Batch{plan: p, size: size, result: res, vec: make([][]float64, p.prog.slots), varies: make([]bool, p.prog.slots)}
	varying := b.varies
	for _, name := range vary {
		s, ok := p.prog.inputSlot[name]
		if !ok || name == domain.OfferPrice || name == domain.OfferRenewalMonths {
			return nil, fmt.Errorf("%s is not an input", name)
		}
		varying[s] = true
		b.vary = append(b.vary, s)
	}
	node, offer := p.prog.node, p.prog.offer
	if len(needs) > 0 {
		node, offer = p.neededCode(needs)
	}
	offersRan := slices.ContainsFunc(res.Offers, func(o OfferResult) bool { return o.Compared })
	fixedCondition := p.fixedCondition(varying, offersRan)
	b.node = takeBranches(varyingCode(node, varying), st.slots, fixedCondition)
	b.offer = takeBranches(varyingCode(offer, varying), st.slots, fixedCondition)
	b.node, b.offer = p.liveCode(b.node, b.offer)
	shared := p.sharedColumns(b.node, b.offer)
	b.nodeRun, b.offerRun = withoutShared(b.node, shared), withoutShared(b.offer, shared)
	for _, s := range b.vary {
		b.vec[s] = make([]float64, size)
	}
	for _, in := range append(append([]instr(nil), b.nodeRun...), b.offerRun...) {
		if b.vec[in.dst] == nil {
			b.vec[in.dst] = make([]float64, size)
		}
	}
	for dst, src := range shared {
		b.vec[dst] = b.vec[src]
	}
	perOffer := offerSlots(p.prog.offer, varying)
	for _, s := range operands(append(append([]instr(nil), b.node...), b.offer...), varying) {
		if !perOffer[s] {
			b.vec[s] = broadcast(st.slots[s], size)
		}
	}
	for i, o := range res.Offers {
		if o.Compared {
			b.offers = append(b.offers, b.offerColumns(i, st.slots, perOffer, varying))
		}
	}
	b.guards = guards(b.node, varying, p.prog.formulaSlot)
	b.offerGuards = guards(b.offer, varying, p.prog.formulaSlot)
	return b, nil
}

// neededCode keeps the instructions the named formulas depend on, node-level
// and per offer.
func (p *Plan) neededCode(needs []string) (node, offer []instr) {
	needed := map[int32]bool{}
	for _, name := range needs {
		if i, ok := p.index[name]; ok {
			needed[p.prog.formulaSlot[i]] = true
		}
	}
	keep := func(code []instr) []instr {
		var kept []instr
		for i := len(code) - 1; i >= 0; i-- {
			in := code[i]
			if !needed[in.dst] {
				continue
			}
			kept = append(kept, in)
			needed[in.a], needed[in.b] = true, true
			if in.op == opSel {
				needed[in.c] = true
			}
		}
		slices.Reverse(kept)
		return kept
	}
	offer = keep(p.prog.offer)
	return keep(p.prog.node), offer
}

// varyingCode keeps the instructions that read a varying slot, marking
// their results as varying too.
func varyingCode(code []instr, varying []bool) []instr {
	var out []instr
	for _, in := range code {
		if varying[in.a] || varying[in.b] || (in.op == opSel && varying[in.c]) {
			varying[in.dst] = true
			out = append(out, in)
		}
	}
	return out
}

// fixedCondition says whether a slot holds the same value in every sample
// of a batch and for every offer: neither varying, nor set per offer or
// computed from what is. A slot the per-offer code computes from the
// scenario alone is fixed only when offersRan: its value is the one the
// scenario's evaluation left once it ran the offers.
func (p *Plan) fixedCondition(varying []bool, offersRan bool) func(int32) bool {
	perOffer := map[int32]bool{}
	for _, in := range p.prog.offer {
		reads := perOffer[in.a] || perOffer[in.b] || p.offerInput(in.a) || p.offerInput(in.b)
		if in.op == opSel {
			reads = reads || perOffer[in.c] || p.offerInput(in.c)
		}
		perOffer[in.dst] = reads || !offersRan
	}
	return func(s int32) bool { return !varying[s] && !perOffer[s] && !p.offerInput(s) }
}

// takeBranches turns every choice (?:) whose condition is fixed for the
// batch into a copy of the branch it takes, given the scenario's slots, so
// that the other branch need not be evaluated. The copy's result still
// counts as varying, as the choice's did.
func takeBranches(code []instr, slots []float64, fixed func(int32) bool) []instr {
	for i, in := range code {
		if in.op != opSel || !fixed(in.a) {
			continue
		}
		taken := in.c
		if slots[in.a] != 0 {
			taken = in.b
		}
		code[i] = instr{op: opTake, dst: in.dst, a: taken, b: taken, c: taken}
	}
	return code
}

// liveCode drops the instructions whose results neither a formula nor
// another kept instruction reads: those of the branches not taken.
func (p *Plan) liveCode(node, offer []instr) ([]instr, []instr) {
	live := make([]bool, p.prog.slots)
	for _, s := range p.prog.formulaSlot {
		live[s] = true
	}
	keep := func(code []instr) []instr {
		kept := make([]bool, len(code))
		for i := len(code) - 1; i >= 0; i-- {
			in := code[i]
			if !live[in.dst] {
				continue
			}
			kept[i] = true
			live[in.a], live[in.b] = true, true
			if in.op == opSel {
				live[in.c] = true
			}
		}
		var out []instr
		for i, in := range code {
			if kept[i] {
				out = append(out, in)
			}
		}
		return out
	}
	offer = keep(offer)
	return keep(node), offer
}

// sharedColumns finds the choices resolved to a branch (opTake) that need
// not copy it: the branch is a varying temporary that nothing else reads,
// so the choice's column can be the branch's own. It maps each such
// choice's slot to its branch's.
func (p *Plan) sharedColumns(node, offer []instr) map[int32]int32 {
	reads, written := map[int32]int{}, map[int32]bool{}
	for _, in := range append(append([]instr(nil), node...), offer...) {
		reads[in.a]++
		if in.b != in.a {
			reads[in.b]++
		}
		if in.op == opSel && in.c != in.a && in.c != in.b {
			reads[in.c]++
		}
		written[in.dst] = true
	}
	formula := map[int32]bool{}
	for _, s := range p.prog.formulaSlot {
		formula[s] = true
	}
	shared := map[int32]int32{}
	for _, in := range append(append([]instr(nil), node...), offer...) {
		if in.op == opTake && written[in.a] && !formula[in.a] && reads[in.a] == 1 {
			shared[in.dst] = in.a
		}
	}
	return shared
}

// withoutShared is code without the copies sharedColumns made needless.
func withoutShared(code []instr, shared map[int32]int32) []instr {
	var out []instr
	for _, in := range code {
		if _, ok := shared[in.dst]; !ok || in.op != opTake {
			out = append(out, in)
		}
	}
	return out
}

// offerSlots marks the slots the per-offer code writes without varying, and
// offer_price: constant within one offer, different between offers.
func offerSlots(code []instr, varying []bool) map[int32]bool {
	out := map[int32]bool{}
	for _, in := range code {
		if !varying[in.dst] {
			out[in.dst] = true
		}
	}
	return out
}

// operands lists the constant slots varying instructions read.
func operands(code []instr, varying []bool) []int32 {
	seen := map[int32]bool{}
	var out []int32
	for _, in := range code {
		reads := []int32{in.a, in.b}
		if in.op == opSel {
			reads = append(reads, in.c)
		}
		for _, s := range reads {
			if !varying[s] && !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// offerColumns evaluates offer i's constant per-offer slots once and
// broadcasts the ones varying instructions read.
func (b *Batch) offerColumns(i int, base []float64, perOffer map[int32]bool, varying []bool) batchOffer {
	p := b.plan
	slots := append([]float64(nil), base...)
	p.setOffer(slots, p.model.Offers[i])
	run(p.prog.offer, slots)
	bo := batchOffer{index: i}
	for _, s := range operands(b.offer, varying) {
		if perOffer[s] || p.offerInput(s) {
			bo.slots = append(bo.slots, s)
			bo.cols = append(bo.cols, broadcast(slots[s], b.size))
		}
	}
	return bo
}

func broadcast(v float64, n int) []float64 {
	col := make([]float64, n)
	for i := range col {
		col[i] = v
	}
	return col
}

// guards are the varying slots of code whose values show a failed sample.
// A value that is not finite runs on through +, -, ×, copies and the
// branches of ?: into every formula that uses it, so it suffices to watch
// the formulas nothing else uses, and the operands of the operations that
// can swallow it (a divisor, a comparison, min, max, a condition).
func guards(code []instr, varying []bool, formulaSlots []int32) []int32 {
	read := map[int32]bool{}
	for _, in := range code {
		read[in.a], read[in.b] = true, true
		if in.op == opSel {
			read[in.c] = true
		}
	}
	seen := map[int32]bool{}
	var out []int32
	add := func(s int32) {
		if varying[s] && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	isFormula := map[int32]bool{}
	for _, s := range formulaSlots {
		isFormula[s] = true
	}
	for _, in := range code {
		if isFormula[in.dst] && !read[in.dst] {
			add(in.dst)
		}
		switch in.op {
		case opAdd, opSub, opMul, opNeg, opCopy:
		case opSel:
			add(in.a)
		case opDiv, opMod:
			add(in.b)
		default:
			add(in.a)
			add(in.b)
		}
	}
	return out
}

// Result is the scenario evaluated once, without variation.
func (b *Batch) Result() *Result { return b.result }

// Offers are the offers the batch compares, in the order RunOffer and
// OfferColumn number them.
func (b *Batch) Offers() []domain.Offer {
	out := make([]domain.Offer, len(b.offers))
	for k, o := range b.offers {
		out[k] = b.plan.model.Offers[o.index]
	}
	return out
}

// Input returns the column of the i-th varying input, to fill before Run.
func (b *Batch) Input(i int) []float64 { return b.vec[b.vary[i]] }

// Run evaluates the node-level formulas for the first n samples.
func (b *Batch) Run(n int) { runColumns(b.nodeRun, b.vec, n) }

// RunOffer evaluates the per-offer formulas of the k-th compared offer for
// the first n samples, after Run.
func (b *Batch) RunOffer(k, n int) {
	o := &b.offers[k]
	for j, s := range o.slots {
		b.vec[s] = o.cols[j]
	}
	runColumns(b.offerRun, b.vec, n)
}

// Column returns the values of a formula or input for the block, or nil and
// its one value when it does not vary.
func (b *Batch) Column(name string) ([]float64, float64, bool) {
	p := b.plan
	s, ok := p.prog.inputSlot[name]
	if !ok {
		i, isFormula := p.index[name]
		if !isFormula {
			return nil, 0, false
		}
		s = p.prog.formulaSlot[i]
	}
	if b.varies[s] {
		return b.vec[s], 0, true
	}
	v, found := b.result.Values[name]
	return nil, v, found
}

// Failed marks in bad the samples of the block whose node-level evaluation
// gave a non-finite value anywhere it matters; it reports whether it marked
// any.
func (b *Batch) Failed(bad []bool, n int) bool { return b.mark(b.guards, bad, n) }

// FailedOffer does the same for the per-offer evaluation just run.
func (b *Batch) FailedOffer(bad []bool, n int) bool { return b.mark(b.offerGuards, bad, n) }

// mark flags the samples with a non-finite guard value. For a finite x,
// x-x is 0; for NaN or ±Inf it is NaN. Summing x-x over a column without
// branching is 0 exactly when every value is finite, so the per-sample pass
// runs only for the rare column that holds a failure. Four sums run side
// by side so that no addition waits for the one before.
func (b *Batch) mark(guards []int32, bad []bool, n int) bool {
	marked := false
	for _, s := range guards {
		col := b.vec[s][:n]
		var acc0, acc1, acc2, acc3 float64
		i := 0
		for ; i+4 <= len(col); i += 4 {
			acc0 += col[i] - col[i]
			acc1 += col[i+1] - col[i+1]
			acc2 += col[i+2] - col[i+2]
			acc3 += col[i+3] - col[i+3]
		}
		for ; i < len(col); i++ {
			acc0 += col[i] - col[i]
		}
		if acc0+acc1+acc2+acc3 == 0 {
			continue
		}
		for i, x := range col {
			if x-x != 0 {
				bad[i] = true
				marked = true
			}
		}
	}
	return marked
}

// runColumns executes code over the first n entries of every column. The
// common arithmetic runs in tight loops; the rest goes through apply.
func runColumns(code []instr, vec [][]float64, n int) {
	for _, in := range code {
		d := vec[in.dst][:n]
		a := vec[in.a][:len(d)]
		bb := vec[in.b][:len(d)]
		switch in.op {
		case opAdd:
			for i := range d {
				d[i] = a[i] + bb[i]
			}
		case opSub:
			for i := range d {
				d[i] = a[i] - bb[i]
			}
		case opMul:
			for i := range d {
				d[i] = a[i] * bb[i]
			}
		case opDiv:
			for i := range d {
				d[i] = a[i] / bb[i]
			}
		case opCopy:
			copy(d, a)
		case opSel:
			c := vec[in.c][:len(d)]
			for i := range d {
				if a[i] != 0 {
					d[i] = bb[i]
				} else {
					d[i] = c[i]
				}
			}
		default:
			for i := range d {
				d[i] = apply(in.op, a[i], bb[i])
			}
		}
	}
}

// OfferColumn returns a per-offer formula's values for the k-th compared
// offer after RunOffer, or nil and its one value when it does not vary.
func (b *Batch) OfferColumn(k int, name string) ([]float64, float64) {
	i, ok := b.plan.index[name]
	if !ok {
		return nil, math.NaN()
	}
	s := b.plan.prog.formulaSlot[i]
	if b.varies[s] {
		return b.vec[s], 0
	}
	if v, ok := b.result.Offers[b.offers[k].index].Values[name]; ok {
		return nil, v
	}
	return nil, math.NaN()
}
