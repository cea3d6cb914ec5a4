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
// computes every output's mean, P5, P50 and P95 and the probability that
// owning beats each H100 offer. The planner and baseline runs use one core
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
}

// baselineOutputs are the outputs the hand-written run summarises, in its
// order.
var baselineOutputs = []string{"per_gpu_capex", "capital_per_gpu_hour", "node_kw", "power_per_month", "power_per_gpu_hour",
	"rack_per_gpu_hour", "cost_per_gpu_hour", "cost_per_used_hour", "node_cost_per_month"}

// baselineResult is what the hand-written run computes: per output its
// P5, P50, P95 and mean, and per offer the samples in which owning wins.
type baselineResult struct {
	percentiles [][3]float64
	means       []float64
	wins        []int
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
	const outputs = 9
	defaults := enginetest.DefaultInputs()
	sieves, tallies, sums, vals := make([]exact.Sieve, outputs), make([]*exact.Tally, outputs), make([]float64, outputs), make([][]float64, outputs)
	for o := range sieves {
		sieves[o], tallies[o], vals[o] = exact.KeepAll(0, 0), &exact.Tally{}, make([]float64, blockSize)
	}
	// Two outputs are others rescaled, and are counted through them, as
	// planner does.
	type follower struct {
		source int
		apply  func(float64) float64
	}
	followed := map[int]follower{
		4: {3, func(x float64) float64 { return x / defaults.GPUs / defaults.Hours }}, // power per GPU-hour, from per month
		8: {6, func(x float64) float64 { return x * defaults.GPUs * defaults.Hours }}, // a node's month, from a GPU-hour
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
	prices := []float64{2.69, 3.29, 3.99, 5.97}
	wins := make([]int, len(prices))
	cols := make([][]float64, len(dists))
	for j := range cols {
		cols[j] = make([]float64, blockSize)
	}
	in, out := defaults, enginetest.NodeOutputs{}
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
			for k, v := range [...]float64{out.PerGPU, out.Capital, out.KW, out.PowerMonth, out.Power, out.Rack, out.Cost, out.Used, out.NodeMonth} {
				vals[k][i] = v
			}
			for k, pr := range prices {
				if in.Util >= out.Cost/pr {
					wins[k]++
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
	res := baselineResult{wins: wins}
	for o := range tallies {
		r, _ := tallies[o].Ranked()
		if f, ok := followed[o]; ok {
			r, _ = tallies[f.source].Ranked()
			r = r.Through(f.apply)
		}
		res.percentiles = append(res.percentiles, r.Percentiles())
		res.means = append(res.means, sums[o]/float64(n))
	}
	return res
}

// The hand-written run computes what planner computes, sample for sample,
// so that the benchmark compares like with like.
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
	for i, name := range baselineOutputs {
		s := stat(t, r, name)
		if got := [3]float64{s.P5, s.P50, s.P95}; got != base.percentiles[i] || s.Mean != base.means[i] {
			t.Errorf("%s: planner P5, P50, P95 %v, mean %v; hand-written %v, %v", name, got, s.Mean, base.percentiles[i], base.means[i])
		}
	}
	if want := float64(base.wins[0]) / n; r.OwnCheaper[0].Probability != want {
		t.Errorf("owning beats %s in %v of samples; by hand %v", r.OwnCheaper[0].Offer.Label(), r.OwnCheaper[0].Probability, want)
	}
}

// BenchmarkCorrelation runs the Monte Carlo benchmark's model with and
// without the default workbook's one declared correlation (electricity
// price with rack price, 0.5), on one core, at two sample counts: the
// ratio of correlated to uncorrelated is what Iman–Conover costs, and the
// two sizes show how that cost grows. every-pair correlates all six
// inputs with each other: what the cost grows to with the correlations. The ratio sub-benchmark runs the two
// in turn, each first every other time, and reports the ratio of their
// times, which a busy machine's drift between sub-benchmarks does not skew.
func BenchmarkCorrelation(b *testing.B) {
	plain, err := engine.Build(uncertainModel(), Check)
	if err != nil {
		b.Fatal(err)
	}
	m := uncertainModel()
	m.Correlations = []domain.Correlation{{A: "electricity_price", B: "rack_per_month", Rho: 0.5}}
	joined, err := engine.Build(m, Check)
	if err != nil {
		b.Fatal(err)
	}
	// Every pair of the six uncertain inputs correlated, 0.2 each: fifteen
	// correlations, the most this model can declare.
	every := uncertainModel()
	var sampled []string
	for _, in := range every.Inputs {
		if in.Dist != nil {
			sampled = append(sampled, in.Name)
		}
	}
	for i, a := range sampled {
		for _, c := range sampled[i+1:] {
			every.Correlations = append(every.Correlations, domain.Correlation{A: a, B: c, Rho: 0.2})
		}
	}
	all, err := engine.Build(every, Check)
	if err != nil {
		b.Fatal(err)
	}
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
		}{{"uncorrelated", plain}, {"correlated", joined}, {"every-pair", all}} {
			b.Run(fmt.Sprintf("samples=%d/%s", samples, c.name), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					run(b, c.p, samples)
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(samples), "ns/sample")
			})
		}
		b.Run(fmt.Sprintf("samples=%d/ratio", samples), func(b *testing.B) {
			var with, without time.Duration
			for i := 0; i < b.N; i++ {
				if i%2 == 0 {
					without += run(b, plain, samples)
					with += run(b, joined, samples)
				} else {
					with += run(b, joined, samples)
					without += run(b, plain, samples)
				}
			}
			b.ReportMetric(with.Seconds()/without.Seconds(), "correlated/uncorrelated")
		})
	}
}

// BenchmarkSortKeys ranks blocks of correlated scores' keys by radix, as
// the correlator does, and by slices.Sort, as it did: a new block each
// time, as in a run, so that no branch predictor learns one block's order.
func BenchmarkSortKeys(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	blocks := make([][]uint64, 64)
	for j := range blocks {
		blocks[j] = make([]uint64, blockSize)
		for i := range blocks[j] {
			blocks[j][i] = orderKey(r.NormFloat64(), i)
		}
	}
	work, buf := make([]uint64, blockSize), make([]uint64, blockSize)
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
