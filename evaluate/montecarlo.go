package evaluate

import (
	"context"

	"planner/engine"
	"planner/montecarlo"
	"planner/workbooks"
)

// phaseMonteCarlo names the Monte Carlo phase to Options.Progress.
const phaseMonteCarlo = "Monte Carlo"

// monteCarlo runs a Monte Carlo of every scenario, base first, reporting
// its progress over all of them.
func monteCarlo(ctx context.Context, plan *engine.Plan, overrides map[string]engine.Value, opts Options) ([]*montecarlo.Result, error) {
	scenarios := plan.Scenarios(overrides)
	total := opts.Samples * len(scenarios)
	mo := montecarlo.Options{Samples: opts.Samples, Seed: opts.Seed, Histograms: []string{workbooks.HistogramOutput}}
	if opts.Progress != nil {
		mo.Progress = func(done int) { opts.Progress(phaseMonteCarlo, done, total) }
	}
	return montecarlo.RunAll(ctx, plan, scenarios, mo)
}
