package view

import (
	"math"

	"planner/montecarlo"
	"planner/units"
)

// Names of a Monte Carlo output's statistics: the JSON's keys.
const (
	Mean      = "mean"
	P5        = "p5"
	P50       = "p50"
	P95       = "p95"
	Evaluated = "samples_evaluated"
	Base      = "base"
	BaseRank  = "base_rank"
)

// statistic is a figure of an output over a Monte Carlo run's samples,
// with how its value is found. A statistic without a unit is in the unit
// of the output it summarises.
type statistic struct {
	Figure
	of func(s montecarlo.Stats, evaluated int) Cell
}

// statistics are an output's figures over the samples in reading order:
// where its values lie, how many samples it has, and where the scenario's
// own value falls among them.
var statistics = []statistic{
	{Figure{Name: Mean, Label: "mean", Head: "mean", Key: Mean, In: Terminal | Sheet | JSON}, value(func(s montecarlo.Stats) float64 { return s.Mean })},
	{Figure{Name: P5, Label: "P5", Head: "P5", Key: P5, In: Terminal | Sheet | JSON}, value(func(s montecarlo.Stats) float64 { return s.P5 })},
	{Figure{Name: P50, Label: "P50", Head: "P50", Key: P50, In: Terminal | Sheet | JSON}, value(func(s montecarlo.Stats) float64 { return s.P50 })},
	{Figure{Name: P95, Label: "P95", Head: "P95", Key: P95, In: Terminal | Sheet | JSON}, value(func(s montecarlo.Stats) float64 { return s.P95 })},
	{Figure{Name: Evaluated, Label: "samples evaluated", Unit: "samples", Format: "#,##0", In: Sheet, Whole: true},
		func(_ montecarlo.Stats, evaluated int) Cell { return Cell{Value: float64(evaluated), Number: true} }},
	{Figure{Name: Base, Label: "base", Head: "base", Key: Base, In: Terminal | Sheet | JSON}, value(func(s montecarlo.Stats) float64 { return s.Base })},
	{Figure{Name: BaseRank, Label: "base at (percentile)", Head: "base at", Key: BaseRank, Unit: units.Share, In: Terminal | Sheet | JSON}, baseRank},
}

// Statistics are the figures of an output over the samples, in reading
// order: the columns of a table of outputs before any run fills it.
func Statistics() []Figure {
	figs := make([]Figure, len(statistics))
	for k, s := range statistics {
		figs[k] = s.Figure
	}
	return figs
}

func value(of func(montecarlo.Stats) float64) func(montecarlo.Stats, int) Cell {
	return func(s montecarlo.Stats, _ int) Cell { return Cell{Value: of(s), Number: true} }
}

// baseRank is the share of samples below the scenario's own value, in
// words the percentile it is; no number when no sample evaluated.
func baseRank(s montecarlo.Stats, _ int) Cell {
	r := s.BaseRank
	return Cell{Value: r, Number: !math.IsNaN(r) && !math.IsInf(r, 0), Words: montecarlo.RankText(r)}
}

// MonteCarlo is a scenario's Monte Carlo run as a reader reads it: the
// statistics in order, every output's values of them, and each offer's
// odds with owning's NPV against it.
type MonteCarlo struct {
	*montecarlo.Result
	Statistics []Figure
	Outputs    []Distribution // one per output of the run, in its order
	Offers     []OfferOdds    // one per offer of the run, in its order
}

// Distribution is one output's statistics over the samples it evaluated
// for, with its value of every statistic.
type Distribution struct {
	montecarlo.Stats
	Currency  units.Currency // the currency of a money output
	Evaluated int
	Cells     []Cell // one per statistic of the MonteCarlo
}

// Varies says the output took more than one value over the samples.
func (d Distribution) Varies() bool { return d.Min != d.Max }

// Statistic is statistic f as this output shows it: in the output's unit
// where f has none of its own.
func (d Distribution) Statistic(f Figure) Figure {
	if f.Unit == "" {
		f.Unit = d.Unit
	}
	f.Currency = d.Currency
	return f
}

// OfferOdds is one offer's share of samples in which owning beats it, and
// owning's NPV against it (nil when the model has no NPV).
type OfferOdds struct {
	montecarlo.OwnCheaper
	NPVSaving *Distribution
}

// MonteCarloOf is run mc as a reader reads it, its money in currency
// cur; nil when there is none.
func MonteCarloOf(mc *montecarlo.Result, cur units.Currency) *MonteCarlo {
	if mc == nil {
		return nil
	}
	out := &MonteCarlo{Result: mc, Statistics: Statistics(), Offers: OfferOddsOf(mc, cur),
		Outputs: make([]Distribution, 0, len(mc.Outputs))}
	for _, o := range mc.Outputs {
		out.Outputs = append(out.Outputs, distributionOf(o, mc.Good, cur))
	}
	return out
}

// OfferOddsOf is MonteCarloOf(mc, cur).Offers, without the outputs.
func OfferOddsOf(mc *montecarlo.Result, cur units.Currency) []OfferOdds {
	out := make([]OfferOdds, 0, len(mc.OwnCheaper))
	for _, oc := range mc.OwnCheaper {
		odds := OfferOdds{OwnCheaper: oc}
		if oc.NPV != nil {
			d := distributionOf(*oc.NPV, oc.Evaluated, cur)
			odds.NPVSaving = &d
		}
		out = append(out, odds)
	}
	return out
}

func distributionOf(s montecarlo.Stats, evaluated int, cur units.Currency) Distribution {
	d := Distribution{Stats: s, Currency: cur, Evaluated: evaluated, Cells: make([]Cell, len(statistics))}
	for k, f := range statistics {
		d.Cells[k] = f.of(s, evaluated)
	}
	return d
}
