package view

import (
	"math"
	"slices"
	"testing"

	"planner/domain"
	"planner/montecarlo"
	"planner/units"
)

// samples are ten costs per used hour; the scenario's own value is 3.
var samples = []float64{2, 2.5, 3, 3.5, 4, 1.5, 5, 2, 3, 2.5}

const sampledBase = 3.0

// statsOf summarises samples as a Monte Carlo run does, worked out here:
// the mean, percentiles between the two nearest ranks, and the share of
// samples below the base with ties counted half.
func statsOf(name, unit string, xs []float64, base float64) montecarlo.Stats {
	sorted := slices.Sorted(slices.Values(xs))
	at := func(p float64) float64 {
		h := p * float64(len(sorted)-1)
		lo := math.Floor(h)
		return sorted[int(lo)] + (h-lo)*(sorted[int(math.Ceil(h))]-sorted[int(lo)])
	}
	sum, below := 0.0, 0.0
	for _, x := range xs {
		sum += x
		switch {
		case x < base:
			below++
		case x == base:
			below += 0.5
		}
	}
	return montecarlo.Stats{Name: name, Unit: unit, Mean: sum / float64(len(xs)), P5: at(0.05), P50: at(0.5), P95: at(0.95),
		Min: sorted[0], Max: sorted[len(sorted)-1], Base: base, BaseRank: below / float64(len(xs))}
}

func sampledRun() *montecarlo.Result {
	cost := statsOf(domain.CostPerUsedHour, "$/GPU-h", samples, sampledBase)
	npv := statsOf(domain.NPVSaving, "$", []float64{-1000, 500, 2000, 2500}, 500)
	fixed := statsOf(domain.GPUs, "GPUs", []float64{8, 8, 8}, 8)
	offer := domain.Offer{Provider: "RunPod", GPU: "H100 SXM", Price: 2.69}
	return &montecarlo.Result{Scenario: domain.Base, Samples: 10, Good: len(samples), Outputs: []montecarlo.Stats{cost, fixed},
		OwnCheaper: []montecarlo.OwnCheaper{{Offer: &offer, Probability: 0.7, NPV: &npv, NPVAboveZero: 0.75, Evaluated: 4}}}
}

// Each rendering shows the statistics in the same order: the terminal
// without the count of samples, the JSON by key.
func TestStatisticsInReadingOrder(t *testing.T) {
	figs := Statistics()
	shown := func(in Where, name func(Figure) string) []string {
		var out []string
		for _, f := range figs {
			if f.In&in != 0 {
				out = append(out, name(f))
			}
		}
		return out
	}
	if got, want := shown(Terminal, func(f Figure) string { return f.Head }), []string{"mean", "P5", "P50", "P95", "base", "base at"}; !slices.Equal(got, want) {
		t.Errorf("terminal columns %q, want %q", got, want)
	}
	if got, want := shown(Sheet, func(f Figure) string { return f.Label }),
		[]string{"mean", "P5", "P50", "P95", "samples evaluated", "base", "base at (percentile)"}; !slices.Equal(got, want) {
		t.Errorf("sheet columns %q, want %q", got, want)
	}
	if got, want := shown(JSON, func(f Figure) string { return f.Key }), []string{"mean", "p5", "p50", "p95", "base", "base_rank"}; !slices.Equal(got, want) {
		t.Errorf("JSON keys %q, want %q", got, want)
	}
}

// cellOf is d's cell of the statistic called name.
func cellOf(t *testing.T, v *MonteCarlo, d Distribution, name string) (Figure, Cell) {
	t.Helper()
	for k, f := range v.Statistics {
		if f.Name == name {
			return d.Statistic(f), d.Cells[k]
		}
	}
	t.Fatalf("no statistic %s", name)
	return Figure{}, Cell{}
}

// The ten samples' statistics, worked out by hand: sorted they are 1.5 2
// 2 2.5 2.5 3 3 3.5 4 5; their sum is 29; five lie below 3 and two at it.
func TestStatisticsOfTenSamples(t *testing.T) {
	v := MonteCarloOf(sampledRun(), units.USD)
	cost := v.Outputs[0]
	want := map[string]float64{Mean: 2.9, P5: 1.5 + 0.45*0.5, P50: 2.75, P95: 4 + 0.55*1, Evaluated: 10, Base: 3, BaseRank: 0.6}
	for name, x := range want {
		f, c := cellOf(t, v, cost, name)
		if !c.Number || math.Abs(c.Value-x) > 1e-12 {
			t.Errorf("%s = %v (number %v), want %v", name, c.Value, c.Number, x)
		}
		if name != BaseRank && name != Evaluated && f.Unit != "$/GPU-h" {
			t.Errorf("%s in %q, want the output's unit $/GPU-h", name, f.Unit)
		}
	}
	if f, c := cellOf(t, v, cost, Mean); f.Text(c) != units.Format(2.9, "$/GPU-h") {
		t.Errorf("mean reads %q, want %q", f.Text(c), units.Format(2.9, "$/GPU-h"))
	}
	if f, c := cellOf(t, v, cost, BaseRank); f.Text(c) != "P60" {
		t.Errorf("base at %q, want P60", f.Text(c))
	}
	if !cost.Varies() || v.Outputs[1].Varies() {
		t.Errorf("varies: cost %v, GPUs %v; want true, false", cost.Varies(), v.Outputs[1].Varies())
	}
}

// Owning's NPV against an offer is counted over the samples evaluated
// for the offer: -1000 500 2000 2500, the base 500 at their P38.
func TestNPVOverTheOffersSamples(t *testing.T) {
	v := MonteCarloOf(sampledRun(), units.USD)
	odds := v.Offers[0]
	if odds.Probability != 0.7 || odds.NPVSaving == nil {
		t.Fatalf("odds %+v", odds)
	}
	npv := *odds.NPVSaving
	for name, x := range map[string]float64{Mean: 1000, P50: 1250, Evaluated: 4, BaseRank: 1.5 / 4} {
		if _, c := cellOf(t, v, npv, name); c.Value != x {
			t.Errorf("NPV %s = %v, want %v", name, c.Value, x)
		}
	}
	if f, c := cellOf(t, v, npv, BaseRank); f.Text(c) != "P38" {
		t.Errorf("NPV base at %q, want P38", f.Text(c))
	}
}

// With no sample evaluated there is no rank: no number and no words.
func TestNoRankWithoutSamples(t *testing.T) {
	c := baseRank(montecarlo.Stats{BaseRank: math.NaN()}, 0)
	if c.Number || c.Words != "" {
		t.Errorf("rank of no sample %+v, want neither a number nor words", c)
	}
	if MonteCarloOf(nil, units.USD) != nil {
		t.Error("a view of no run")
	}
}
