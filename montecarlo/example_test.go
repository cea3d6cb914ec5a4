package montecarlo_test

import (
	"context"
	"fmt"

	"planner/domain"
	"planner/engine"
	"planner/formulas"
	"planner/montecarlo"
)

// A bill of twice an uncertain number of hours, drawn uniformly between
// 100 and 300: its median is twice the median hour.
func ExampleRun() {
	hours := domain.Input{Name: "hours", Value: domain.Num(200), Low: 100, High: 300, HasRange: true}
	dist, err := montecarlo.ParseDistribution("uniform", hours)
	if err != nil {
		panic(err)
	}
	hours.Dist = dist
	m := domain.Model{Inputs: []domain.Input{hours}, Formulas: []formulas.Formula{{Name: "bill", Source: "2 * hours"}}}
	p, err := engine.Build(m, montecarlo.Check)
	if err != nil {
		panic(err)
	}
	r, err := montecarlo.Run(context.Background(), p, domain.Scenario{Name: domain.Base}, montecarlo.Options{Samples: 10_000, Seed: 1})
	if err != nil {
		panic(err)
	}
	bill := r.Outputs[0]
	fmt.Printf("%d samples of %s: P50 %.0f, from %.0f to %.0f\n", r.Good, bill.Name, bill.P50, bill.Min, bill.Max)
	// Output: 10000 samples of bill: P50 400, from 200 to 600
}
