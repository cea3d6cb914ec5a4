package montecarlo

import (
	"context"
	"math"
	"slices"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/formulas"
	"planner/montecarlo/exact"
)

// hugeModel has one input, x, drawn from dist over low..high, and formulas
// of it whose values near the largest float64 overflow any plain sum of
// ten thousand of them.
func hugeModel(t *testing.T, dist string, low, value, high float64, sources map[string]string) *engine.Plan {
	t.Helper()
	x := domain.Input{Name: "x", Value: domain.Num(value), Low: low, High: high, HasRange: true}
	d, err := ParseDistribution(dist, x)
	if err != nil {
		t.Fatal(err)
	}
	x.Dist = d
	m := domain.Model{Inputs: []domain.Input{x}}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range sources {
			if !yield(k) {
				return
			}
		}
	}) {
		m.Formulas = append(m.Formulas, formulas.Formula{Name: name, Source: sources[name]})
	}
	p, err := engine.Build(m, Check)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The mean of values whose sum overflows is still their mean: x uniform
// over 1..2 has a mean near 1.5, and x times 1e305 the same mean times
// 1e305, not +Inf; a value fixed at 1.5e305 in every sample has that mean.
func TestMeanOfValuesWhoseSumOverflows(t *testing.T) {
	p := hugeModel(t, "uniform", 1, 1.5, 2, map[string]string{"unit": "x + 0", "huge": "x * 1e305", "fixed": "1.5e305 + x * 0",
		"negative": "-x * (1.7e308 / 2)"})
	const n = 10_000
	r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: n, Seed: 3, Histograms: []string{"huge"}})
	if err != nil {
		t.Fatal(err)
	}
	unit, huge := stat(t, r, "unit"), stat(t, r, "huge")
	if math.Abs(unit.Mean-1.5) > 4/math.Sqrt(12*n) {
		t.Errorf("mean of x = %v, want 1.5 within sampling error", unit.Mean)
	}
	if want := unit.Mean * 1e305; math.Abs(huge.Mean-want) > 1e-12*want {
		t.Errorf("mean of x·1e305 = %v, want %v", huge.Mean, want)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-15*math.Abs(b) }
	if !near(huge.P5, unit.P5*1e305) || !near(huge.P95, unit.P95*1e305) || huge.Min != unit.Min*1e305 || huge.Max != unit.Max*1e305 {
		t.Errorf("x·1e305: P5 %v P95 %v from %v to %v; x's times 1e305: %v %v %v %v", huge.P5, huge.P95, huge.Min, huge.Max,
			unit.P5*1e305, unit.P95*1e305, unit.Min*1e305, unit.Max*1e305)
	}
	if s := stat(t, r, "fixed"); math.Abs(s.Mean-1.5e305) > 1e-12*1.5e305 {
		t.Errorf("mean of 1.5e305 in every sample = %v", s.Mean)
	}
	if s, want := stat(t, r, "negative"), -unit.Mean*(1.7e308/2); math.Abs(s.Mean-want) > -1e-12*want || s.Mean < s.Min || s.Mean > s.Max {
		t.Errorf("mean of -x·8.5e307 = %v, want %v, between %v and %v", s.Mean, want, s.Min, s.Max)
	}
	for i, e := range huge.Edges {
		if want := unit.Min*1e305 + float64(i)*(unit.Max-unit.Min)*1e305/exact.HistogramBins; math.Abs(e-want) > 1e-9*want {
			t.Errorf("x·1e305's edge %d = %v, want %v", i, e, want)
		}
	}
}

// A uniform, triangle or PERT between ends so far apart that their width
// overflows draws within them, finite, as it does between near ends: its
// mean and median are the closed form's.
func TestWideRangesDrawWithinThem(t *testing.T) {
	const n = 100_000
	for _, c := range []struct {
		dist              string
		low, value, high  float64
		mean, median, tol float64 // the closed form's, and a tolerance
	}{
		// A uniform over a width w has a standard deviation of w/√12.
		{"uniform", -1.5e308, 0, 1.5e308, 0, 0, 1.5e308 * (4 * 2 / math.Sqrt(12*n))},
		// A triangle with its mode at its top has its median 1/√2 of the
		// way up, and a standard deviation of √(4/18) of its half-width.
		{"triangular", -1e308, 1e308, 1e308, 1e308 / 3, -1e308 + 1e308*math.Sqrt(2), 1e308 * (4 * math.Sqrt(4.0/18) / math.Sqrt(n))},
		{"triangular", 9e307, 1e308, 1.1e308, 1e308, 1e308, 2e307 * (4 / math.Sqrt(24*n))},
		// PERT(a, m, b) has mean (a + 4m + b)/6 and a deviation near (b-a)/6.
		{"pert", 0, 5e307, 1.7e308, 1.7e308/6 + 4*5e307/6, math.NaN(), 1.7e308 * (4 / math.Sqrt(36*n))},
	} {
		p := hugeModel(t, c.dist, c.low, c.value, c.high, map[string]string{"y": "x + 0"})
		r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: n, Seed: 5, Histograms: []string{"y"}})
		if err != nil {
			t.Fatal(err)
		}
		y := stat(t, r, "y")
		if r.Good != n || y.Min < c.low || y.Max > c.high || math.Abs(y.Mean-c.mean) > c.tol ||
			c.median == c.median && math.Abs(y.P50-c.median) > c.tol {
			t.Errorf("%s(%g, %g, %g): %d of %d evaluated, from %v to %v, mean %v (want %v), P50 %v (want %v), ± %v",
				c.dist, c.low, c.value, c.high, r.Good, n, y.Min, y.Max, y.Mean, c.mean, y.P50, c.median, c.tol)
		}
		for i, e := range y.Edges {
			if !finite(e) || i > 0 && e < y.Edges[i-1] {
				t.Errorf("%s: histogram edges %v", c.dist, y.Edges)
				break
			}
		}
	}
}

// A normal or lognormal whose farthest draws are beyond the largest
// float64 is refused where it is written, with advice that parses.
func TestDrawsBeyondTheLargestNumberAreRefused(t *testing.T) {
	in := domain.Input{Name: "capex", Unit: "$", Value: domain.Num(1.7e308), Low: 1.6e308, High: 1.75e308, HasRange: true}
	for text, want := range map[string]string{
		"normal(1e308, 2e307)": "normal(1e+308, 2e+307) draws numbers beyond ±1.7976931348623157e+308, the largest planner computes with; " +
			"write one whose draws stay within it, such as triangular(1.6e+308, 1.7e+308, 1.75e+308), or fixed to hold capex at 1.7e+308",
		"normal": "normal(1.7e+308, 4.55968e+306) draws numbers beyond ±1.7976931348623157e+308, the largest planner computes with; " +
			"write one whose draws stay within it, such as triangular(1.6e+308, 1.7e+308, 1.75e+308), or fixed to hold capex at 1.7e+308",
		"lognormal(705, 1)": "lognormal(705, 1) draws numbers beyond ±1.7976931348623157e+308, the largest planner computes with; " +
			"write one whose draws stay within it, such as triangular(1.6e+308, 1.7e+308, 1.75e+308), or fixed to hold capex at 1.7e+308",
	} {
		_, err := ParseDistribution(text, in)
		if err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", text, err, want)
		}
	}
	for _, advice := range []string{"triangular(1.6e+308, 1.7e+308, 1.75e+308)", "fixed"} {
		if _, err := ParseDistribution(advice, in); err != nil {
			t.Errorf("the advice %s: %v", advice, err)
		}
	}
	// At the largest float64 itself, the range an example takes stops there
	// (written to six digits, the advice's top is a little below it).
	top := domain.Input{Name: "capex", Unit: "$", Value: domain.Num(math.MaxFloat64)}
	_, err := ParseDistribution("normal(1.7e308, 1e307)", top)
	want := "normal(1.7e+308, 1e+307) draws numbers beyond ±1.7976931348623157e+308, the largest planner computes with; " +
		"write one whose draws stay within it, such as triangular(1.62e+308, 1.79769e+308, 1.79769e+308), " +
		"or fixed to hold capex at 1.7976931348623157e+308"
	if err == nil || err.Error() != want {
		t.Errorf("at the largest float64:\n got %v\nwant %s", err, want)
	}
	if _, err := ParseDistribution("triangular(1.62e+308, 1.79769e+308, 1.79769e+308)", top); err != nil {
		t.Errorf("the advice at the largest float64: %v", err)
	}
}
