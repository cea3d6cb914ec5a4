package engine

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/mat"
)

// Monte Carlo limits and defaults.
const (
	DefaultSamples = 10_000
	DefaultSeed    = 2026
	MaxSamples     = 5_000_000 // each output keeps every sample for exact percentiles: 4 bytes a sample
	blockSize      = 1024
	histogramBins  = 20
)

// MonteCarloOptions say how many samples to draw, from which seed, on how
// many cores. The same samples and seed give the same numbers whatever the
// number of cores: every block of samples draws from its own generator,
// seeded by the seed and the block's number, and results are combined in
// block order.
type MonteCarloOptions struct {
	Samples  int
	Seed     uint64
	Workers  int            // 0: every core
	Progress func(done int) // called after each block with the samples done so far; may be nil
}

// Stats summarise one output over the samples that evaluated.
type Stats struct {
	Name, Unit         string
	Mean, P5, P50, P95 float64
	Min, Max           float64
	Histogram          []int // histogramBins counts over [Min, Max]
}

// OwnCheaper is the share of samples in which owning beats an offer:
// utilisation at or above break-even.
type OwnCheaper struct {
	Offer       Offer
	Probability float64
}

// MonteCarloResult is one scenario's Monte Carlo run.
type MonteCarloResult struct {
	Scenario     string
	Samples      int
	Seed         uint64
	Sampled      []Input // the inputs that varied, with their distributions
	Good         int     // samples every node-level formula evaluated for
	FirstFailure string  // why the first failed sample failed, when any did
	Outputs      []Stats // node-level formulas, in model order
	OwnCheaper   []OwnCheaper
}

// SampledInputs are the inputs a Monte Carlo run of sc varies: those with a
// distribution that some formula uses and that the scenario does not set.
func (p *Plan) SampledInputs(sc Scenario) []Input {
	used := map[string]bool{}
	for _, c := range p.checked {
		for _, r := range c.Refs {
			used[r] = true
		}
	}
	var out []Input
	for _, in := range p.model.Inputs {
		if _, set := sc.Set[in.Name]; in.Dist != nil && !in.Value.IsText && used[in.Name] && !set {
			out = append(out, in)
		}
	}
	return out
}

// CheckSamples refuses a sample count planner cannot honour.
func CheckSamples(n int) error {
	if n < 1 || n > MaxSamples {
		return fmt.Errorf("%d samples: use between 1 and %d (each output keeps every sample, for exact percentiles)", n, MaxSamples)
	}
	return nil
}

// MonteCarlo samples the scenario's uncertain inputs and summarises every
// node-level formula: mean, P5, P50, P95 and a histogram, and for every
// offer of the scenario's GPU the probability that owning is cheaper.
func (p *Plan) MonteCarlo(ctx context.Context, sc Scenario, opts MonteCarloOptions) (*MonteCarloResult, error) {
	if err := CheckSamples(opts.Samples); err != nil {
		return nil, err
	}
	mc, err := p.newRun(sc, opts)
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
	if err := mc.run(ctx); err != nil {
		return nil, err
	}
	return mc.result(), nil
}

// newRun prepares a run of sc: the inputs to sample, and the correlation to
// induce between those the declared correlations join.
func (p *Plan) newRun(sc Scenario, opts MonteCarloOptions) (*mcRun, error) {
	sampled := p.SampledInputs(sc)
	names := namesOf(sampled)
	joined := p.correlated(names)
	var joinedNames []string
	for _, i := range joined {
		joinedNames = append(joinedNames, names[i])
	}
	target, err := p.correlation(joinedNames)
	if err != nil {
		return nil, err
	}
	return &mcRun{plan: p, sc: sc, opts: opts, sampled: sampled, target: target, joined: joined}, nil
}

// mcRun is one Monte Carlo run under way.
type mcRun struct {
	plan    *Plan
	sc      Scenario
	opts    MonteCarloOptions
	sampled []Input
	target  *mat.TriDense
	joined  []int // the sampled inputs correlations join
	probe   *Batch
	outputs []string    // node-level formulas
	values  [][]float32 // per output, per sample; NaN for a failed sample
	blocks  int
	sums    [][]float64 // per block, per output: the sum over good samples
	lows    [][]float32 // per block, per output: the smallest good value
	highs   [][]float32 // per block, per output: the largest good value
	good    []int       // per block
	cheaper [][]int     // per block, per offer: samples where owning wins
	counted [][]int     // per block, per offer: samples that evaluated
	failure []int       // per block: the first failed sample, or -1
}

// newBatch evaluates what the run reports: the outputs, and break-even
// against utilisation for each offer.
func (mc *mcRun) newBatch() (*Batch, error) {
	needs := append([]string{Breakeven, Utilization}, mc.outputs...)
	return mc.plan.NewBatch(mc.sc, namesOf(mc.sampled), blockSize, needs...)
}

func (mc *mcRun) prepare() {
	n := mc.opts.Samples
	mc.values = make([][]float32, len(mc.outputs))
	for i, name := range mc.outputs {
		if col, _, _ := mc.probe.Column(name); col != nil {
			mc.values[i] = make([]float32, n)
		}
	}
	mc.blocks = (n + blockSize - 1) / blockSize
	mc.sums, mc.cheaper, mc.counted = make([][]float64, mc.blocks), make([][]int, mc.blocks), make([][]int, mc.blocks)
	mc.good, mc.failure = make([]int, mc.blocks), make([]int, mc.blocks)
	mc.lows, mc.highs = make([][]float32, mc.blocks), make([][]float32, mc.blocks)
}

// run hands blocks to the workers until all are done or ctx ends.
func (mc *mcRun) run(ctx context.Context) error {
	workers := mc.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, mc.blocks)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			wk, err := mc.newWorker()
			if err != nil {
				errs[w] = err
				return
			}
			for {
				b := int(next.Add(1) - 1)
				if b >= mc.blocks || ctx.Err() != nil {
					return
				}
				n := wk.block(b)
				if d := done.Add(int64(n)); mc.opts.Progress != nil {
					mc.opts.Progress(int(d))
				}
			}
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
	b         *Batch
	bad       []bool
	cols      [][]float64
	corr      *correlator
	joined    [][]float64 // the columns of the correlated inputs
	ascending []bool      // per joined column: its values came out in order
}

func (mc *mcRun) newWorker() (*worker, error) {
	b, err := mc.newBatch()
	if err != nil {
		return nil, err
	}
	w := &worker{mc: mc, b: b, bad: make([]bool, blockSize)}
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

func namesOf(ins []Input) []string {
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
	src := rand.NewPCG(mc.opts.Seed, uint64(k))
	next := 0 // the next correlated input
	for j, in := range mc.sampled {
		col := w.cols[j][:n]
		ascending := in.Dist.fill(col, src)
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

// shuffle is Fisher–Yates with a multiply-shift index: a block is at most
// blockSize long, so the bias of taking the high bits of a 32-bit draw
// (under 1024 in 2³²) is far below anything a percentile can show.
func shuffle(col []float64, src rand.Source) {
	for i := len(col) - 1; i > 0; i-- {
		j := int((src.Uint64() >> 32) * uint64(i+1) >> 32)
		col[i], col[j] = col[j], col[i]
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
	w.b.Failed(bad, n)
	w.confirm(k, bad, -1)
	mc.failure[k] = -1
	for i, isBad := range bad {
		if isBad {
			mc.failure[k] = start + i
			break
		}
	}
	w.record(k, start, n, bad)
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
	fresh := make([]bool, len(offerBad))
	for i := range offerBad {
		fresh[i] = offerBad[i] && !nodeBad[i]
	}
	w.confirm(k, fresh, j)
	for i := range offerBad {
		offerBad[i] = nodeBad[i] || fresh[i]
	}
}

// sample is sample i of block k as a scenario of its own.
func (w *worker) sample(k, i int) Scenario {
	set := map[string]Value{}
	for name, v := range w.mc.sc.Set {
		set[name] = v
	}
	for j, in := range w.mc.sampled {
		set[in.Name] = Num(w.cols[j][i])
	}
	return Scenario{Name: w.mc.sc.Name, Set: set}
}

// offerResult finds the j-th compared offer in a result.
func (w *worker) offerResult(res *Result, j int) OfferResult {
	label := w.mc.plan.model.Offers[w.b.offers[j].index].Label()
	for _, o := range res.Offers {
		if o.Offer.Label() == label {
			return o
		}
	}
	return OfferResult{}
}

func failedIn(errs map[string]*EvalError) bool {
	for _, e := range errs {
		if !e.Skipped {
			return true
		}
	}
	return false
}

// record stores every output's values for the block and sums the good ones.
func (w *worker) record(k, start, n int, bad []bool) {
	mc := w.mc
	sums := make([]float64, len(mc.outputs))
	good := 0
	for _, isBad := range bad {
		if !isBad {
			good++
		}
	}
	lows, highs := make([]float32, len(mc.outputs)), make([]float32, len(mc.outputs))
	for o, name := range mc.outputs {
		col, fixed, _ := w.b.Column(name)
		if col == nil {
			// An output no sampled input reaches is one number: nothing to store.
			sums[o] = fixed * float64(good)
			lows[o], highs[o] = float32(fixed), float32(fixed)
			continue
		}
		dst := mc.values[o][start : start+n]
		col = col[:len(dst)]
		lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
		var sum float64
		if good == n {
			for i, v := range col {
				x := float32(v)
				dst[i] = x
				sum += v
				if x < lo {
					lo = x
				}
				if x > hi {
					hi = x
				}
			}
		} else {
			for i, v := range col {
				if bad[i] {
					dst[i] = float32(math.NaN())
					continue
				}
				x := float32(v)
				dst[i] = x
				sum += v
				lo, hi = min(lo, x), max(hi, x)
			}
		}
		sums[o], lows[o], highs[o] = sum, lo, hi
	}
	mc.sums[k], mc.good[k], mc.lows[k], mc.highs[k] = sums, good, lows, highs
}

// offers counts, per compared offer, the samples in which owning wins.
func (w *worker) offers(k, n int, bad []bool) {
	mc := w.mc
	util, utilFixed, _ := w.b.Column(Utilization)
	offerBad := make([]bool, n)
	mc.cheaper[k], mc.counted[k] = make([]int, len(w.b.offers)), make([]int, len(w.b.offers))
	for j := range w.b.offers {
		w.b.RunOffer(j, n)
		copy(offerBad, bad)
		w.b.FailedOffer(offerBad, n)
		w.confirmOffers(k, offerBad, bad, j)
		be, beFixed := w.b.offerColumn(j, Breakeven)
		for i := 0; i < n; i++ {
			if offerBad[i] {
				continue
			}
			u, e := utilFixed, beFixed
			if util != nil {
				u = util[i]
			}
			if be != nil {
				e = be[i]
			}
			mc.counted[k][j]++
			if u >= e {
				mc.cheaper[k][j]++
			}
		}
	}
}

// result combines the blocks in order and computes the statistics.
func (mc *mcRun) result() *MonteCarloResult {
	r := &MonteCarloResult{Scenario: mc.sc.Name, Samples: mc.opts.Samples, Seed: mc.opts.Seed, Sampled: mc.sampled}
	sums := make([]float64, len(mc.outputs))
	for k := 0; k < mc.blocks; k++ {
		r.Good += mc.good[k]
		for o := range sums {
			sums[o] += mc.sums[k][o]
		}
	}
	r.Outputs = mc.statistics(r.Good)
	for o := range r.Outputs {
		r.Outputs[o].Mean = sums[o] / float64(r.Good)
	}
	for j, o := range mc.probe.offers {
		var wins, all int
		for k := 0; k < mc.blocks; k++ {
			wins += mc.cheaper[k][j]
			all += mc.counted[k][j]
		}
		oc := OwnCheaper{Offer: mc.plan.model.Offers[o.index], Probability: math.NaN()}
		if all > 0 {
			oc.Probability = float64(wins) / float64(all)
		}
		r.OwnCheaper = append(r.OwnCheaper, oc)
	}
	r.FirstFailure = mc.explainFirstFailure()
	return r
}

// statistics summarises every output, several at once on several cores;
// each output's numbers depend on its samples alone.
func (mc *mcRun) statistics(good int) []Stats {
	out := make([]Stats, len(mc.outputs))
	var wg sync.WaitGroup
	work := make(chan int)
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for o := range work {
				xs := mc.values[o]
				if xs == nil {
					xs = []float32{mc.lows[0][o]} // one number, the same in every sample
				} else if good < len(xs) {
					xs = compact(xs)
				}
				lo, hi := mc.bounds(o)
				out[o] = summarise(xs, lo, hi)
				if mc.values[o] == nil {
					scale := good / max(1, len(xs))
					for b := range out[o].Histogram {
						out[o].Histogram[b] *= scale
					}
				}
				out[o].Name, out[o].Unit = mc.outputs[o], mc.plan.checked[mc.plan.index[mc.outputs[o]]].Unit
				mc.values[o] = nil // summarised: let the samples go
			}
		}()
	}
	for o := range mc.outputs {
		work <- o
	}
	close(work)
	wg.Wait()
	return out
}

// bounds combines the blocks' smallest and largest values of output o.
func (mc *mcRun) bounds(o int) (float32, float32) {
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for k := 0; k < mc.blocks; k++ {
		lo, hi = min(lo, mc.lows[k][o]), max(hi, mc.highs[k][o])
	}
	return lo, hi
}

// compact drops the failed samples (NaN) in place.
func compact(xs []float32) []float32 {
	out := xs[:0]
	for _, x := range xs {
		if x == x {
			out = append(out, x)
		}
	}
	return out
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
	w, err := mc.newWorker()
	if err != nil {
		return err.Error()
	}
	w.draw(k)
	set := map[string]Value{}
	for name, v := range mc.sc.Set {
		set[name] = v
	}
	for j, in := range mc.sampled {
		set[in.Name] = Num(w.cols[j][first-k*blockSize])
	}
	res, err := mc.plan.Eval(Scenario{Name: mc.sc.Name, Set: set})
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
