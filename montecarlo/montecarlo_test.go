package montecarlo

import (
	"context"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
)

// uniformCapex is the default model with capex uniform over the price
// guide's $250,000–$320,000 and every other input fixed.
func uniformCapex(t *testing.T) *engine.Plan {
	t.Helper()
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		if m.Inputs[i].Name == "capex" {
			m.Inputs[i].Dist = &domain.Distribution{Kind: "uniform", Params: []float64{250000, 320000}}
		}
	}
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runBase builds m and runs Monte Carlo of its base with opts.
func runBase(t *testing.T, m domain.Model, opts Options) *Result {
	t.Helper()
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func stat(t *testing.T, r *Result, name string) Stats {
	for _, s := range r.Outputs {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no output %s", name)
	return Stats{}
}

// cost_per_gpu_hour is linear in capex, so with capex uniform it is uniform
// too, between its values at the ends: its percentiles and mean have a
// closed form, which the samples must meet within sampling error.
func TestMonteCarloMatchesTheClosedForm(t *testing.T) {
	p := uniformCapex(t)
	const n = 200_000
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: n, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	lo := enginetest.Eval(t, map[string]domain.Value{"capex": domain.Num(250000)}).Values["cost_per_gpu_hour"]
	hi := enginetest.Eval(t, map[string]domain.Value{"capex": domain.Num(320000)}).Values["cost_per_gpu_hour"]
	s := stat(t, r, "cost_per_gpu_hour")
	for _, c := range []struct {
		name      string
		got, p    float64
		tolerance float64
	}{
		// The standard error of a sample quantile of a uniform over a range
		// of width w is w·sqrt(p(1-p)/n); of the mean, w/sqrt(12n). Four of them.
		{"P5", s.P5, 0.05, 4 * (hi - lo) * math.Sqrt(0.05*0.95/n)},
		{"P50", s.P50, 0.5, 4 * (hi - lo) * math.Sqrt(0.25/n)},
		{"P95", s.P95, 0.95, 4 * (hi - lo) * math.Sqrt(0.05*0.95/n)},
		{"mean", s.Mean, 0.5, 4 * (hi - lo) / math.Sqrt(12*n)},
	} {
		if want := lo + c.p*(hi-lo); math.Abs(c.got-want) > c.tolerance {
			t.Errorf("%s = %.6f, closed form %.6f (tolerance %.6f)", c.name, c.got, want, c.tolerance)
		}
	}
	if s.Min < lo-1e-6 || s.Max > hi+1e-6 || r.Good != n {
		t.Errorf("min %v max %v (want within %v..%v), %d good of %d", s.Min, s.Max, lo, hi, r.Good, n)
	}
	// Owning beats the $2.69 offer at 50 % utilisation only when the cost
	// per GPU-hour is at most 0.5 × 2.69: a share of the uniform.
	want := (0.5*2.69 - lo) / (hi - lo)
	for _, o := range r.OwnCheaper {
		if o.Offer.Price == 2.69 && math.Abs(o.Probability-math.Max(0, want)) > 4*math.Sqrt(0.25/n) {
			t.Errorf("P(own cheaper than %s) = %v, want %v", o.Offer.Label(), o.Probability, want)
		}
	}
}

// The same seed gives the same numbers whatever the number of workers, and
// on every run.
func TestMonteCarloIsDeterministic(t *testing.T) {
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		switch m.Inputs[i].Name {
		case "capex":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "triangular", Params: []float64{250000, 285000, 320000}}
		case "utilization":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "pert", Params: []float64{0.2, 0.5, 0.9}}
		case "electricity_price":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "lognormal", Params: []float64{math.Log(0.12), 0.2}}
		case "pue":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "normal", Params: []float64{1.3, 0.05}}
		}
	}
	m.Correlations = []domain.Correlation{{A: "capex", B: "electricity_price", Rho: 0.6}}
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	run := func(workers int) *Result {
		// More samples than the pilot, so that the brackets are in play.
		r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: 50_000, Seed: 42, Workers: workers,
			Histograms: []string{"cost_per_used_hour"}})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	one, two, three, again := run(1), run(2), run(3), run(2)
	if !reflect.DeepEqual(one, two) || !reflect.DeepEqual(two, three) || !reflect.DeepEqual(two, again) {
		t.Error("the same seed gave different results on 1, 2 and 3 workers, or on two runs")
	}
	other, _ := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: 10_000, Seed: 43})
	if reflect.DeepEqual(one.Outputs, other.Outputs) {
		t.Error("another seed gave the same numbers")
	}
}

// When a percentile falls outside the brackets the pilot set, the run
// counts again keeping every value, and reports exactly what a run whose
// brackets held reports.
func TestMonteCarloRecountsWhenABracketMisses(t *testing.T) {
	p, err := engine.Build(uncertainModel(), Check)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Samples: 40_000, Seed: 9, Histograms: []string{"cost_per_used_hour", "capital_per_gpu_hour"}}
	held, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.narrow = true // brackets of a few pilot ranks: the run's percentiles miss them
	recounts := 0
	opts.recounted = func() { recounts++ }
	missed, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(held, missed) {
		t.Errorf("a recount changed the result:\n%+v\n%+v", held.Outputs, missed.Outputs)
	}
	if recounts == 0 {
		t.Error("the narrow brackets held, so the recount went untested")
	}
}

func TestMonteCarloRefusesSampleCounts(t *testing.T) {
	p := uniformCapex(t)
	for _, n := range []int{0, -5, MaxSamples + 1} {
		_, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: n})
		if err == nil || err.Error() != CheckSamples(n).Error() {
			t.Errorf("%d samples: %v", n, err)
		}
	}
	if CheckSamples(0).Error() != "0 samples: use between 1 and 5000000" {
		t.Error(CheckSamples(0))
	}
}

// A sample that divides by zero is counted out and explained, not averaged in.
func TestMonteCarloCountsFailedSamples(t *testing.T) {
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		if m.Inputs[i].Name == "utilization" {
			m.Inputs[i].Dist = &domain.Distribution{Kind: "uniform", Params: []float64{-0.5, 0.5}}
		}
	}
	m.Formulas = append(m.Formulas, enginetest.Formulas("inverse = 1 / (utilization > 0 ? utilization : 0)")...)
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: 4000, Seed: 1, Histograms: []string{"inverse"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Good < 1800 || r.Good > 2200 {
		t.Errorf("%d good samples of 4000, want about half", r.Good)
	}
	if r.FirstFailure == "" || !containsAll(r.FirstFailure, "inverse: division by zero") {
		t.Errorf("first failure: %q", r.FirstFailure)
	}
	// Only the good samples count: utilisation uniform over (0, 0.5), so its
	// inverse has the quantiles 1/(0.5 (1 - p)): P5 2.105, P50 4, P95 40.
	found := false
	for _, s := range r.Outputs {
		if s.Name != "inverse" {
			continue
		}
		found = true
		total := 0
		for _, c := range s.Histogram {
			total += c
		}
		if total != r.Good {
			t.Errorf("inverse's histogram holds %d samples, not the %d good ones", total, r.Good)
		}
		for _, q := range []struct{ got, p float64 }{{s.P5, 0.05}, {s.P50, 0.5}, {s.P95, 0.95}} {
			if want := 1 / (0.5 * (1 - q.p)); math.Abs(q.got-want) > 0.03*want {
				t.Errorf("inverse P%v = %v, want %v within 3%%", q.p*100, q.got, want)
			}
		}
		if math.Abs(s.Min-2) > 0.01 || s.Max < 100 {
			t.Errorf("inverse ranges over %v..%v, want from 2 to far above 100", s.Min, s.Max)
		}
	}
	if !found {
		t.Error("no statistics for inverse")
	}
}

// A division by zero on the side of an and (or ?:) a sample does not take
// fails no sample, as it fails no evaluation: eval and Monte Carlo agree.
func TestMonteCarloIgnoresBranchesNotTaken(t *testing.T) {
	p := uniformCapex(t)
	m := p.Model()
	m.Formulas = append(m.Formulas, enginetest.Formulas("guarded = gpus > 100 and capex / (gpus - 8) > 1 ? 1 : capex")...)
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := p.Eval(domain.Scenario{Name: domain.Base}); err != nil || len(res.Errors) > 0 {
		t.Fatalf("eval: %v %v", err, res.Errors)
	}
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: 3000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Good != 3000 || r.FirstFailure != "" {
		t.Errorf("%d good samples of 3000 (%s)", r.Good, r.FirstFailure)
	}
	if g := stat(t, r, "guarded"); g.Min < 250000 || g.Max > 320000 {
		t.Errorf("guarded runs from %v to %v, not over capex's range", g.Min, g.Max)
	}
}

// Iman–Conover gives the declared rank correlation while every input keeps
// exactly the values it drew.
func TestRankCorrelationIsInduced(t *testing.T) {
	m := enginetest.SpecModel()
	for i := range m.Inputs {
		switch m.Inputs[i].Name {
		case "capex":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "uniform", Params: []float64{250000, 320000}}
		case "electricity_price":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "lognormal", Params: []float64{math.Log(0.12), 0.3}}
		case "utilization":
			m.Inputs[i].Dist = &domain.Distribution{Kind: "pert", Params: []float64{0.2, 0.5, 0.9}}
		}
	}
	for _, rho := range []float64{0.8, -0.5} {
		m.Correlations = []domain.Correlation{{A: "capex", B: "electricity_price", Rho: rho}}
		p, err := engine.Build(m, Check)
		if err != nil {
			t.Fatal(err)
		}
		mc, err := newRun(p, domain.Scenario{Name: domain.Base}, Options{Samples: blockSize, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		mc.outputs = []string{"cost_per_gpu_hour"}
		w, err := mc.newWorker(0)
		if err != nil {
			t.Fatal(err)
		}
		n := w.draw(0)
		capex, price := w.cols[0][:n], w.cols[1][:n] // sampled in Assumptions order: capex, electricity_price, utilization
		if got := spearman(capex, price); math.Abs(got-rho) > 0.05 {
			t.Errorf("rank correlation %.3f, declared %.2f", got, rho)
		}
		if got := spearman(capex, w.cols[2][:n]); math.Abs(got) > 0.1 {
			t.Errorf("capex and utilization, not correlated, have rank correlation %.3f", got)
		}
	}
}

// spearman is the rank correlation of two columns.
func spearman(a, b []float64) float64 {
	return corr(ranks(a), ranks(b))
}

func ranks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return xs[idx[i]] < xs[idx[j]] })
	r := make([]float64, len(xs))
	for rank, i := range idx {
		r[i] = float64(rank)
	}
	return r
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
