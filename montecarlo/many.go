package montecarlo

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"planner/domain"
	"planner/engine"
	"planner/montecarlo/exact"
)

// A workbook may hold a thousand scenarios, each a run of its own of the
// default 10,000 samples: small runs, in which what a run costs to set up
// (a batch, room for every output's values, the draws, a core's start and
// stop) weighs as much as the sampling. RunAll runs such scenarios side by
// side, one on each core, instead of splitting each over the cores; every
// scenario that samples the same inputs draws the same samples, so a block
// drawn once is copied into the others; and each core reuses the room its
// last scenario's values took. The numbers are Run's, to the bit: a run's
// results depend neither on the number of cores nor on who drew a block.

// drawBudget bounds the draws RunAll keeps to share, in values: 4M, 32 MB.
const drawBudget = 4 << 20

// Each run side by side holds a batch: a block's column for every slot its
// formulas compute and every constant they read, up to about four a
// formula. RunAll runs as many side by side as the cores allow while those
// fit batchBudget: a model of 2,000 formulas takes some 64 MB a batch, and
// runs one scenario at a time, on one core.
const (
	batchBudget = 64 << 20
	perFormula  = 4 * blockSize * 8
)

// RunAll runs a Monte Carlo of every scenario and returns their results in
// the same order, each as Run would give it. Progress hears the samples
// done over all the scenarios together, from several cores at once, as
// Run's does.
func RunAll(ctx context.Context, p *engine.Plan, scenarios []domain.Scenario, opts Options) ([]*Result, error) {
	if err := CheckSamples(opts.Samples); err != nil {
		return nil, err
	}
	workers := opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	draws := &drawCache{left: drawBudget, sets: map[string]*drawSet{}}
	out := make([]*Result, len(scenarios))
	errs := make([]error, len(scenarios))
	var done atomic.Int64
	progress := func(last *int) func(int) {
		if opts.Progress == nil {
			return nil
		}
		return func(d int) { // one scenario's samples so far, from its one worker
			opts.Progress(int(done.Add(int64(d - *last))))
			*last = d
		}
	}
	blocks := (opts.Samples + blockSize - 1) / blockSize
	if workers == 1 || len(scenarios) < 2 || blocks > pilotBlocks {
		// Long runs: one scenario at a time, over every core, whose
		// workers report out of order.
		for i, sc := range scenarios {
			o := opts
			if opts.Progress != nil {
				o.Progress = func(d int) { opts.Progress(i*opts.Samples + d) }
			}
			if out[i], errs[i] = runScenario(ctx, p, sc, o, &sharing{draws: draws}); errs[i] != nil {
				return nil, errs[i]
			}
		}
		return out, nil
	}
	side := max(1, min(workers, len(scenarios), batchBudget/max(1, perFormula*len(p.Formulas()))))
	next := atomic.Int64{}
	var wg sync.WaitGroup
	for range side {
		wg.Go(func() {
			sh := &sharing{draws: draws, serial: true, pool: &buffers{}, cols: &engine.Columns{}}
			for i := int(next.Add(1) - 1); i < len(scenarios) && ctx.Err() == nil; i = int(next.Add(1) - 1) {
				o, last := opts, 0
				o.Progress = progress(&last)
				out[i], errs[i] = runScenario(ctx, p, scenarios[i], o, sh)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// sharing is what the runs of RunAll share: the draws, and for runs on one
// core each, that core's buffers and the room for its batches' columns.
type sharing struct {
	draws  *drawCache
	serial bool
	pool   *buffers
	cols   *engine.Columns
}

// drawCache keeps the draws of each set of sampled inputs while they fit
// its budget.
type drawCache struct {
	mu   sync.Mutex
	left int // values it may still keep
	sets map[string]*drawSet
}

// drawSet is every block's draws of one set of sampled inputs.
type drawSet struct {
	blocks []drawnBlock
}

// drawnBlock is one block's draws, made by the first run to need them.
type drawnBlock struct {
	once sync.Once
	cols [][]float64 // per sampled input, its values
}

// of is the draws of the named sampled inputs, or nil when they do not
// fit: the run draws its own.
func (c *drawCache) of(names []string, inputs, samples int) *drawSet {
	if inputs == 0 {
		return nil
	}
	key := strings.Join(names, "\x00")
	c.mu.Lock()
	defer c.mu.Unlock()
	if set, ok := c.sets[key]; ok {
		return set
	}
	if inputs*samples > c.left {
		return nil
	}
	c.left -= inputs * samples
	set := &drawSet{blocks: make([]drawnBlock, (samples+blockSize-1)/blockSize)}
	c.sets[key] = set
	return set
}

// buffers is one core's room for values, lent to a run's tallies and given
// back when the run is done.
type buffers struct {
	free  [][]float64
	corr  *correlator // the room to correlate draws in, see mcRun.correlator
	spare *worker     // the last worker's room, see mcRun.blankWorker
}

// get lends room for at least n values.
func (b *buffers) get(n int) []float64 {
	for i := len(b.free) - 1; i >= 0; i-- {
		if xs := b.free[i]; cap(xs) >= n {
			b.free[i] = b.free[len(b.free)-1]
			b.free = b.free[:len(b.free)-1]
			return xs[:0]
		}
	}
	return make([]float64, 0, n)
}

// newTally is a tally with room for what it will likely keep of n values,
// from the run's buffers when it has them.
func (mc *mcRun) newTally(s *exact.Sieve, n int) *exact.Tally {
	if mc.pool == nil {
		return exact.NewTally(s, n, nil)
	}
	return exact.NewTally(s, n, func(size int) []float64 {
		xs := mc.pool.get(size)
		mc.lent = append(mc.lent, xs)
		return xs
	})
}

// giveBack returns what the run was lent, once its results are made.
func (mc *mcRun) giveBack() {
	if mc.cols != nil {
		mc.cols.Reuse()
	}
	if mc.pool != nil {
		mc.pool.free = append(mc.pool.free, mc.lent...)
		mc.lent = nil
	}
}
