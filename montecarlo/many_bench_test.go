package montecarlo

import (
	"context"
	"fmt"
	"testing"

	"planner/domain"
	"planner/engine"
)

// BenchmarkScenarios runs the default 10,000 samples of 100 and of 1,000
// scenarios that set capex and utilisation, as a grown Scenarios sheet
// does: the cost should grow with the number of scenarios, no faster.
func BenchmarkScenarios(b *testing.B) {
	p, err := engine.Build(uncertainModel(), Check)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{100, 1000} {
		scenarios := grownScenarios(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				rs, err := RunAll(context.Background(), p, scenarios, Options{Samples: DefaultSamples, Seed: DefaultSeed})
				if err != nil {
					b.Fatal(err)
				}
				sink += rs[n].Outputs[0].P50
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(scenarios)), "µs/scenario")
		})
	}
}

// BenchmarkFormulas runs the default 10,000 samples of the base scenario
// with 200 and with 2,000 more formulas, each the cost per GPU-hour moved
// and stretched: time and allocations should grow with the formulas, no
// faster.
func BenchmarkFormulas(b *testing.B) {
	for _, n := range []int{200, 2000} {
		p, err := engine.Build(grownFormulas(n), Check)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := Run(context.Background(), p, domain.Scenario{Name: domain.Base}, Options{Samples: DefaultSamples, Seed: DefaultSeed})
				if err != nil {
					b.Fatal(err)
				}
				sink += r.Outputs[len(r.Outputs)-1].P50
			}
		})
	}
}
