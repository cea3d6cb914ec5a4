package evaluate

import (
	"errors"
	"fmt"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/formulas"
	"planner/units"
)

// ParseSets reads NAME=VALUE overrides (--set) against the model's inputs:
// a number as ParseNumber reads it for a number input, the text for a text
// input, each checked as the Assumptions sheet's own cell would be.
func ParseSets(sets []string, plan *engine.Plan) (map[string]domain.Value, error) {
	out := map[string]domain.Value{}
	for _, s := range sets {
		name, v, err := parseSet(s, plan)
		if err != nil {
			return nil, err
		}
		out[name] = v
	}
	return out, nil
}

func parseSet(s string, plan *engine.Plan) (string, domain.Value, error) {
	name, raw, ok := strings.Cut(s, "=")
	name, raw = strings.TrimSpace(name), strings.TrimSpace(raw)
	if !ok || name == "" {
		return "", domain.Value{}, fmt.Errorf("--set %s: write NAME=VALUE, such as --set capex=320000", s)
	}
	in, ok := plan.Settable(name)
	if !ok {
		return "", domain.Value{}, fmt.Errorf("--set %s: %s is not an input of this workbook%s", s, name, suggestInput(name, plan.Model()))
	}
	if name == domain.Currency {
		// Every amount of the workbook is in it: set over them, it would
		// only rename them.
		return "", domain.Value{}, fmt.Errorf("--set %s: the currency is the workbook's, the one every amount of it is in; change it in the sheet Assumptions", s)
	}
	if in.Value.IsText {
		v := domain.Text(strings.Trim(raw, `"'`))
		if msg := plan.CheckText(name, v); msg != "" {
			return "", domain.Value{}, fmt.Errorf("--set %s: %s", s, msg)
		}
		return name, v, nil
	}
	v, err := ParseNumber(raw)
	if err != nil {
		return "", domain.Value{}, fmt.Errorf("--set %s: %v", s, err)
	}
	if msg := domain.CheckInput(plan.Currency(), name, v, in.Unit); msg != "" {
		return "", domain.Value{}, fmt.Errorf("--set %s: %s %s", s, name, msg)
	}
	if f := domain.Plausibility(plan.Currency(), name, in.Unit, v); f != nil && f.Impossible {
		// An implausible value is warned of with the other overrides'
		// warnings (engine's OverrideWarnings).
		return "", domain.Value{}, fmt.Errorf("--set %s: %s", s, f.Advice("use --set "+name+"=", ""))
	}
	return name, domain.Num(v), nil
}

// ParseNumber reads a number given on the command line: 320000, $320,000,
// 35%, or arithmetic such as 264/730.
func ParseNumber(raw string) (float64, error) {
	if v, ok := units.Parse(raw); ok {
		return v, nil
	}
	v, err := constant(raw)
	if err == nil {
		return v, nil
	}
	return 0, fmt.Errorf("%q is not a number (%v); write 320000, $320,000, 35%%, or arithmetic such as 264/730", raw, err)
}

func suggestInput(name string, m domain.Model) string {
	var names []string
	for _, in := range m.Inputs {
		names = append(names, in.Name)
	}
	if s := formulas.Suggest(name, names); s != "" {
		return " (did you mean " + s + "?)"
	}
	return "; the inputs are the names in the Assumptions sheet"
}

// constant evaluates an expression that references no names, such as
// "264/730" typed on a command line.
func constant(src string) (float64, error) {
	if names, err := formulas.Names(src); err == nil && len(names) > 0 {
		return 0, fmt.Errorf("it names %s; a value cannot refer to names", diag.List(names))
	}
	p, err := engine.Build(domain.Model{Formulas: []formulas.Formula{{Name: "value", Source: src}}})
	var fe *diag.Diagnostic
	if errors.As(err, &fe) {
		return 0, errors.New(fe.Msg)
	} else if err != nil {
		return 0, err
	}
	r, err := p.Eval(domain.Scenario{})
	if err != nil {
		return 0, err
	}
	if e, ok := r.Errors["value"]; ok {
		return 0, errors.New(e.Msg)
	}
	return r.Values["value"], nil
}
