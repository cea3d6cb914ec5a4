package finance

import (
	"slices"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/formulas"
)

// Check is the engine.Check of owning's lines beyond the article's three:
// when Assumptions or a scenario gives one of them a value but the
// workbook's own cost_per_gpu_hour does not read it (a formula typed
// before the line existed), the break-even and the verdicts leave it out
// while the NPV and the Cash flow sheet count it. That is said at the
// formula, with the input's cell.
func Check(p *engine.Plan) (problems, warnings diag.Diagnostics) {
	cost, ok := p.Formula(domain.CostPerGPUHour)
	if !ok {
		return nil, nil
	}
	m := p.Model()
	for _, name := range domain.LaterInputs() {
		in, ok := m.Input(name)
		if !ok || slices.Contains(p.DependsOn(name), domain.CostPerGPUHour) {
			continue
		}
		at, value := in.Origin, in.Value.Num
		for _, sc := range m.Scenarios {
			if v, set := sc.Set[name]; set && value == 0 && v.Num != 0 {
				at, value = sc.Where[name], v.Num
			}
		}
		if value == 0 {
			continue
		}
		builtin, _ := formulas.Builtin(domain.CostPerGPUHour)
		warnings = append(warnings, diag.Warningf(cost.Origin, cost.Name,
			"does not read %s, which %s sets to %s: the break-even and the verdicts leave it out, while the NPV and the Cash flow sheet count it; write the expression as the built-in does, %s, or delete the row to use the built-in",
			name, where(at), m.Currency.Format(value, in.Unit), builtin.Source))
	}
	return nil, warnings
}

// where names a cell for a message, or the Assumptions sheet when the
// input has no cell of its own.
func where(at diag.Origin) string {
	if at.Sheet == "" {
		return "Assumptions"
	}
	return at.Where()
}
