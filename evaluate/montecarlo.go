package evaluate

import (
	"context"

	"planner/domain"
	"planner/engine"
	"planner/montecarlo"
	"planner/workbooks"
)

// The phases of a run, in order, as Options.Progress hears them: Monte
// Carlo counts its samples over every scenario; the others say when they
// begin (0 of 1) and end (1 of 1).
const (
	phaseReading    = "reading"
	phaseEvaluating = "evaluating"
	phaseMonteCarlo = "Monte Carlo"
	phaseWhatIfs    = "what-ifs"
	phaseWriting    = "writing the sheets"
	phaseChecking   = "comparing with the sheets"
	phaseSaving     = "saving"
)

// phase tells Options.Progress that a phase begins, and returns what tells
// it that the phase ended.
func (r *run) phase(name string) (end func()) {
	if r.opts.Progress == nil {
		return func() {}
	}
	r.opts.Progress(name, 0, 1)
	return func() { r.opts.Progress(name, 1, 1) }
}

// monteCarlo runs a Monte Carlo of every scenario, base first, reporting
// its progress over all of them.
func monteCarlo(ctx context.Context, plan *engine.Plan, overrides map[string]domain.Value, opts Options) ([]*montecarlo.Result, error) {
	scenarios := plan.Scenarios(overrides)
	total := opts.Samples * len(scenarios)
	mo := montecarlo.Options{Samples: opts.Samples, Seed: opts.Seed, Histograms: []string{workbooks.HistogramOutput}}
	if opts.Progress != nil {
		mo.Progress = func(done int) { opts.Progress(phaseMonteCarlo, done, total) }
	}
	return montecarlo.RunAll(ctx, plan, scenarios, mo)
}
