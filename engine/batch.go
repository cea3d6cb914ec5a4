package engine

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"planner/domain"
)

// Batch evaluates one scenario for a block of samples of a few varying
// inputs at once, column by column. Instructions that do not depend on the
// varying inputs run once, when the batch is made; their results are
// broadcast into columns the varying instructions read. Running a block
// allocates nothing.
type Batch struct {
	plan     *Plan
	size     int
	result   *Result     // the scenario evaluated once, without variation
	vary     []int32     // slots of the varying inputs, in the order given
	vec      [][]float64 // per slot: its column; nil when no varying instruction reads it
	varies   []bool      // per slot: it depends on a varying input
	node     []instr     // node instructions that depend on a varying input
	offer    []instr     // per-offer instructions that depend on a varying input
	nodeRun  []colInstr  // node as it runs: without the copies a shared column makes needless
	offerRun []colInstr  // the same of offer
	offers   []batchOffer
	// offerScratch are the columns RunOffer broadcasts an offer's
	// per-offer slots into, when its offers have no columns of their own.
	offerScratch [][]float64
	guards       []int32          // varying node slots whose non-finite value fails a sample
	offerGuards  []int32          // the same among the per-offer slots
	writes       map[int32]*instr // writers, once made
	cols         *Columns         // where its columns come from; nil: the heap
}

// batchOffer is a compared offer with its per-offer constant columns.
type batchOffer struct {
	index  int         // in the model's offers
	slots  []int32     // per-offer slots the varying instructions read
	values []float64   // this offer's value of each
	cols   [][]float64 // their columns, broadcast from the values; nil past offerColumnBudget
}

// offerColumnBudget is how many values a batch broadcasts its offers'
// per-offer slots into ahead of time, to be read block after block. Past
// it (thousands of offers held some 300 MB of columns each repeating one
// number), RunOffer broadcasts an offer's values into the batch's one set
// of columns as it runs the offer instead.
const offerColumnBudget = 1 << 20

// NewBatch prepares to evaluate sc for blocks of up to size samples in which
// the inputs named in vary take other values. When needs names formulas
// (node-level or per offer), only what they depend on is evaluated.
func (p *Plan) NewBatch(sc domain.Scenario, vary []string, size int, needs ...string) (*Batch, error) {
	return p.NewBatchIn(nil, sc, vary, size, needs...)
}

// NewBatchIn is NewBatch with the batch's columns from cols (from the heap
// when cols is nil): the batch is done with when cols is reused.
func (p *Plan) NewBatchIn(cols *Columns, sc domain.Scenario, vary []string, size int, needs ...string) (*Batch, error) {
	st, res, err := p.evalState(sc, true)
	if err != nil {
		return nil, err
	}
	b := &Batch{plan: p, size: size, result: res, cols: cols, vec: make([][]float64, p.prog.slots), varies: make([]bool, p.prog.slots)}
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
	shared := p.sharedColumns(b.node, b.offer, fixedCondition)
	same, each := hoist(withoutShared(b.offer, shared), p.offerDependent(offersRan))
	nodeRun, alias := simplify(columnCode(append(withoutShared(b.node, shared), same...), st.slots, fixedCondition))
	b.nodeRun = nodeRun
	b.offerRun = columnCode(each, st.slots, fixedCondition)
	b.guards = guards(b.node, varying, p.prog.formulaSlot)
	b.offerGuards = guards(b.offer, varying, p.prog.formulaSlot)
	for _, s := range b.vary {
		b.vec[s] = cols.zeros(size)
	}
	b.allocate(shared, alias)
	for dst, to := range alias {
		b.vec[dst] = b.vec[to]
	}
	perOffer := offerSlots(p.prog.offer, varying)
	for _, s := range operands(append(append([]instr(nil), b.node...), b.offer...), varying) {
		if !perOffer[s] {
			b.vec[s] = cols.broadcast(st.slots[s], size)
		}
	}
	for dst, src := range shared {
		if b.vec[src] == nil {
			b.vec[src] = cols.broadcast(st.slots[src], size)
		}
		b.vec[dst] = b.vec[src]
	}
	for i, o := range res.Offers {
		if o.Compared {
			b.offers = append(b.offers, b.offerValues(i, st.slots, perOffer, varying))
		}
	}
	b.broadcastOffers()
	return b, nil
}

// broadcastOffers gives every offer's per-offer slots their columns when
// they fit offerColumnBudget, else the one set of columns RunOffer fills.
func (b *Batch) broadcastOffers() {
	if len(b.offers) == 0 {
		return
	}
	slots := len(b.offers[0].slots)
	if len(b.offers)*slots*b.size > offerColumnBudget {
		for range slots {
			b.offerScratch = append(b.offerScratch, b.cols.column(b.size))
		}
		return
	}
	for k := range b.offers {
		o := &b.offers[k]
		for _, v := range o.values {
			o.cols = append(o.cols, b.cols.broadcast(v, b.size))
		}
	}
}

// allocate gives every slot the run code writes a column. A temporary,
// which only the code reads, gets one that an earlier temporary no longer
// needs: a column is free once the last instruction that reads it has run.
// Formulas, guards and shared columns keep their own, read after a run; so
// does a node-level temporary the per-offer code reads, since that runs
// again for each offer.
func (b *Batch) allocate(shared, alias map[int32]int32) {
	keep := map[int32]bool{}
	for _, to := range alias {
		keep[to] = true
	}
	for _, s := range b.plan.prog.formulaSlot {
		keep[s] = true
	}
	for _, s := range append(append([]int32(nil), b.guards...), b.offerGuards...) {
		keep[s] = true
	}
	for dst, src := range shared {
		keep[dst], keep[src] = true, true
	}
	code := append(append([]colInstr(nil), b.nodeRun...), b.offerRun...)
	last, writer := map[int32]int{}, map[int32]int{}
	for i, in := range code {
		for _, s := range in.reads() {
			last[s] = i
		}
		writer[in.dst] = i
	}
	for s, i := range last {
		if w, ok := writer[s]; ok && w < len(b.nodeRun) && i >= len(b.nodeRun) {
			keep[s] = true
		}
	}
	var free [][]float64
	for i, in := range code {
		if b.vec[in.dst] == nil {
			if k := len(free); k > 0 && !keep[in.dst] {
				b.vec[in.dst], free = free[k-1], free[:k-1]
			} else {
				b.vec[in.dst] = b.cols.zeros(b.size)
			}
		}
		for _, s := range in.reads() {
			if _, isWritten := writer[s]; isWritten && last[s] == i && !keep[s] {
				free = append(free, b.vec[s])
				last[s] = -1 // freed once, though read twice
			}
		}
	}
}

// reads are the slots an instruction reads from columns: not an operand it
// reads as a number.
func (in *colInstr) reads() []int32 {
	var out []int32
	if in.konst != 2 {
		out = append(out, in.a)
	}
	if in.konst != 1 && in.op != opCopy && in.op != opTake && in.op != opNeg && in.op != opNot {
		out = append(out, in.b)
	}
	if in.op == opSel {
		out = append(out, in.c)
	}
	return out
}

// neededCode keeps the instructions the named formulas depend on, node-level
// and per offer, worked out once for each list of needs: a Monte Carlo of
// many scenarios makes a batch of the same needs for each. The code is only
// read.
func (p *Plan) neededCode(needs []string) (node, offer []instr) {
	key := strings.Join(needs, "\x00")
	if c, ok := p.needed.Load(key); ok {
		kept := c.(*keptCode)
		return kept.node, kept.offer
	}
	node, offer = p.keepNeeded(needs)
	p.needed.Store(key, &keptCode{node, offer})
	return node, offer
}

// keptCode is what neededCode keeps of a plan's code.
type keptCode struct{ node, offer []instr }

// keepNeeded is neededCode worked out.
func (p *Plan) keepNeeded(needs []string) (node, offer []instr) {
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
	perOffer := p.offerDependent(offersRan)
	return func(s int32) bool { return !varying[s] && !perOffer(s) }
}

// offerDependent says whether a slot is set per offer or computed from what is
// (every slot the per-offer code writes, unless offersRan: see
// fixedCondition).
func (p *Plan) offerDependent(offersRan bool) func(int32) bool {
	memo := &p.offerComputed[0]
	if offersRan {
		memo = &p.offerComputed[1]
	}
	memo.once.Do(func() {
		computed := make([]bool, p.prog.slots)
		for _, in := range p.prog.offer {
			reads := computed[in.a] || computed[in.b] || p.offerInput(in.a) || p.offerInput(in.b)
			if in.op == opSel {
				reads = reads || computed[in.c] || p.offerInput(in.c)
			}
			computed[in.dst] = reads || !offersRan
		}
		memo.computed = computed
	})
	computed := memo.computed
	return func(s int32) bool { return computed[s] || p.offerInput(s) }
}

// hoist splits the per-offer code into what depends on the offer and what
// does not (-capex in the NPV, the power's path term): that runs once per
// block with the node-level code instead of once per offer.
func hoist(offer []instr, perOffer func(int32) bool) (same, each []instr) {
	for _, in := range offer {
		if perOffer(in.a) || perOffer(in.b) || perOffer(in.dst) || (in.op == opSel && perOffer(in.c)) {
			each = append(each, in)
		} else {
			same = append(same, in)
		}
	}
	return same, each
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
// or a value fixed for the batch, whose column nothing writes, so the
// choice's column can be the branch's own. It maps each such choice's slot
// to its branch's.
func (p *Plan) sharedColumns(node, offer []instr, fixed func(int32) bool) map[int32]int32 {
	reads, written := make([]int, p.prog.slots), make([]bool, p.prog.slots)
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
	formula := make([]bool, p.prog.slots)
	for _, s := range p.prog.formulaSlot {
		formula[s] = true
	}
	shared := map[int32]int32{}
	for _, in := range append(append([]instr(nil), node...), offer...) {
		if in.op == opTake && (written[in.a] && !formula[in.a] && reads[in.a] == 1 || fixed(in.a)) {
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

// offerValues evaluates offer i's constant per-offer slots once and keeps
// the ones varying instructions read, the same slots for every offer.
func (b *Batch) offerValues(i int, base []float64, perOffer map[int32]bool, varying []bool) batchOffer {
	p := b.plan
	slots := append([]float64(nil), base...)
	p.setOffer(slots, p.model.Offers[i])
	run(p.prog.offer, slots)
	bo := batchOffer{index: i}
	for _, s := range operands(b.offer, varying) {
		if perOffer[s] || p.offerInput(s) {
			bo.slots = append(bo.slots, s)
			bo.values = append(bo.values, slots[s])
		}
	}
	return bo
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
// OfferColumn number them: the model's own.
func (b *Batch) Offers() []*domain.Offer {
	out := make([]*domain.Offer, len(b.offers))
	for k, o := range b.offers {
		out[k] = &b.plan.model.Offers[o.index]
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
		if o.cols != nil {
			b.vec[s] = o.cols[j]
			continue
		}
		col := b.offerScratch[j]
		for i := range col[:n] {
			col[i] = o.values[j]
		}
		b.vec[s] = col
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

// colInstr is an instruction as a batch runs it: with its constant
// operand, when it has one, as a number rather than a broadcast column.
type colInstr struct {
	instr
	k     float64 // the constant operand
	konst uint8   // 0: none; 1: b is k; 2: a is k
}

// columnCode prepares code to run column-wise: an add, subtract, multiply
// or divide by an operand fixed for the batch (fixed, value in slots)
// reads it as a number, which spares a column's loads and gives the same
// bits.
func columnCode(code []instr, slots []float64, fixed func(int32) bool) []colInstr {
	out := make([]colInstr, len(code))
	for i, in := range code {
		out[i].instr = in
		switch in.op {
		case opAdd, opSub, opMul, opDiv:
			if fixed(in.b) && !fixed(in.a) {
				out[i].k, out[i].konst = slots[in.b], 1
				if r, ok := exactReciprocal(out[i].k); ok && in.op == opDiv {
					out[i].op, out[i].k = opMul, r
				}
			} else if fixed(in.a) && !fixed(in.b) {
				out[i].k, out[i].konst = slots[in.a], 2
			}
		}
	}
	return out
}

// simplify drops the instructions whose result is one already computed:
// an operand unchanged (x×1, x÷1, x−0, x+(−0), the same bits for every x)
// or the same operation on the same operands earlier (capex×(1−residual)
// once residual is held at zero makes two formulas divide capex by the
// months alike). It maps each dropped result's slot to the slot holding
// its value, and reads that slot in its stead.
func simplify(code []colInstr) ([]colInstr, map[int32]int32) {
	type key struct {
		op      opcode
		a, b, c int32
		konst   uint8
		k       uint64
	}
	alias, seen, notMinusZero := map[int32]int32{}, map[key]int32{}, map[int32]bool{}
	to := func(s int32) int32 {
		if t, ok := alias[s]; ok {
			return t
		}
		return s
	}
	var out []colInstr
	for _, in := range code {
		in.a, in.b, in.c = to(in.a), to(in.b), to(in.c)
		if in.op == opAdd && in.addsNoMinusZero(notMinusZero) {
			notMinusZero[in.dst] = true
		}
		if same, ok := in.unchanged(notMinusZero); ok {
			alias[in.dst] = same
			continue
		}
		k := key{in.op, in.a, in.b, in.c, in.konst, math.Float64bits(in.k)}
		if in.op != opSel {
			k.c = 0
		}
		if earlier, ok := seen[k]; ok {
			alias[in.dst] = earlier
			continue
		}
		seen[k] = in.dst
		out = append(out, in)
	}
	return out, alias
}

// unchanged says whether in gives one of its operands, bit for bit, and
// which. Adding +0 changes only −0, so it leaves unchanged a value that is
// never −0 (notMinusZero).
func (in *colInstr) unchanged(notMinusZero map[int32]bool) (int32, bool) {
	one, plusZero, minusZero := in.k == 1, in.k == 0 && !math.Signbit(in.k), in.k == 0 && math.Signbit(in.k)
	switch {
	case in.konst == 1 && (in.op == opMul && one || in.op == opDiv && one || in.op == opSub && plusZero ||
		in.op == opAdd && (minusZero || plusZero && notMinusZero[in.a])):
		return in.a, true
	case in.konst == 2 && (in.op == opMul && one || in.op == opAdd && (minusZero || plusZero && notMinusZero[in.b])):
		return in.b, true
	}
	return 0, false
}

// addsNoMinusZero says whether the sum in computes is never −0: rounded to
// nearest, a sum is −0 only when both terms are, so it suffices that one
// term is a number other than −0 or a value never −0.
func (in *colInstr) addsNoMinusZero(notMinusZero map[int32]bool) bool {
	notMinus := func(x float64) bool { return x != 0 || !math.Signbit(x) }
	switch in.konst {
	case 1:
		return notMinus(in.k) || notMinusZero[in.a]
	case 2:
		return notMinus(in.k) || notMinusZero[in.b]
	}
	return notMinusZero[in.a] || notMinusZero[in.b]
}

// exactReciprocal is 1/k when k is a power of two whose reciprocal is a
// normal number: then x/k and x*(1/k) are the same real number, rounded
// once, for every x, and the multiplication is the quicker.
func exactReciprocal(k float64) (float64, bool) {
	frac, _ := math.Frexp(k)
	r := 1 / k
	if frac != 0.5 || math.IsInf(r, 0) || math.Abs(r) < 0x1p-1022 {
		return 0, false
	}
	return r, true
}

// tile is how many samples runColumns takes through the whole code at a
// time, so that the columns it reads stay in the fastest cache.
const tile = 256

// runColumns executes code over the first n entries of every column, a
// tile at a time. The common arithmetic runs in tight loops; the rest goes
// through apply.
func runColumns(code []colInstr, vec [][]float64, n int) {
	for lo := 0; lo < n; lo += tile {
		hi := min(lo+tile, n)
		for i := range code {
			runTile(&code[i], vec, lo, hi)
		}
	}
}

// runTile executes one instruction over entries lo to hi of its columns.
func runTile(in *colInstr, vec [][]float64, lo, hi int) {
	d := vec[in.dst][lo:hi]
	switch in.konst {
	case 1:
		a, k := vec[in.a][lo:hi], in.k
		a = a[:len(d)]
		switch in.op {
		case opAdd:
			for i := range d {
				d[i] = a[i] + k
			}
		case opSub:
			for i := range d {
				d[i] = a[i] - k
			}
		case opMul:
			for i := range d {
				d[i] = a[i] * k
			}
		case opDiv:
			for i := range d {
				d[i] = a[i] / k
			}
		}
		return
	case 2:
		k, bb := in.k, vec[in.b][lo:hi]
		bb = bb[:len(d)]
		switch in.op {
		case opAdd:
			for i := range d {
				d[i] = k + bb[i]
			}
		case opSub:
			for i := range d {
				d[i] = k - bb[i]
			}
		case opMul:
			for i := range d {
				d[i] = k * bb[i]
			}
		case opDiv:
			for i := range d {
				d[i] = k / bb[i]
			}
		}
		return
	}
	a := vec[in.a][lo:hi]
	bb := vec[in.b][lo:hi]
	a, bb = a[:len(d)], bb[:len(d)]
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
	case opCopy, opTake:
		copy(d, a)
	case opSel:
		c := vec[in.c][lo:hi]
		c = c[:len(d)]
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
