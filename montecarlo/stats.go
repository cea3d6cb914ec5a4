package montecarlo

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"planner/domain"
	"planner/montecarlo/exact"
)

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
	nodeLevel := 0
	for o := range outputs {
		if mc.offerAt(o) < 0 {
			nodeLevel++
		}
	}
	if nodeLevel > 0 { // a scenario of each of thousands keeps just its own
		r.Outputs = make([]Stats, 0, nodeLevel)
	}
	for o, s := range outputs {
		if mc.offerAt(o) < 0 {
			r.Outputs = append(r.Outputs, s)
		}
	}
	offers := mc.probe.Offers()
	if len(offers) > 0 {
		r.OwnCheaper = make([]OwnCheaper, 0, len(offers))
	}
	for j, o := range offers {
		var wins, gains, all int
		for k := 0; k < mc.blocks; k++ {
			wins += mc.cheaper[k][j]
			gains += mc.gains[k][j]
			all += mc.counted[k][j]
		}
		oc := OwnCheaper{Offer: o, Probability: math.NaN(), NPVAboveZero: math.NaN(), Evaluated: all}
		if all > 0 {
			oc.Probability = float64(wins) / float64(all)
		}
		for _, i := range mc.outputsOf(j) {
			if outputs[i].Name == domain.NPVSaving {
				oc.NPV = &outputs[i]
				if all > 0 {
					oc.NPVAboveZero = float64(gains) / float64(all)
				}
			}
		}
		r.OwnCheaper = append(r.OwnCheaper, oc)
	}
	r.FirstFailure = mc.explainFirstFailure()
	return r, nil
}

// goodOf is the number of samples output o evaluated for: good for a
// node-level output, those that evaluated for its offer for a per-offer one.
func (mc *mcRun) goodOf(o, good int) int {
	j := mc.offerAt(o)
	if j < 0 {
		return good
	}
	all := 0
	for k := 0; k < mc.blocks; k++ {
		all += mc.counted[k][j]
	}
	return all
}

// recount draws every block again with sieves that keep every value and
// the same histogram bins.
func (mc *mcRun) recount(ctx context.Context) error {
	if mc.opts.recounted != nil {
		mc.opts.recounted()
	}
	for o := range mc.sieves {
		mc.sieves[o].KeepEverything()
	}
	mc.tallies = nil
	mc.opts.Progress = nil
	return mc.run(ctx, 0, mc.blocks)
}

// statistics summarises every output over the good samples; ok is false
// when a percentile fell outside the brackets.
func (mc *mcRun) statistics(good int) ([]Stats, bool) {
	out := make([]Stats, len(mc.outputs))
	ranks := make([]exact.Ranks, len(mc.outputs))
	missed := make([]bool, len(mc.outputs))
	mc.each(len(mc.outputs), func(o int) {
		if mc.follows[o] == nil {
			out[o], ranks[o], missed[o] = mc.summarise(o, mc.goodOf(o, good))
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
		ranks[o] = ranks[r.source].Through(r.apply)
		q := ranks[o].Percentiles()
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
	s.Base = mc.base(o)
	s.Mean = mc.mean(o, good)
	return s
}

// mean is output o's mean over its good samples: the blocks' sums added
// up and divided, or, where that overflows, the blocks' sums scaled by
// sumScale instead. Every ordinary mean is the plain one to the bit; a
// mean of finite values is finite (NaN only when no sample evaluated).
func (mc *mcRun) mean(o, good int) float64 {
	sum := 0.0
	for k := 0; k < mc.blocks; k++ {
		sum += mc.sums[k][o]
	}
	if finite(sum) {
		return sum / float64(good)
	}
	scaled := 0.0
	for k := 0; k < mc.blocks; k++ {
		if s := mc.sums[k][o]; finite(s) {
			scaled += s * sumScale
		} else {
			scaled += mc.scaled[k][o]
		}
	}
	// The mean lies within the values, all finite; rounding may take it a
	// step past the largest float64.
	return max(-math.MaxFloat64, min(math.MaxFloat64, scaled/float64(good)/sumScale))
}

// summarise computes output o's statistics and the values at the
// percentiles' ranks; missed says a percentile fell outside the brackets.
func (mc *mcRun) summarise(o, good int) (s Stats, r exact.Ranks, missed bool) {
	name := mc.outputs[o]
	s = mc.newStats(o, good)
	if slices.Contains(mc.opts.Histograms, name) {
		s.Histogram = make([]int, exact.HistogramBins)
	}
	if !mc.varies[o] {
		// One number, the same in every sample.
		_, fixed := mc.column(mc.probe, o)
		s.Min, s.Max, s.P5, s.P50, s.P95 = fixed, fixed, fixed, fixed, fixed
		if s.Histogram != nil {
			s.Histogram[exact.HistogramBins-1] = good
			s.Edges = slices.Repeat([]float64{fixed}, exact.HistogramBins+1)
		}
		return s, r, false
	}
	var tallies []*exact.Tally
	for _, w := range mc.tallies {
		tallies = append(tallies, w[o])
	}
	t := exact.Merge(tallies)
	r, ok := t.Ranked()
	if !ok {
		return s, r, true
	}
	q := r.Percentiles()
	s.P5, s.P50, s.P95 = q[0], q[1], q[2]
	s.Min, s.Max = t.Bounds(&mc.sieves[o])
	s.BaseRank = t.BaseRank()
	if s.Histogram != nil {
		copy(s.Histogram, t.Histogram())
		s.Edges = mc.sieves[o].Edges(s.Min, s.Max)
	}
	return s, r, false
}

// each calls do(0) to do(n-1): on every core, or on this one for a run
// that is one of several at once.
func (mc *mcRun) each(n int, do func(i int)) {
	if !mc.serial {
		parallel(n, do)
		return
	}
	for i := range n {
		do(i)
	}
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
	set := map[string]domain.Value{}
	for name, v := range mc.sc.Set {
		set[name] = v
	}
	for j, in := range mc.sampled {
		set[in.Name] = domain.Num(w.cols[j][first-k*blockSize])
	}
	res, err := mc.plan.Eval(domain.Scenario{Name: mc.sc.Name, Set: set})
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
	return exact.BracketSigmas
}
