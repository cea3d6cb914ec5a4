package evaluate

import (
	"fmt"
	"slices"
	"sort"
	"strings"

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
func checkScenarios(names []string, results []*engine.Result) error {
	var have []string
	for _, r := range results {
		have = append(have, r.Scenario)
	}
	for _, n := range names {
		if !slices.Contains(have, n) {
			return fmt.Errorf("--scenario %s: there is no such scenario; the scenarios are %s", n, strings.Join(have, ", "))
		}
	}
	return nil
}

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
