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

	"planner/domain"
	"planner/engine"
	"planner/montecarlo/exact"
)

// Monte Carlo limits and defaults.
const (
	DefaultSamples = 10_000
	DefaultSeed    = 2026
	MaxSamples     = 5_000_000 // about a second a scenario on two cores
	blockSize      = 1024
	// pilotBlocks are the blocks a run draws first, keeping every value,
	// to set the brackets of the exact percentiles (exact.Sieve).
	pilotBlocks = 16
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
	// Histogram counts the samples in exact.HistogramBins bins, bin i from
	// Edges[i] to Edges[i+1] (the last including its top); both are nil
	// unless the options asked for the output's histogram.
	Histogram []int
	Edges     []float64
}

// OwnCheaper is the share of samples in which owning beats an offer:
// utilisation at or above break-even.
type OwnCheaper struct {
	Offer       *domain.Offer // the model's own
	Probability float64
	// NPV summarises owning's net present value against the offer
	// (npv_saving), when the model has it; NPVAboveZero is the share of
	// samples in which it is above zero: owning pays in today's money.
	NPV          *Stats
	NPVAboveZero float64
	// Evaluated counts the samples that evaluated for the offer.
	Evaluated int
}

// Result is one scenario's Monte Carlo run.
type Result struct {
	Scenario     string
	Samples      int
	Seed         uint64
	Sampled      []domain.Input // the inputs that varied, with their distributions
	Held         []Held         // inputs with a distribution held at a value outside their range
	Good         int            // samples every node-level formula evaluated for
	FirstFailure string         // why the first failed sample failed, when any did
	Outputs      []Stats        // node-level formulas, in model order
	OwnCheaper   []OwnCheaper
}

// SampledInputs are the inputs a Monte Carlo run of sc varies: those with a
// distribution that some formula uses, that the scenario does not set and
// whose value lies within their range and their distribution (HeldInputs).
func SampledInputs(p *engine.Plan, sc domain.Scenario) []domain.Input {
	used := map[string]bool{}
	for _, c := range p.Checked() {
		for _, r := range c.Refs {
			used[r] = true
		}
	}
	var out []domain.Input
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
func Run(ctx context.Context, p *engine.Plan, sc domain.Scenario, opts Options) (*Result, error) {
	if err := CheckSamples(opts.Samples); err != nil {
		return nil, err
	}
	return runScenario(ctx, p, sc, opts, nil)
}

// runScenario is Run, drawing through the shared draws and buffers of a
// run of many scenarios when sh is not nil.
func runScenario(ctx context.Context, p *engine.Plan, sc domain.Scenario, opts Options, sh *sharing) (*Result, error) {
	mc, err := newRun(p, sc, opts)
	if err != nil {
		return nil, err
	}
	if sh != nil {
		mc.serial, mc.pool, mc.cols = sh.serial, sh.pool, sh.cols
		mc.drawn = sh.draws.of(namesOf(mc.sampled), len(mc.sampled), opts.Samples)
		defer mc.giveBack()
	}
	for _, f := range p.Formulas() {
		if !p.PerOffer(f.Name) {
			mc.outputs = append(mc.outputs, f.Name)
			mc.offerOf = append(mc.offerOf, -1)
		}
	}
	// The probe is looked at, and run only as the one worker of a run on
	// one core; else it is one sample wide.
	if mc.probe, err = mc.newBatch(mc.probeSize()); err != nil {
		return nil, err
	}
	if p.PerOffer(domain.NPVSaving) {
		// Each compared offer's NPV is an output of its own.
		mc.offerOutputs = make([][]int, len(mc.probe.Offers()))
		for j := range mc.probe.Offers() {
			mc.offerOutputs[j] = append(mc.offerOutputs[j], len(mc.outputs))
			mc.outputs = append(mc.outputs, domain.NPVSaving)
			mc.offerOf = append(mc.offerOf, j)
		}
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
	mc.sieves = make([]exact.Sieve, len(mc.outputs))
	for o := range mc.sieves {
		mc.sieves[o] = exact.KeepAll(0, 0)
		mc.sieves[o].Base = mc.base(o) // so that a pilot that is the whole run counts where it ranks
	}
	if err := mc.run(ctx, 0, pilot); err != nil {
		return err
	}
	tallies := mc.tallies
	mc.tallies = [][]*exact.Tally{make([]*exact.Tally, len(mc.outputs))}
	mc.each(len(mc.outputs), func(o int) {
		values := tallies[0][o].Kept() // one worker's are read as they are
		if len(tallies) > 1 {
			values = make([]float64, 0, pilot*blockSize)
			for _, w := range tallies {
				values = append(values, w[o].Kept()...)
			}
		}
		whole := pilot == mc.blocks
		if lo, hi, ok := tallies[0][o].KnownBounds(); ok && len(tallies) == 1 {
			mc.sieves[o] = exact.SieveBetween(values, lo, hi, whole, mc.bracketSigmas())
		} else {
			mc.sieves[o] = exact.SieveFrom(values, whole, mc.bracketSigmas())
		}
		mc.sieves[o].Histogram = slices.Contains(mc.opts.Histograms, mc.outputs[o])
		mc.sieves[o].Base = mc.base(o)
		if whole {
			mc.tallies[0][o] = exact.WholeTally(&mc.sieves[o], tallies[0][o], len(tallies) == 1, values)
			return
		}
		t := mc.newTally(&mc.sieves[o], len(values))
		t.Add(&mc.sieves[o], values, nil, &exact.Scratch{})
		mc.tallies[0][o] = t
	})
	return mc.run(ctx, pilot, mc.blocks)
}

// newRun prepares a run of sc: the inputs to sample, and the correlation to
// induce between those the declared correlations join.
func newRun(p *engine.Plan, sc domain.Scenario, opts Options) (*mcRun, error) {
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
	sc      domain.Scenario
	opts    Options
	sampled []domain.Input
	target  *mat.TriDense
	joined  []int // the sampled inputs correlations join
	probe   *engine.Batch
	outputs []string // node-level formulas, then per-offer ones
	offerOf []int    // per output: the compared offer it is of, or -1
	// offerOutputs lists, per compared offer, its outputs' indices: an
	// offer's block reads only its own, not every offer's.
	offerOutputs [][]int
	varies       []bool           // per output: it varies from sample to sample
	follows      []*rescaling     // per output: the output it follows, or nil when it is counted
	sieves       []exact.Sieve    // per output: which values to keep
	bases        []float64        // per output: its value in the scenario itself
	tallies      [][]*exact.Tally // per worker, per output: the values' account
	mu           sync.Mutex       // guards tallies
	serial       bool             // run on one core: the scenarios around it take the others
	pool         *buffers         // where the tallies' room comes from, or nil
	cols         *engine.Columns  // where the probe's columns come from, on one core; or nil
	lent         [][]float64      // what the pool lent, to give back
	drawn        *drawSet         // the blocks' draws, shared with scenarios sampling the same inputs; or nil
	done         atomic.Int64     // samples drawn
	blocks       int
	sums         [][]float64 // per block, per output: the sum over good samples
	scaled       [][]float64 // per block, per output: that sum scaled by sumScale where it overflowed; nil in a block where none did
	good         []int       // per block
	cheaper      [][]int     // per block, per offer: samples where owning wins
	gains        [][]int     // per block, per offer: samples where owning's NPV is above zero
	counted      [][]int     // per block, per offer: samples that evaluated
	failure      []int       // per block: the first failed sample, or -1
}

// probeSize is the probe's width: a block for a run on one core, whose
// one worker runs it, else one sample.
func (mc *mcRun) probeSize() int {
	if mc.serial {
		return blockSize
	}
	return 1
}

// newBatch evaluates what the run reports, size samples at a time: the
// outputs, and break-even against utilisation for each offer.
func (mc *mcRun) newBatch(size int) (*engine.Batch, error) {
	needs := append([]string{domain.Breakeven, domain.Utilization, domain.NPVSaving}, mc.outputs...)
	return mc.plan.NewBatchIn(mc.cols, mc.sc, namesOf(mc.sampled), size, needs...)
}

func (mc *mcRun) prepare() {
	n := mc.opts.Samples
	mc.varies = make([]bool, len(mc.outputs))
	for o := range mc.outputs {
		col, _ := mc.column(mc.probe, o)
		mc.varies[o] = col != nil
	}
	mc.findRescalings()
	mc.findBases()
	mc.blocks = (n + blockSize - 1) / blockSize
	mc.sums, mc.cheaper, mc.counted = make([][]float64, mc.blocks), make([][]int, mc.blocks), make([][]int, mc.blocks)
	mc.scaled = make([][]float64, mc.blocks)
	mc.gains = make([][]int, mc.blocks)
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
		if mc.varies[o] && mc.offerAt(o) < 0 {
			output[slots[o]] = o
		}
	}
	isOutput := func(s engine.Slot) bool { _, ok := output[s]; return ok }
	for o, name := range mc.outputs {
		if !mc.varies[o] || mc.offerAt(o) >= 0 || slices.Contains(mc.opts.Histograms, name) {
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
	if mc.serial {
		workers = 1
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
			mc.spare(wk)
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

// column is output o's values in batch b's block (after RunOffer, for a
// per-offer output), or nil and its one value when it does not vary.
func (mc *mcRun) column(b *engine.Batch, o int) ([]float64, float64) {
	if j := mc.offerAt(o); j >= 0 {
		return b.OfferColumn(j, mc.outputs[o])
	}
	col, fixed, _ := b.Column(mc.outputs[o])
	return col, fixed
}

// base is output o's value in the scenario itself.
func (mc *mcRun) base(o int) float64 { return mc.bases[o] }

// findBases finds every output's value in the scenario itself, an offer's
// in the first of the scenario's offers of its label that has it: the
// offers are read by label once, not scanned for every output.
func (mc *mcRun) findBases() {
	res := mc.probe.Result()
	byLabel := map[string][]int{}
	for i, or := range res.Offers {
		l := or.Offer.Label()
		byLabel[l] = append(byLabel[l], i)
	}
	offers := mc.probe.Offers()
	mc.bases = make([]float64, len(mc.outputs))
	for o, name := range mc.outputs {
		j := mc.offerAt(o)
		if j < 0 {
			mc.bases[o] = res.Values[name]
			continue
		}
		mc.bases[o] = math.NaN()
		for _, i := range byLabel[offers[j].Label()] {
			if v, ok := res.Offers[i].Values[name]; ok {
				mc.bases[o] = v
				break
			}
		}
	}
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// outputsOf lists the outputs of the j-th compared offer.
func (mc *mcRun) outputsOf(j int) []int {
	if j < len(mc.offerOutputs) {
		return mc.offerOutputs[j]
	}
	return nil
}

// offerAt is the compared offer output o is of, or -1 for a node-level one.
func (mc *mcRun) offerAt(o int) int {
	if o < len(mc.offerOf) {
		return mc.offerOf[o]
	}
	return -1
}
