package montecarlo

import (
	"slices"

	"planner/domain"
	"planner/engine"
	"planner/montecarlo/exact"
)

// worker evaluates blocks with its own batch and buffers.
type worker struct {
	mc        *mcRun
	b         *engine.Batch
	compared  []*domain.Offer // the offers the batch compares
	bad       []bool          // per sample of the block: it failed
	offerBad  []bool          // the same for one offer
	fresh     []bool          // failed for an offer but not before
	util      []float64
	breakeven []float64 // scratch columns for a value that does not vary
	random    stream
	tallies   []*exact.Tally // per output
	scratch   exact.Scratch
	cols      [][]float64
	corr      *correlator
	joined    [][]float64 // the columns of the correlated inputs
	ascending []bool      // per joined column: its values came out in order
}

// newWorker prepares a worker that will likely draw about share samples.
func (mc *mcRun) newWorker(share int) (*worker, error) {
	b := mc.probe // a run on one core has one worker at a time, which runs the probe
	if !mc.serial {
		var err error
		if b, err = mc.newBatch(blockSize); err != nil {
			return nil, err
		}
	}
	w := mc.blankWorker()
	w.mc, w.b, w.compared = mc, b, b.Offers()
	for o := range mc.sieves {
		if mc.counts(o) {
			w.tallies = append(w.tallies, mc.newTally(&mc.sieves[o], share))
		} else {
			w.tallies = append(w.tallies, &exact.Tally{})
		}
	}
	for i := range mc.sampled {
		w.cols = append(w.cols, b.Input(i))
	}
	if mc.target != nil {
		for _, i := range mc.joined {
			w.joined = append(w.joined, w.cols[i])
		}
		w.ascending = make([]bool, len(mc.joined))
	}
	return w, nil
}

// blankWorker is a worker with its room and nothing else: on one core,
// the room of the core's last worker, so that a thousand scenarios' runs
// allocate it once.
func (mc *mcRun) blankWorker() *worker {
	var w *worker
	if mc.serial && mc.pool != nil && mc.pool.spare != nil {
		w, mc.pool.spare = mc.pool.spare, nil
	} else {
		w = &worker{}
	}
	*w = worker{bad: blank(w.bad), offerBad: blank(w.offerBad), fresh: blank(w.fresh),
		util: blank(w.util), breakeven: blank(w.breakeven)}
	return w
}

// blank is room for a block's values, all zero: s's when it has one.
func blank[T any](s []T) []T {
	if s == nil {
		return make([]T, blockSize)
	}
	clear(s)
	return s
}

// spare keeps a worker done with for the next on its core.
func (mc *mcRun) spare(w *worker) {
	if mc.serial && mc.pool != nil {
		mc.pool.spare = w
	}
}

func namesOf(ins []domain.Input) []string {
	out := make([]string, len(ins))
	for i, in := range ins {
		out[i] = in.Name
	}
	return out
}

// draw fills the input columns with block k's samples; it returns the
// block's size. Block k always draws the same samples: another scenario
// sampling the same inputs may have drawn them already.
func (w *worker) draw(k int) int {
	n := min(blockSize, w.mc.opts.Samples-k*blockSize)
	if w.mc.drawn == nil {
		return w.drawFresh(k, n)
	}
	b, drew := &w.mc.drawn.blocks[k], false
	b.once.Do(func() {
		drew = true
		w.drawFresh(k, n)
		for _, col := range w.cols {
			b.cols = append(b.cols, slices.Clone(col[:n]))
		}
	})
	if !drew {
		for j, col := range w.cols {
			copy(col, b.cols[j])
		}
	}
	return n
}

// drawFresh draws block k's n samples from its own generator.
func (w *worker) drawFresh(k, n int) int {
	mc := w.mc
	src := &w.random
	src.seed(mc.opts.Seed, uint64(k))
	next := 0 // the next correlated input
	for j, in := range mc.sampled {
		col := w.cols[j][:n]
		ascending := fill(in.Dist, col, src)
		if next < len(mc.joined) && mc.joined[next] == j {
			w.ascending[next] = ascending // the correlator orders these
			next++
			continue
		}
		if ascending && j > 0 {
			// Stratified values come out ascending: pair them at random.
			// The first column may stay in order; only the pairing matters.
			shuffle(col, src)
		}
	}
	if mc.target != nil {
		if w.corr == nil {
			w.corr = mc.correlator()
		}
		w.corr.apply(w.joined, w.ascending, n, src)
	}
	return n
}

// correlator is the room to correlate a block's draws in, made when a
// worker first draws: the scenarios that share their draws seldom do. On
// one core, the runs one after another lend the same room.
func (mc *mcRun) correlator() *correlator {
	k := len(mc.joined)
	if mc.pool == nil {
		return newCorrelator(mc.target, k, blockSize)
	}
	if c := mc.pool.corr; c != nil && c.k == k {
		c.target = mc.target
		return c
	}
	mc.pool.corr = newCorrelator(mc.target, k, blockSize)
	return mc.pool.corr
}

// shuffle puts col in a random order (Fisher–Yates), two swaps a draw.
func shuffle(col []float64, src *stream) {
	for i := len(col) - 1; i > 0; i -= 2 {
		j, k := src.indexes(i+1, i)
		col[i], col[j] = col[j], col[i]
		if i > 1 {
			col[i-1], col[k] = col[k], col[i-1]
		}
	}
}

// block draws, evaluates and records block number k; it returns its size.
func (w *worker) block(k int) int {
	mc := w.mc
	start := k * blockSize
	n := w.draw(k)
	bad := w.bad[:n]
	clear(bad)
	w.b.Run(n)
	if w.b.Failed(bad, n) {
		w.confirm(k, bad, -1)
	}
	mc.failure[k] = -1
	for i, isBad := range bad {
		if isBad {
			mc.failure[k] = start + i
			break
		}
	}
	w.record(k, n, bad)
	w.offers(k, n, bad)
	return n
}

// confirm re-evaluates, one by one, the samples of block k the guards
// flagged. The guards see a value that is not finite anywhere, also where
// the formula does not use it (the side of an and, or or ?: it does not
// take); a sample fails only if evaluating it alone, as eval does, fails.
// offer is -1 for the node-level formulas, else the compared offer's index.
func (w *worker) confirm(k int, bad []bool, offer int) {
	for i, isBad := range bad {
		if !isBad {
			continue
		}
		res, err := w.mc.plan.Eval(w.sample(k, i))
		if err != nil {
			continue
		}
		errs := res.Errors
		if offer >= 0 {
			errs = w.offerResult(res, offer).Errors
		}
		if !failedIn(errs) {
			bad[i] = false
		}
	}
}

// confirmOffers confirms the offer's flagged samples that the node-level
// formulas did not already fail.
func (w *worker) confirmOffers(k int, offerBad, nodeBad []bool, j int) {
	fresh := w.fresh[:len(offerBad)]
	for i := range offerBad {
		fresh[i] = offerBad[i] && !nodeBad[i]
	}
	w.confirm(k, fresh, j)
	for i := range offerBad {
		offerBad[i] = nodeBad[i] || fresh[i]
	}
}

// sample is sample i of block k as a scenario of its own.
func (w *worker) sample(k, i int) domain.Scenario {
	set := map[string]domain.Value{}
	for name, v := range w.mc.sc.Set {
		set[name] = v
	}
	for j, in := range w.mc.sampled {
		set[in.Name] = domain.Num(w.cols[j][i])
	}
	return domain.Scenario{Name: w.mc.sc.Name, Set: set}
}

// offerResult finds the j-th compared offer in a result.
func (w *worker) offerResult(res *engine.Result, j int) engine.OfferResult {
	label := w.compared[j].Label()
	for _, o := range res.Offers {
		if o.Offer.Label() == label {
			return o
		}
	}
	return engine.OfferResult{}
}

func failedIn(errs map[string]*engine.EvalError) bool {
	for _, e := range errs {
		if !e.Skipped {
			return true
		}
	}
	return false
}

// record accounts for block k's good values of every output, keeping
// their sum per block.
func (w *worker) record(k, n int, bad []bool) {
	mc := w.mc
	good := 0
	for _, isBad := range bad {
		if !isBad {
			good++
		}
	}
	sums := make([]float64, len(mc.outputs))
	failed := bad
	if good == n {
		failed = nil
	}
	for o := range mc.outputs {
		if mc.offerAt(o) >= 0 {
			continue // counted with its offer (offers)
		}
		col, fixed := mc.column(w.b, o)
		switch {
		case col == nil:
			// An output no sampled input reaches is one number: nothing to count.
			sums[o] = fixed * float64(good)
		case mc.follows[o] != nil:
			sums[o] = sumGood(col[:n], failed)
		default:
			sums[o] = w.tallies[o].Add(&mc.sieves[o], col[:n], failed, &w.scratch)
		}
		if !finite(sums[o]) {
			mc.keepScaled(k, o, col, n, fixed, good, failed)
		}
	}
	mc.sums[k], mc.good[k] = sums, good
}

// sumScale scales the values of a block whose sum overflows: no run has
// so many samples that their sum scaled by it could.
const sumScale = 0x1p-32

// keepScaled keeps output o's sum over block k's n samples, those that did
// not fail (bad is nil when none did), each value scaled by sumScale, for
// a block whose plain sum is too large for a float64. col is nil for an
// output whose one value is fixed.
func (mc *mcRun) keepScaled(k, o int, col []float64, n int, fixed float64, good int, bad []bool) {
	if mc.scaled[k] == nil {
		mc.scaled[k] = make([]float64, len(mc.outputs))
	}
	if col == nil {
		mc.scaled[k][o] = fixed * sumScale * float64(good)
		return
	}
	sum := 0.0
	for i, x := range col[:n] {
		if bad == nil || !bad[i] {
			sum += x * sumScale
		}
	}
	mc.scaled[k][o] = sum
}

// sumGood sums the values of the samples that did not fail (bad is nil
// when none did).
func sumGood(col []float64, bad []bool) (sum float64) {
	for i, x := range col {
		if bad == nil || !bad[i] {
			sum += x
		}
	}
	return sum
}

// offers counts, per compared offer, the samples in which owning wins.
func (w *worker) offers(k, n int, bad []bool) {
	mc := w.mc
	col, fixed, _ := w.b.Column(domain.Utilization)
	util := columnOr(col, fixed, w.util[:n])
	mc.cheaper[k], mc.counted[k] = make([]int, len(w.compared)), make([]int, len(w.compared))
	mc.gains[k] = make([]int, len(w.compared))
	offerBad := w.offerBad[:n]
	for j := range w.compared {
		w.b.RunOffer(j, n)
		copy(offerBad, bad)
		if w.b.FailedOffer(offerBad, n) {
			w.confirmOffers(k, offerBad, bad, j)
		}
		be, beFixed := w.b.OfferColumn(j, domain.Breakeven)
		breakeven := columnOr(be, beFixed, w.breakeven[:n])
		mc.cheaper[k][j], mc.counted[k][j] = wins(util, breakeven, offerBad)
		w.recordOffer(k, n, j, offerBad)
	}
}

// recordOffer accounts for the per-offer outputs of the j-th compared
// offer just run, over the samples that evaluated for it, and counts those
// in which owning's NPV is above zero.
func (w *worker) recordOffer(k, n, j int, bad []bool) {
	mc := w.mc
	good := 0
	for _, isBad := range bad {
		if !isBad {
			good++
		}
	}
	failed := bad
	if good == n {
		failed = nil
	}
	for _, o := range mc.outputsOf(j) {
		col, fixed := mc.column(w.b, o)
		if col == nil {
			mc.sums[k][o] = fixed * float64(good)
		} else {
			mc.sums[k][o] = w.tallies[o].Add(&mc.sieves[o], col[:n], failed, &w.scratch)
		}
		if !finite(mc.sums[k][o]) {
			mc.keepScaled(k, o, col, n, fixed, good, failed)
		}
		if mc.outputs[o] == domain.NPVSaving {
			mc.gains[k][j] = positive(col, fixed, bad)
		}
	}
}

// positive counts the samples that evaluated whose value is above zero.
func positive(col []float64, fixed float64, bad []bool) (count int) {
	for i, isBad := range bad {
		x := fixed
		if col != nil {
			x = col[i]
		}
		if !isBad && x > 0 {
			count++
		}
	}
	return count
}

// columnOr is col when the value varies, else the fixed value written into
// scratch.
func columnOr(col []float64, fixed float64, scratch []float64) []float64 {
	if col != nil {
		return col
	}
	for i := range scratch {
		scratch[i] = fixed
	}
	return scratch
}

// wins counts the samples that evaluated, and among them those in which
// utilisation reaches break-even. The comparison goes either way at random,
// so it is added, not branched on.
func wins(util, breakeven []float64, bad []bool) (won, counted int) {
	util, breakeven = util[:len(bad)], breakeven[:len(bad)]
	for i, isBad := range bad {
		if isBad {
			continue
		}
		counted++
		win := 0
		if util[i] >= breakeven[i] {
			win = 1
		}
		won += win
	}
	return won, counted
}
