package engine

import (
	"context"
	"runtime"
	"testing"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"planner/formulas"
)

// The hand-written baseline: the default model's node-level formulas as
// plain Go, which every benchmark measures planner against in the same run.
type nodeInputs struct{ capex, gpus, months, residual, watts, pue, price, rack, hours, util float64 }

type nodeOutputs struct {
	perGPU, amortHours, capital, kw, powerMonth, power, rack, cost, used, nodeMonth float64
}

func handWritten(in *nodeInputs, out *nodeOutputs) {
	out.perGPU = in.capex / in.gpus
	out.amortHours = in.months * in.hours
	out.capital = out.perGPU * (1 - in.residual) / out.amortHours
	out.kw = in.watts * in.gpus * in.pue / 1000
	out.powerMonth = out.kw * in.hours * in.price
	out.power = out.powerMonth / in.gpus / in.hours
	out.rack = in.rack / in.gpus / in.hours
	out.cost = out.capital + out.power + out.rack
	out.used = out.cost / in.util
	out.nodeMonth = out.cost * in.gpus * in.hours
}

var defaultInputs = nodeInputs{capex: 285000, gpus: 8, months: 36, residual: 0, watts: 700, pue: 1.3, price: 0.12, rack: 1000, hours: 730, util: 0.5}

// The baseline computes what planner computes, so the comparison is fair.
func TestBaselineMatchesPlanner(t *testing.T) {
	r := evalSpec(t, nil)
	var out nodeOutputs
	in := defaultInputs
	handWritten(&in, &out)
	for name, want := range map[string]float64{"per_gpu_capex": out.perGPU, "capital_per_gpu_hour": out.capital,
		"power_per_month": out.powerMonth, "cost_per_gpu_hour": out.cost, "cost_per_used_hour": out.used, "node_cost_per_month": out.nodeMonth} {
		if got := r.Values[name]; got != want {
			t.Errorf("%s: planner %v, hand-written %v", name, got, want)
		}
	}
}

var sink float64

// capexes are the values benchmarks cycle through, so nothing is constant.
var capexes = func() []float64 {
	xs := make([]float64, 1024)
	for i := range xs {
		xs[i] = 250000 + 70000*float64(i)/1024
	}
	return xs
}()

// BenchmarkSingleScenario evaluates one scenario at a time: set capex, run
// every node-level formula, read the cost per GPU-hour.
func BenchmarkSingleScenario(b *testing.B) {
	p, err := Build(specModel())
	if err != nil {
		b.Fatal(err)
	}
	ev, err := p.NewEvaluator(Scenario{Name: Base}, "capex")
	if err != nil {
		b.Fatal(err)
	}
	capex, _ := p.Slot("capex")
	cost, _ := p.Slot("cost_per_gpu_hour")
	b.Run("planner", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			ev.Set(capex, capexes[i&1023])
			ev.Run()
			sink += ev.Get(cost)
		}
	})
	b.Run("baseline", func(b *testing.B) {
		b.ReportAllocs()
		in, out := defaultInputs, nodeOutputs{}
		for i := 0; i < b.N; i++ {
			in.capex = capexes[i&1023]
			handWritten(&in, &out)
			sink += out.cost
		}
	})
	b.Run("expr-vm", func(b *testing.B) {
		b.ReportAllocs()
		env := map[string]any{}
		for _, in := range specModel().Inputs {
			if in.Value.IsText {
				env[in.Name] = in.Value.Text
			} else {
				env[in.Name] = in.Value.Num
			}
		}
		programs := exprPrograms(b, p, env)
		var machine vm.VM
		for i := 0; i < b.N; i++ {
			env["capex"] = capexes[i&1023]
			for _, pr := range programs {
				v, err := machine.Run(pr.program, env)
				if err != nil {
					b.Fatal(err)
				}
				env[pr.name] = v
			}
			sink += env["cost_per_gpu_hour"].(float64)
		}
	})
}

type namedProgram struct {
	name    string
	program *vm.Program
}

// exprPrograms compiles the node-level formulas with expr, in planner's
// order, over a map env: what running expr's own VM would cost.
func exprPrograms(b *testing.B, p *Plan, env map[string]any) []namedProgram {
	types := formulas.Env{}
	for k, v := range env {
		if _, ok := v.(string); ok {
			types[k] = formulas.Text
		} else {
			types[k] = formulas.Number
		}
	}
	for _, f := range p.Formulas() {
		types[f.Name] = formulas.Number
	}
	types[OfferPrice] = formulas.Number
	var out []namedProgram
	for _, name := range p.Order() {
		if p.PerOffer(name) {
			continue
		}
		f := p.checked[p.index[name]]
		program, err := expr.Compile(f.Source, formulas.ExprOptions(types)...)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, namedProgram{name, program})
		env[name] = 0.0
	}
	return out
}

// BenchmarkSweep evaluates blocks of 1,024 scenarios in which capex and
// utilisation vary: the shape of a data table, a tornado or a Monte Carlo
// run. It reports ns per scenario.
func BenchmarkSweep(b *testing.B) {
	p, err := Build(specModel())
	if err != nil {
		b.Fatal(err)
	}
	const n = 1024
	utils := make([]float64, n)
	for i := range utils {
		utils[i] = 0.1 + 0.9*float64(i)/n
	}
	b.Run("planner", func(b *testing.B) {
		b.ReportAllocs()
		batch, err := p.NewBatch(Scenario{Name: Base}, []string{"capex", "utilization"}, n)
		if err != nil {
			b.Fatal(err)
		}
		copy(batch.Input(0), capexes)
		copy(batch.Input(1), utils)
		used, _, _ := batch.Column("cost_per_used_hour")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			batch.Run(n)
			sink += used[i&(n-1)]
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/scenario")
	})
	b.Run("baseline", func(b *testing.B) {
		b.ReportAllocs()
		in, out := defaultInputs, nodeOutputs{}
		used := make([]float64, n)
		for i := 0; i < b.N; i++ {
			for j := 0; j < n; j++ {
				in.capex, in.util = capexes[j], utils[j]
				handWritten(&in, &out)
				used[j] = out.used
			}
			sink += used[i&(n-1)]
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/scenario")
	})
}

// uncertainModel is the default model with the default workbook's
// distributions: triangular over each range.
func uncertainModel() Model {
	m := specModel()
	ranges := map[string][3]float64{"capex": {250000, 285000, 320000}, "residual": {0, 0, 0.3}, "pue": {1.2, 1.3, 1.4},
		"electricity_price": {0.08, 0.12, 0.2}, "rack_per_month": {750, 1000, 1500}, "utilization": {0.25, 0.5, 0.9}}
	for i, in := range m.Inputs {
		if r, ok := ranges[in.Name]; ok {
			m.Inputs[i].Dist = &Distribution{Kind: "triangular", Params: r[:]}
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
	p, err := Build(uncertainModel())
	if err != nil {
		b.Fatal(err)
	}
	const samples = 1_000_000
	mc := func(workers int) func(b *testing.B) {
		return func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := p.MonteCarlo(context.Background(), Scenario{Name: Base}, MonteCarloOptions{Samples: samples, Seed: 1, Workers: workers})
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
	percentiles [][percentileCount]float64
	means       []float64
	wins        []int
}

// baselineMonteCarlo is the same run written by hand: the same generator per
// block, the same stratified draws, the same pilot and percentile counting,
// with the formulas as plain Go.
func baselineMonteCarlo(n int, seed uint64) baselineResult {
	dists := []*Distribution{
		{Kind: "triangular", Params: []float64{250000, 285000, 320000}}, {Kind: "triangular", Params: []float64{0, 0, 0.3}},
		{Kind: "triangular", Params: []float64{1.2, 1.3, 1.4}}, {Kind: "triangular", Params: []float64{0.08, 0.12, 0.2}},
		{Kind: "triangular", Params: []float64{750, 1000, 1500}}, {Kind: "triangular", Params: []float64{0.25, 0.5, 0.9}},
	}
	const outputs = 9
	sieves, tallies, sums, vals := make([]sieve, outputs), make([]*tally, outputs), make([]float64, outputs), make([][]float64, outputs)
	for o := range sieves {
		sieves[o], tallies[o], vals[o] = keepAll(0, 0), &tally{}, make([]float64, blockSize)
	}
	// Two outputs are others rescaled, and are counted through them, as
	// planner does.
	type follower struct {
		source int
		apply  func(float64) float64
	}
	followed := map[int]follower{
		4: {3, func(x float64) float64 { return x / defaultInputs.gpus / defaultInputs.hours }}, // power per GPU-hour, from per month
		8: {6, func(x float64) float64 { return x * defaultInputs.gpus * defaultInputs.hours }}, // a node's month, from a GPU-hour
	}
	pilot, sc := min(pilotBlocks*blockSize, n), &scratch{}
	fromPilot := func() {
		for o := range tallies {
			if _, ok := followed[o]; ok {
				continue
			}
			values := tallies[o].kept[0]
			sieves[o] = sieveFrom(values, pilot == n)
			tallies[o] = newTally(&sieves[o], n-pilot)
			tallies[o].add(&sieves[o], values, nil, sc)
		}
	}
	prices := []float64{2.69, 3.29, 3.99, 5.97}
	wins := make([]int, len(prices))
	cols := make([][]float64, len(dists))
	for j := range cols {
		cols[j] = make([]float64, blockSize)
	}
	in, out := defaultInputs, nodeOutputs{}
	for start := 0; start < n; start += blockSize {
		if start == pilot {
			fromPilot()
		}
		var src stream
		src.seed(seed, uint64(start/blockSize))
		m := min(blockSize, n-start)
		for j, d := range dists {
			if d.fill(cols[j][:m], &src) && j > 0 {
				shuffle(cols[j][:m], &src)
			}
		}
		for i := 0; i < m; i++ {
			in.capex, in.residual, in.pue, in.price, in.rack, in.util = cols[0][i], cols[1][i], cols[2][i], cols[3][i], cols[4][i], cols[5][i]
			handWritten(&in, &out)
			for k, v := range [...]float64{out.perGPU, out.capital, out.kw, out.powerMonth, out.power, out.rack, out.cost, out.used, out.nodeMonth} {
				vals[k][i] = v
			}
			for k, pr := range prices {
				if in.util >= out.cost/pr {
					wins[k]++
				}
			}
		}
		for o := range tallies {
			if _, ok := followed[o]; ok {
				sums[o] += sumGood(vals[o][:m], nil)
				continue
			}
			sums[o] += tallies[o].add(&sieves[o], vals[o][:m], nil, sc)
		}
	}
	if pilot == n {
		fromPilot()
	}
	res := baselineResult{wins: wins}
	for o := range tallies {
		r, _ := tallies[o].ranked()
		if f, ok := followed[o]; ok {
			r, _ = tallies[f.source].ranked()
			r = r.through(f.apply)
		}
		res.percentiles = append(res.percentiles, r.percentiles())
		res.means = append(res.means, sums[o]/float64(n))
	}
	return res
}

// The hand-written run computes what planner computes, sample for sample,
// so that the benchmark compares like with like.
func TestBaselineMonteCarloIsPlanners(t *testing.T) {
	p, err := Build(uncertainModel())
	if err != nil {
		t.Fatal(err)
	}
	const n = 50_000
	r, err := p.MonteCarlo(context.Background(), Scenario{Name: Base}, MonteCarloOptions{Samples: n, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	base := baselineMonteCarlo(n, 3)
	for i, name := range baselineOutputs {
		s := stat(t, r, name)
		if got := [percentileCount]float64{s.P5, s.P50, s.P95}; got != base.percentiles[i] || s.Mean != base.means[i] {
			t.Errorf("%s: planner P5, P50, P95 %v, mean %v; hand-written %v, %v", name, got, s.Mean, base.percentiles[i], base.means[i])
		}
	}
	if want := float64(base.wins[0]) / n; r.OwnCheaper[0].Probability != want {
		t.Errorf("owning beats %s in %v of samples; by hand %v", r.OwnCheaper[0].Offer.Label(), r.OwnCheaper[0].Probability, want)
	}
}
