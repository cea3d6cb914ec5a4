package montecarlo

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"

	"planner/engine"
)

// Monte Carlo limits and defaults.
const (
	DefaultSamples = 10_000
	DefaultSeed    = 2026
	MaxSamples     = 5_000_000 // about a second a scenario on two cores
	blockSize      = 1024
	histogramBins  = 20
)

// Options say how many samples to draw, from which seed, on how many
// cores. The same samples and seed give the same numbers whatever the
// number of cores: every block of samples draws from its own generator,
// seeded by the seed and the block's number, and results are combined in
// block order.
type Options struct {
	Samples  int
	Seed     uint64
	Workers  int            // 0: every core
	Progress func(done int) // called after each block with the samples done so far; may be nil
	// Histograms name the outputs to count into a histogram; the others
	// get none, which saves a pass over their values.
	Histograms []string

	// For tests: narrow sets the percentiles' brackets at the pilot's
	// ranks alone, without its standard errors, so that the run's
	// percentiles miss them; recounted, when set, is called when a run
	// counts again.
	narrow    bool
	recounted func()
}

// Stats summarise one output over the samples that evaluated.
type Stats struct {
	Name, Unit         string
	Mean, P5, P50, P95 float64
	Min, Max           float64
	// Base is the output's value in the scenario itself, without
	// sampling, and BaseRank where it falls among the samples: the share
	// below it (ties half), 0..1: one half for an output that does not
	// vary, NaN when no sample evaluated.
	Base, BaseRank float64
	// Histogram counts the samples in histogramBins bins, bin i from
	// Edges[i] to Edges[i+1] (the last including its top); both are nil
	// unless the options asked for the output's histogram.
	Histogram []int
	Edges     []float64
}

// OwnCheaper is the share of samples in which owning beats an offer:
// utilisation at or above break-even.
type OwnCheaper struct {
	Offer       engine.Offer
	Probability float64
}

// Result is one scenario's Monte Carlo run.
type Result struct {
	Scenario     string
	Samples      int
	Seed         uint64
	Sampled      []engine.Input // the inputs that varied, with their distributions
	Held         []Held         // inputs with a distribution held at a value outside their range
	Good         int            // samples every node-level formula evaluated for
	FirstFailure string         // why the first failed sample failed, when any did
	Outputs      []Stats        // node-level formulas, in model order
	OwnCheaper   []OwnCheaper
}

// SampledInputs are the inputs a Monte Carlo run of sc varies: those with a
// distribution that some formula uses, that the scenario does not set and
// whose value lies within their range and their distribution (HeldInputs).
func SampledInputs(p *engine.Plan, sc engine.Scenario) []engine.Input {
	used := map[string]bool{}
	for _, c := range p.Checked() {
		for _, r := range c.Refs {
			used[r] = true
		}
	}
	var out []engine.Input
	for _, in := range p.Model().Inputs {
		if _, set := sc.Set[in.Name]; in.Dist != nil && !in.Value.IsText && used[in.Name] && !set &&
			!in.Outside(in.Value.Num) && !in.OutsideDistribution(in.Value.Num) {
			out = append(out, in)
		}
	}
	return out
}

// RankText writes a base rank as the percentile it is: P88, or P<1 and
// P>99 at the ends, where rounding would say 0 or 100.
func RankText(rank float64) string {
	switch {
	case !finite(rank):
		return ""
	case rank < 0.005:
		return "P<1"
	case rank > 0.995:
		return "P>99"
	}
	return "P" + strconv.Itoa(int(math.Round(rank*100)))
}

// CheckSamples refuses a sample count planner cannot honour.
func CheckSamples(n int) error {
	if n < 1 || n > MaxSamples {
		return fmt.Errorf("%d samples: use between 1 and %d", n, MaxSamples)
	}
	return nil
}

// Run samples the scenario's uncertain inputs and summarises every
// node-level formula: mean, P5, P50, P95 and a histogram, and for every
// offer of the scenario's GPU the probability that owning is cheaper.
func Run(ctx context.Context, p *engine.Plan, sc engine.Scenario, opts Options) (*Result, error) {
	if err := CheckSamples(opts.Samples); err != nil {
		return nil, err
	}
	mc, err := newRun(p, sc, opts)
	if err != nil {
		return nil, err
	}
	for _, f := range p.Formulas() {
		if !p.PerOffer(f.Name) {
			mc.outputs = append(mc.outputs, f.Name)
		}
	}
	if mc.probe, err = mc.newBatch(); err != nil {
		return nil, err
	}
	mc.prepare()
	if err := mc.sample(ctx); err != nil {
		return nil, err
	}
	return mc.result(ctx)
}

// sample draws the pilot, sets the sieves from it, and draws the rest.
func (mc *mcRun) sample(ctx context.Context) error {
	pilot := min(pilotBlocks, mc.blocks)
	mc.sieves = make([]sieve, len(mc.outputs))
	for o := range mc.sieves {
		mc.sieves[o] = keepAll(0, 0)
	}
	if err := mc.run(ctx, 0, pilot); err != nil {
		return err
	}
	tallies := mc.tallies
	mc.tallies = [][]*tally{make([]*tally, len(mc.outputs))}
	parallel(len(mc.outputs), func(o int) {
		values := make([]float64, 0, pilot*blockSize)
		for _, w := range tallies {
			values = append(values, w[o].kept[0]...)
		}
		whole := pilot == mc.blocks
		mc.sieves[o] = sieveFrom(values, whole, mc.bracketSigmas())
		mc.sieves[o].histogram = slices.Contains(mc.opts.Histograms, mc.outputs[o])
		mc.sieves[o].base = mc.probe.Result().Values[mc.outputs[o]]
		if whole {
			mc.tallies[0][o] = tallyOfAll(&mc.sieves[o], values)
			return
		}
		t := newTally(&mc.sieves[o], len(values))
		t.add(&mc.sieves[o], values, nil, &scratch{})
		mc.tallies[0][o] = t
	})
	return mc.run(ctx, pilot, mc.blocks)
}

// newRun prepares a run of sc: the inputs to sample, and the correlation to
// induce between those the declared correlations join.
func newRun(p *engine.Plan, sc engine.Scenario, opts Options) (*mcRun, error) {
	sampled := SampledInputs(p, sc)
	names := namesOf(sampled)
	correlations := p.Model().Correlations
	joined := correlated(correlations, names)
	var joinedNames []string
	for _, i := range joined {
		joinedNames = append(joinedNames, names[i])
	}
	target, err := correlation(correlations, joinedNames)
	if err != nil {
		return nil, err
	}
	return &mcRun{plan: p, sc: sc, opts: opts, sampled: sampled, target: target, joined: joined}, nil
}

// mcRun is one Monte Carlo run under way.
type mcRun struct {
	plan    *engine.Plan
	sc      engine.Scenario
	opts    Options
	sampled []engine.Input
	target  *mat.TriDense
	joined  []int // the sampled inputs correlations join
	probe   *engine.Batch
	outputs []string     // node-level formulas
	varies  []bool       // per output: it varies from sample to sample
	follows []*rescaling // per output: the output it follows, or nil when it is counted
	sieves  []sieve      // per output: which values to keep
	tallies [][]*tally   // per worker, per output: the values' account
	mu      sync.Mutex   // guards tallies
	done    atomic.Int64 // samples drawn
	blocks  int
	sums    [][]float64 // per block, per output: the sum over good samples
	good    []int       // per block
	cheaper [][]int     // per block, per offer: samples where owning wins
	counted [][]int     // per block, per offer: samples that evaluated
	failure []int       // per block: the first failed sample, or -1
}

// newBatch evaluates what the run reports: the outputs, and break-even
// against utilisation for each offer.
func (mc *mcRun) newBatch() (*engine.Batch, error) {
	needs := append([]string{engine.Breakeven, engine.Utilization}, mc.outputs...)
	return mc.plan.NewBatch(mc.sc, namesOf(mc.sampled), blockSize, needs...)
}

func (mc *mcRun) prepare() {
	n := mc.opts.Samples
	mc.varies = make([]bool, len(mc.outputs))
	for o, name := range mc.outputs {
		if col, _, _ := mc.probe.Column(name); col != nil {
			mc.varies[o] = true
		}
	}
	mc.findRescalings()
	mc.blocks = (n + blockSize - 1) / blockSize
	mc.sums, mc.cheaper, mc.counted = make([][]float64, mc.blocks), make([][]int, mc.blocks), make([][]int, mc.blocks)
	mc.good, mc.failure = make([]int, mc.blocks), make([]int, mc.blocks)
}

// counts says whether output o's values are counted, rather than fixed or
// following another output's.
func (mc *mcRun) counts(o int) bool {
	return mc.varies[o] && mc.follows[o] == nil
}

// findRescalings finds the outputs that follow another by constants only,
// to count through it (see rescale.go). An output whose histogram is asked
// for is counted itself.
func (mc *mcRun) findRescalings() {
	mc.follows = make([]*rescaling, len(mc.outputs))
	slots := make([]engine.Slot, len(mc.outputs))
	output := map[engine.Slot]int{} // slot -> varying output
	for o, name := range mc.outputs {
		slots[o], _ = mc.plan.Slot(name)
		if mc.varies[o] {
			output[slots[o]] = o
		}
	}
	isOutput := func(s engine.Slot) bool { _, ok := output[s]; return ok }
	for o, name := range mc.outputs {
		if !mc.varies[o] || slices.Contains(mc.opts.Histograms, name) {
			continue
		}
		if from, apply, ok := mc.probe.Follows(slots[o], isOutput); ok {
			mc.follows[o] = &rescaling{source: output[from], apply: apply}
		}
	}
}

// run hands blocks from up to the workers until all are done or ctx ends;
// it adds the workers' tallies to the run's.
func (mc *mcRun) run(ctx context.Context, from, to int) error {
	workers := mc.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, to-from)
	next := atomic.Int64{}
	next.Store(int64(from))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			wk, err := mc.newWorker((to - from) * blockSize / workers)
			if err != nil {
				errs[w] = err
				return
			}
			for {
				b := int(next.Add(1) - 1)
				if b >= to || ctx.Err() != nil {
					break
				}
				n := wk.block(b)
				if d := mc.done.Add(int64(n)); mc.opts.Progress != nil {
					mc.opts.Progress(int(d))
				}
			}
			mc.mu.Lock()
			mc.tallies = append(mc.tallies, wk.tallies)
			mc.mu.Unlock()
		}(w)
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// worker evaluates blocks with its own batch and buffers.
type worker struct {
	mc        *mcRun
	b         *engine.Batch
	compared  []engine.Offer // the offers the batch compares
	bad       []bool         // per sample of the block: it failed
	offerBad  []bool         // the same for one offer
	fresh     []bool         // failed for an offer but not before
	util      []float64
	breakeven []float64 // scratch columns for a value that does not vary
	random    stream
	tallies   []*tally // per output
	scratch   scratch
	cols      [][]float64
	corr      *correlator
	joined    [][]float64 // the columns of the correlated inputs
	ascending []bool      // per joined column: its values came out in order
}

// newWorker prepares a worker that will likely draw about share samples.
func (mc *mcRun) newWorker(share int) (*worker, error) {
	b, err := mc.newBatch()
	if err != nil {
		return nil, err
	}
	w := &worker{mc: mc, b: b, bad: make([]bool, blockSize), offerBad: make([]bool, blockSize), fresh: make([]bool, blockSize),
		util: make([]float64, blockSize), breakeven: make([]float64, blockSize), compared: b.Offers()}
	for o := range mc.sieves {
		if mc.counts(o) {
			w.tallies = append(w.tallies, newTally(&mc.sieves[o], share))
		} else {
			w.tallies = append(w.tallies, &tally{})
		}
	}
	for i := range mc.sampled {
		w.cols = append(w.cols, b.Input(i))
	}
	if mc.target != nil {
		w.corr = newCorrelator(mc.target, len(mc.joined), blockSize)
		for _, i := range mc.joined {
			w.joined = append(w.joined, w.cols[i])
		}
		w.ascending = make([]bool, len(mc.joined))
	}
	return w, nil
}

func namesOf(ins []engine.Input) []string {
	out := make([]string, len(ins))
	for i, in := range ins {
		out[i] = in.Name
	}
	return out
}

// draw fills the input columns with block k's samples; it returns the
// block's size. Block k always draws the same samples.
func (w *worker) draw(k int) int {
	mc := w.mc
	n := min(blockSize, mc.opts.Samples-k*blockSize)
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
	if w.corr != nil {
		w.corr.apply(w.joined, w.ascending, n, src)
	}
	return n
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
func (w *worker) sample(k, i int) engine.Scenario {
	set := map[string]engine.Value{}
	for name, v := range w.mc.sc.Set {
		set[name] = v
	}
	for j, in := range w.mc.sampled {
		set[in.Name] = engine.Num(w.cols[j][i])
	}
	return engine.Scenario{Name: w.mc.sc.Name, Set: set}
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
	for o, name := range mc.outputs {
		col, fixed, _ := w.b.Column(name)
		if col == nil {
			// An output no sampled input reaches is one number: nothing to count.
			sums[o] = fixed * float64(good)
			continue
		}
		if mc.follows[o] != nil {
			sums[o] = sumGood(col[:n], failed)
			continue
		}
		sums[o] = w.tallies[o].add(&mc.sieves[o], col[:n], failed, &w.scratch)
	}
	mc.sums[k], mc.good[k] = sums, good
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
	col, fixed, _ := w.b.Column(engine.Utilization)
	util := columnOr(col, fixed, w.util[:n])
	mc.cheaper[k], mc.counted[k] = make([]int, len(w.compared)), make([]int, len(w.compared))
	offerBad := w.offerBad[:n]
	for j := range w.compared {
		w.b.RunOffer(j, n)
		copy(offerBad, bad)
		if w.b.FailedOffer(offerBad, n) {
			w.confirmOffers(k, offerBad, bad, j)
		}
		be, beFixed := w.b.OfferColumn(j, engine.Breakeven)
		breakeven := columnOr(be, beFixed, w.breakeven[:n])
		mc.cheaper[k][j], mc.counted[k][j] = wins(util, breakeven, offerBad)
	}
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

// result combines the blocks in order and computes the statistics.
func (mc *mcRun) result(ctx context.Context) (*Result, error) {
	r := &Result{Scenario: mc.sc.Name, Samples: mc.opts.Samples, Seed: mc.opts.Seed, Sampled: mc.sampled,
		Held: HeldInputs(mc.plan, mc.sc)}
	for k := 0; k < mc.blocks; k++ {
		r.Good += mc.good[k]
	}
	outputs, ok := mc.statistics(r.Good)
	if !ok {
		// A percentile fell outside the brackets the pilot set: count the
		// same samples again, keeping every value.
		if err := mc.recount(ctx); err != nil {
			return nil, err
		}
		outputs, _ = mc.statistics(r.Good)
	}
	r.Outputs = outputs
	for j, o := range mc.probe.Offers() {
		var wins, all int
		for k := 0; k < mc.blocks; k++ {
			wins += mc.cheaper[k][j]
			all += mc.counted[k][j]
		}
		oc := OwnCheaper{Offer: o, Probability: math.NaN()}
		if all > 0 {
			oc.Probability = float64(wins) / float64(all)
		}
		r.OwnCheaper = append(r.OwnCheaper, oc)
	}
	r.FirstFailure = mc.explainFirstFailure()
	return r, nil
}

// recount draws every block again with sieves that keep every value and
// the same histogram bins.
func (mc *mcRun) recount(ctx context.Context) error {
	if mc.opts.recounted != nil {
		mc.opts.recounted()
	}
	for o := range mc.sieves {
		mc.sieves[o].keepEverything()
	}
	mc.tallies = nil
	mc.opts.Progress = nil
	return mc.run(ctx, 0, mc.blocks)
}

// statistics summarises every output over the good samples; ok is false
// when a percentile fell outside the brackets.
func (mc *mcRun) statistics(good int) ([]Stats, bool) {
	out := make([]Stats, len(mc.outputs))
	ranks := make([]rankValues, len(mc.outputs))
	missed := make([]bool, len(mc.outputs))
	parallel(len(mc.outputs), func(o int) {
		if mc.follows[o] == nil {
			out[o], ranks[o], missed[o] = mc.summarise(o, good)
		}
	})
	if slices.Contains(missed, true) {
		return nil, false
	}
	done := make([]bool, len(mc.outputs))
	var rescale func(o int)
	rescale = func(o int) { // works out a follower's statistics from its source's
		r := mc.follows[o]
		if r == nil || done[o] {
			return
		}
		rescale(r.source)
		ranks[o] = ranks[r.source].through(r.apply)
		q := ranks[o].percentiles()
		out[o] = mc.newStats(o, good)
		out[o].P5, out[o].P50, out[o].P95 = q[0], q[1], q[2]
		out[o].Min, out[o].Max = r.apply(out[r.source].Min), r.apply(out[r.source].Max)
		// An increasing function keeps every sample on its side of the base.
		out[o].BaseRank = out[r.source].BaseRank
		done[o] = true
	}
	for o := range mc.outputs {
		rescale(o)
	}
	return out, true
}

// newStats starts output o's statistics with its name, unit and mean.
func (mc *mcRun) newStats(o, good int) Stats {
	name := mc.outputs[o]
	s := Stats{Name: name, Unit: mc.plan.Unit(name), BaseRank: 0.5}
	s.Base = mc.probe.Result().Values[name]
	sum := 0.0
	for k := 0; k < mc.blocks; k++ {
		sum += mc.sums[k][o]
	}
	s.Mean = sum / float64(good)
	return s
}

// summarise computes output o's statistics and the values at the
// percentiles' ranks; missed says a percentile fell outside the brackets.
func (mc *mcRun) summarise(o, good int) (s Stats, r rankValues, missed bool) {
	name := mc.outputs[o]
	s = mc.newStats(o, good)
	if slices.Contains(mc.opts.Histograms, name) {
		s.Histogram = make([]int, histogramBins)
	}
	if !mc.varies[o] {
		// One number, the same in every sample.
		_, fixed, _ := mc.probe.Column(name)
		s.Min, s.Max, s.P5, s.P50, s.P95 = fixed, fixed, fixed, fixed, fixed
		if s.Histogram != nil {
			s.Histogram[histogramBins-1] = good
			s.Edges = slices.Repeat([]float64{fixed}, histogramBins+1)
		}
		return s, r, false
	}
	var tallies []*tally
	for _, w := range mc.tallies {
		tallies = append(tallies, w[o])
	}
	t := merge(tallies)
	r, ok := t.ranked()
	if !ok {
		return s, r, true
	}
	q := r.percentiles()
	s.P5, s.P50, s.P95 = q[0], q[1], q[2]
	s.Min, s.Max = t.bounds(&mc.sieves[o])
	s.BaseRank = t.baseRank()
	if s.Histogram != nil {
		copy(s.Histogram, t.hist[:])
		s.Edges = mc.sieves[o].edges(s.Min, s.Max)
	}
	return s, r, false
}

// parallel calls do(0) to do(n-1), on every core.
func parallel(n int, do func(i int)) {
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				do(i)
			}
		})
	}
	wg.Wait()
}

// explainFirstFailure re-evaluates the first failed sample on its own and
// says why it failed.
func (mc *mcRun) explainFirstFailure() string {
	first := -1
	for _, f := range mc.failure {
		if f >= 0 {
			first = f
			break
		}
	}
	if first < 0 {
		return ""
	}
	k := first / blockSize
	w, err := mc.newWorker(0)
	if err != nil {
		return err.Error()
	}
	w.draw(k)
	set := map[string]engine.Value{}
	for name, v := range mc.sc.Set {
		set[name] = v
	}
	for j, in := range mc.sampled {
		set[in.Name] = engine.Num(w.cols[j][first-k*blockSize])
	}
	res, err := mc.plan.Eval(engine.Scenario{Name: mc.sc.Name, Set: set})
	if err != nil {
		return err.Error()
	}
	for _, f := range mc.plan.Formulas() {
		if e, ok := res.Errors[f.Name]; ok && !e.Skipped {
			return fmt.Sprintf("sample %d: %s: %s", first+1, f.Name, e.Msg)
		}
	}
	return fmt.Sprintf("sample %d gave a value that is not a finite number", first+1)
}

// bracketSigmas is how many of the pilot's standard errors the run's
// brackets reach to either side.
func (mc *mcRun) bracketSigmas() float64 {
	if mc.opts.narrow {
		return 0
	}
	return bracketSigmas
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
