package montecarlo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/montecarlo/exact"
)

var sink float64

// uncertainModel is the default model with the default workbook's
// distributions: triangular over each range.
func uncertainModel() domain.Model {
	m := enginetest.SpecModel()
	ranges := map[string][3]float64{"capex": {250000, 285000, 320000}, "residual": {0, 0, 0.3}, "pue": {1.2, 1.3, 1.4},
		"electricity_price": {0.08, 0.12, 0.2}, "rack_per_month": {750, 1000, 1500}, "utilization": {0.25, 0.5, 0.9}}
	for i, in := range m.Inputs {
		if r, ok := ranges[in.Name]; ok {
			m.Inputs[i].Dist = &domain.Distribution{Kind: "triangular", Params: r[:]}
		}
	}
	return m
}

// BenchmarkMonteCarlo draws a million samples of six uncertain inputs and
// computes every output's mean, P5, P50 and P95 (the node-level formulas
// and owning's NPV against each H100 offer), the probability that owning
// beats each offer and that its NPV is above zero. The planner and baseline runs use one core
// and the same sampling and statistics, so their ratio is the evaluator's
// cost; planner-all-cores is the time a user waits.
func BenchmarkMonteCarlo(b *testing.B) {
	p, err := engine.Build(uncertainModel(), Check)
	if err != nil {
		b.Fatal(err)
	}
	const samples = 1_000_000
	mc := func(workers int) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: samples, Seed: 1, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				sink += r.Outputs[0].P50
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/samples, "ns/sample")
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
		}
	}
	b.Run("planner", mc(1))
	b.Run("baseline", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sink += baselineMonteCarlo(samples, 1).percentiles[0][1]
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/samples, "ns/sample")
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
	})
	b.Run("planner-all-cores", mc(runtime.GOMAXPROCS(0)))
	// ratio runs the two in turn, each first every other time, so that a
	// busy machine's drift between sub-benchmarks does not skew it.
	b.Run("ratio", func(b *testing.B) {
		var planner, baseline time.Duration
		for i := 0; i < b.N; i++ {
			runPlanner := func() {
				start := time.Now()
				r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: samples, Seed: 1, Workers: 1})
				if err != nil {
					b.Fatal(err)
				}
				sink += r.Outputs[0].P50
				planner += time.Since(start)
			}
			runBaseline := func() {
				start := time.Now()
				sink += baselineMonteCarlo(samples, 1).percentiles[0][1]
				baseline += time.Since(start)
			}
			if i%2 == 0 {
				runPlanner()
				runBaseline()
			} else {
				runBaseline()
				runPlanner()
			}
		}
		b.ReportMetric(planner.Seconds()/baseline.Seconds(), "planner/baseline")
	})
}

// baselineOutput is one output the hand-written run summarises: its
// value from a sample's formulas, or, for an output that is another
// rescaled, the output it follows and how, which planner counts through
// the other (the outputs no sampled input reaches are one number, which
// neither run counts).
type baselineOutput struct {
	name   string
	value  func(*enginetest.NodeOutputs) float64
	source string
	apply  func(float64) float64
}

// baselineOutputs are the outputs the hand-written run summarises, in
// planner's order: every node-level formula the sampled inputs reach.
func baselineOutputs() []baselineOutput {
	d := enginetest.DefaultInputs()
	type o = enginetest.NodeOutputs
	return []baselineOutput{
		{name: "per_gpu_capex", value: func(x *o) float64 { return x.PerGPU }},
		{name: "capital_per_month", value: func(x *o) float64 { return x.CapitalMonth }},
		{name: "capital_per_gpu_hour", value: func(x *o) float64 { return x.Capital }},
		{name: "node_kw", value: func(x *o) float64 { return x.KW }},
		{name: "power_per_month", value: func(x *o) float64 { return x.PowerMonth }},
		{name: "power_per_gpu_hour", value: func(x *o) float64 { return x.Power }, source: "power_per_month",
			apply: func(x float64) float64 { return x / d.GPUs / d.Hours }},
		{name: "rack_per_gpu_hour", value: func(x *o) float64 { return x.Rack }},
		{name: "maintenance_per_month", value: func(x *o) float64 { return x.MaintenanceMonth }},
		{name: "maintenance_per_gpu_hour", value: func(x *o) float64 { return x.Maintenance }, source: "maintenance_per_month",
			apply: func(x float64) float64 { return x / d.GPUs / d.Hours }},
		{name: "cost_per_gpu_hour", value: func(x *o) float64 { return x.Cost }},
		{name: "cost_per_used_hour", value: func(x *o) float64 { return x.Used }},
		{name: "node_cost_per_month", value: func(x *o) float64 { return x.NodeMonth }, source: "cost_per_gpu_hour",
			apply: func(x float64) float64 { return x * d.GPUs * d.Hours }},
		{name: "running_cost_per_month", value: func(x *o) float64 { return x.Running }},
		{name: "depreciation_per_month", value: func(x *o) float64 { return x.DepreciationMonth }},
		{name: "depreciation_pv", value: func(x *o) float64 { return x.DepreciationPV }},
		{name: "tax_shield_pv", value: func(x *o) float64 { return x.TaxShield }},
	}
}

// baselineOffers are the offers of the node's GPU the hand-written run
// compares owning with, in planner's order.
var baselineOffers = []enginetest.OfferInputs{{Price: 2.69, Renewal: 1}, {Price: 3.29, Renewal: 1}, {Price: 3.99, Renewal: 1}, {Price: 5.97, Renewal: 1}}

// baselineResult is what the hand-written run computes: per output (the
// node-level ones, then owning's NPV against each offer) its P5, P50, P95
// and mean, and per offer the samples in which owning wins and those in
// which its NPV is above zero.
type baselineResult struct {
	percentiles [][3]float64
	means       []float64
	wins, gains []int
}

// baselineMonteCarlo is the same run written by hand: the same generator per
// block, the same stratified draws, the same pilot and percentile counting,
// with the formulas as plain Go.
func baselineMonteCarlo(n int, seed uint64) baselineResult {
	dists := []*domain.Distribution{
		{Kind: "triangular", Params: []float64{250000, 285000, 320000}}, {Kind: "triangular", Params: []float64{0, 0, 0.3}},
		{Kind: "triangular", Params: []float64{1.2, 1.3, 1.4}}, {Kind: "triangular", Params: []float64{0.08, 0.12, 0.2}},
		{Kind: "triangular", Params: []float64{750, 1000, 1500}}, {Kind: "triangular", Params: []float64{0.25, 0.5, 0.9}},
	}
	node := baselineOutputs()
	outputs := len(node) + len(baselineOffers)
	sieves, tallies, sums, vals := make([]exact.Sieve, outputs), make([]*exact.Tally, outputs), make([]float64, outputs), make([][]float64, outputs)
	for o := range sieves {
		sieves[o], tallies[o], vals[o] = exact.KeepAll(0, 0), &exact.Tally{}, make([]float64, blockSize)
	}
	// Outputs that are others rescaled are counted through them, as planner
	// does.
	followed := map[int]int{}
	for o, out := range node {
		if out.source != "" {
			followed[o] = slices.IndexFunc(node, func(s baselineOutput) bool { return s.name == out.source })
		}
	}
	pilot, sc := min(pilotBlocks*blockSize, n), &exact.Scratch{}
	fromPilot := func() {
		for o := range tallies {
			if _, ok := followed[o]; ok {
				continue
			}
			values := tallies[o].Kept()
			sieves[o] = exact.SieveFrom(values, pilot == n, exact.BracketSigmas)
			tallies[o] = exact.NewTally(&sieves[o], n-pilot, nil)
			tallies[o].Add(&sieves[o], values, nil, sc)
		}
	}
	wins, gains := make([]int, len(baselineOffers)), make([]int, len(baselineOffers))
	cols := make([][]float64, len(dists))
	for j := range cols {
		cols[j] = make([]float64, blockSize)
	}
	in, out := enginetest.DefaultInputs(), enginetest.NodeOutputs{}
	for start := 0; start < n; start += blockSize {
		if start == pilot {
			fromPilot()
		}
		var src stream
		src.seed(seed, uint64(start/blockSize))
		m := min(blockSize, n-start)
		for j, d := range dists {
			if fill(d, cols[j][:m], &src) && j > 0 {
				shuffle(cols[j][:m], &src)
			}
		}
		for i := 0; i < m; i++ {
			in.Capex, in.Residual, in.PUE, in.Price, in.Rack, in.Util = cols[0][i], cols[1][i], cols[2][i], cols[3][i], cols[4][i], cols[5][i]
			enginetest.HandWritten(&in, &out)
			for k := range node {
				vals[k][i] = node[k].value(&out)
			}
			for k, offer := range baselineOffers {
				if in.Util >= out.Cost/offer.Price {
					wins[k]++
				}
				npv := enginetest.NPV(&in, &out, offer)
				vals[len(node)+k][i] = npv
				if npv > 0 {
					gains[k]++
				}
			}
		}
		for o := range tallies {
			if _, ok := followed[o]; ok {
				sums[o] += sumGood(vals[o][:m], nil)
				continue
			}
			sums[o] += tallies[o].Add(&sieves[o], vals[o][:m], nil, sc)
		}
	}
	if pilot == n {
		fromPilot()
	}
	res := baselineResult{wins: wins, gains: gains}
	for o := range tallies {
		r, _ := tallies[o].Ranked()
		if source, ok := followed[o]; ok {
			r, _ = tallies[source].Ranked()
			r = r.Through(node[o].apply)
		}
		res.percentiles = append(res.percentiles, r.Percentiles())
		res.means = append(res.means, sums[o]/float64(n))
	}
	return res
}

// The hand-written run computes what planner computes, sample for sample,
// so that the benchmark compares like with like: every output planner
// counts, owning's NPV against each offer, and how often owning wins.
func TestBaselineMonteCarloIsPlanners(t *testing.T) {
	p, err := engine.Build(uncertainModel(), Check)
	if err != nil {
		t.Fatal(err)
	}
	const n = 50_000
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: n, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	base := baselineMonteCarlo(n, 3)
	node := baselineOutputs()
	summarised := map[string]bool{}
	for i, out := range node {
		s := stat(t, r, out.name)
		summarised[out.name] = true
		if got := [3]float64{s.P5, s.P50, s.P95}; got != base.percentiles[i] || s.Mean != base.means[i] {
			t.Errorf("%s: planner P5, P50, P95 %v, mean %v; hand-written %v, %v", out.name, got, s.Mean, base.percentiles[i], base.means[i])
		}
	}
	for _, s := range r.Outputs {
		if !summarised[s.Name] && s.P5 != s.P95 {
			t.Errorf("planner summarises %s, which varies, and the hand-written run does not", s.Name)
		}
	}
	if len(r.OwnCheaper) != len(baselineOffers) {
		t.Fatalf("planner compares %d offers; by hand %d", len(r.OwnCheaper), len(baselineOffers))
	}
	for k, oc := range r.OwnCheaper {
		if oc.Offer.Price != baselineOffers[k].Price {
			t.Errorf("offer %d: planner's is %s at %v, by hand at %v", k, oc.Offer.Label(), oc.Offer.Price, baselineOffers[k].Price)
		}
		if want := float64(base.wins[k]) / n; oc.Probability != want {
			t.Errorf("owning beats %s in %v of samples; by hand %v", oc.Offer.Label(), oc.Probability, want)
		}
		if want := float64(base.gains[k]) / n; oc.NPVAboveZero != want {
			t.Errorf("owning's NPV against %s is above zero in %v of samples; by hand %v", oc.Offer.Label(), oc.NPVAboveZero, want)
		}
		o := len(node) + k
		if oc.NPV == nil {
			t.Errorf("planner summarises no NPV against %s", oc.Offer.Label())
			continue
		}
		if got := [3]float64{oc.NPV.P5, oc.NPV.P50, oc.NPV.P95}; got != base.percentiles[o] || oc.NPV.Mean != base.means[o] {
			t.Errorf("NPV against %s: planner P5, P50, P95 %v, mean %v; hand-written %v, %v", oc.Offer.Label(), got, oc.NPV.Mean, base.percentiles[o], base.means[o])
		}
	}
}

// tenInputModel is the Monte Carlo benchmark's model with four more
// inputs uncertain: the cost of capital, maintenance, staff and network,
// each triangular from nothing: ten sampled inputs, as a workbook that
// gives every owning line a range has.
func tenInputModel() domain.Model {
	m := uncertainModel()
	more := map[string][3]float64{"cost_of_capital": {0, 0, 0.1}, "maintenance_per_year": {0, 0, 0.08},
		"staff_per_month": {0, 0, 1500}, "network_per_month": {0, 0, 500}}
	for i, in := range m.Inputs {
		if r, ok := more[in.Name]; ok {
			m.Inputs[i].Dist = &domain.Distribution{Kind: "triangular", Params: r[:]}
		}
	}
	return m
}

// everyPair is m with every pair of its uncertain inputs correlated, 0.2
// each (0.2 keeps the target positive definite for up to ten inputs).
func everyPair(m domain.Model) domain.Model {
	var sampled []string
	for _, in := range m.Inputs {
		if in.Dist != nil {
			sampled = append(sampled, in.Name)
		}
	}
	m.Correlations = nil
	for i, a := range sampled {
		for _, c := range sampled[i+1:] {
			m.Correlations = append(m.Correlations, domain.Correlation{A: a, B: c, Rho: 0.2})
		}
	}
	return m
}

// BenchmarkCorrelation runs the Monte Carlo benchmark's model with and
// without the default workbook's one declared correlation (electricity
// price with rack price, 0.5), on one core, at two sample counts: the
// ratio of correlated to uncorrelated is what Iman–Conover costs, and the
// two sizes show how that cost grows. every-pair correlates all six
// inputs with each other (fifteen correlations, the most this model can
// declare); ten-inputs is the model with four more inputs uncertain, and
// ten-every-pair correlates those ten, 45 correlations. The ratio
// sub-benchmarks run a correlated model and the same model uncorrelated in
// turn, each first every other time, and report the ratio of their times,
// which a busy machine's drift between sub-benchmarks does not skew.
func BenchmarkCorrelation(b *testing.B) {
	build := func(m domain.Model, sampled int) *engine.Plan {
		p, err := engine.Build(m, Check)
		if err != nil {
			b.Fatal(err)
		}
		if got := len(SampledInputs(p, domain.Scenario{Name: domain.Base})); got != sampled {
			b.Fatalf("%d inputs sampled, want %d", got, sampled)
		}
		return p
	}
	plain := build(uncertainModel(), 6)
	m := uncertainModel()
	m.Correlations = []domain.Correlation{{A: "electricity_price", B: "rack_per_month", Rho: 0.5}}
	joined := build(m, 6)
	all := build(everyPair(uncertainModel()), 6)
	ten := build(tenInputModel(), 10)
	tenAll := build(everyPair(tenInputModel()), 10)
	run := func(b *testing.B, p *engine.Plan, samples int) time.Duration {
		start := time.Now()
		r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: samples, Seed: 1, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		sink += r.Outputs[0].P50
		return time.Since(start)
	}
	for _, samples := range []int{100_000, 1_000_000} {
		for _, c := range []struct {
			name string
			p    *engine.Plan
		}{{"uncorrelated", plain}, {"correlated", joined}, {"every-pair", all}, {"ten-inputs", ten}, {"ten-every-pair", tenAll}} {
			b.Run(fmt.Sprintf("samples=%d/%s", samples, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					run(b, c.p, samples)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(samples), "ns/sample")
			})
		}
		for _, c := range []struct {
			name        string
			with, plain *engine.Plan
		}{{"ratio", joined, plain}, {"ratio-ten-every-pair", tenAll, ten}} {
			b.Run(fmt.Sprintf("samples=%d/%s", samples, c.name), func(b *testing.B) {
				var with, without time.Duration
				for i := 0; i < b.N; i++ {
					if i%2 == 0 {
						without += run(b, c.plain, samples)
						with += run(b, c.with, samples)
					} else {
						with += run(b, c.with, samples)
						without += run(b, c.plain, samples)
					}
				}
				b.ReportMetric(with.Seconds()/without.Seconds(), "correlated/uncorrelated")
			})
		}
	}
}

// BenchmarkSortKeys ranks blocks of correlated scores' keys by buckets,
// as the correlator does, by radix, as it did, and by slices.Sort, as it
// did first: a new block each time, as in a run, so that no branch
// predictor learns one block's order.
func BenchmarkSortKeys(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	blocks, scores := make([][]uint64, 64), make([][]float64, 64)
	for j := range blocks {
		blocks[j], scores[j] = make([]uint64, blockSize), make([]float64, blockSize)
		for i := range blocks[j] {
			scores[j][i] = r.NormFloat64()
			blocks[j][i] = orderKey(scores[j][i], i)
		}
	}
	work, buf := make([]uint64, blockSize), make([]uint64, blockSize)
	b.Run("buckets", func(b *testing.B) {
		// The correlator finds a block's least and greatest score as it
		// computes them; here they are found beforehand.
		c, lo, hi := newCorrelator(nil, 1, blockSize), make([]float64, len(scores)), make([]float64, len(scores))
		for j, t := range scores {
			lo[j], hi[j] = slices.Min(t), slices.Max(t)
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			j := i % len(scores)
			c.rank(work, scores[j], lo[j], hi[j])
		}
	})
	b.Run("radix", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			copy(work, blocks[i%len(blocks)])
			exact.SortKeys(work, buf, indexBits)
		}
	})
	b.Run("slices.Sort", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			copy(work, blocks[i%len(blocks)])
			slices.Sort(work)
		}
	})
}
