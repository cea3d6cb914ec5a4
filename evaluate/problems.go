package evaluate

import (
	"sort"

	"planner/diag"
	"planner/engine"
	"planner/montecarlo"
)

// evalErrors gathers the formulas that failed (not those skipped because of
// them), sorted, one message each.
func evalErrors(results []*engine.Result) error {
	seen := map[string]bool{}
	var list diag.Diagnostics
	add := func(errs map[string]*engine.EvalError) {
		for _, e := range errs {
			if msg := e.Error(); !e.Skipped && !seen[msg] {
				seen[msg] = true
				list = append(list, e)
			}
		}
	}
	for _, r := range results {
		add(r.Errors)
		for _, o := range r.Offers {
			add(o.Errors)
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Error() < list[j].Error() })
	return list.Err()
}

// checkScenarios refuses a scenario name the workbook does not have.
func checkScenarios(plan *engine.Plan, names []string) error {
	for _, n := range names {
		if _, err := Scenario(plan, n); err != nil {
			return err
		}
	}
	return nil
}

// interrupted is the error of an evaluation its context stopped, which
// it does before it writes anything.
type interrupted struct {
	path  string
	cause error
}

func (e interrupted) Error() string { return e.path + ": interrupted; nothing was written" }
func (e interrupted) Unwrap() error { return e.cause }

// failedSamples warns about Monte Carlo samples that gave no number.
func failedSamples(mcs []*montecarlo.Result) diag.Diagnostics {
	var out diag.Diagnostics
	for _, mc := range mcs {
		if mc.Good < mc.Samples {
			out = append(out, diag.Warningf(diag.Origin{}, "", "scenario %s: %d of %d Monte Carlo samples gave no number and are left out; the first, %s",
				mc.Scenario, mc.Samples-mc.Good, mc.Samples, mc.FirstFailure))
		}
	}
	return out
}
