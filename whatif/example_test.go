package whatif_test

import (
	"fmt"

	"planner/domain"
	"planner/engine"
	"planner/formulas"
	"planner/whatif"
)

// How many hours at $2 an hour a $500 budget buys: goal seek solves the
// bill for the hours.
func ExampleSolve() {
	m := domain.Model{
		Inputs: []domain.Input{{Name: "price", Value: domain.Num(2)},
			{Name: "hours", Value: domain.Num(100), Low: 1, High: 1000, HasRange: true}},
		Formulas: []formulas.Formula{{Name: "bill", Source: "price * hours"}},
	}
	p, err := engine.Build(m, whatif.Check)
	if err != nil {
		panic(err)
	}
	sol, err := whatif.Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "budget", For: "hours", Target: "bill", Value: 500})
	if err != nil {
		panic(err)
	}
	fmt.Printf("found %v: %.1f hours\n", sol.Found, sol.X)
	// Output: found true: 250.0 hours
}
