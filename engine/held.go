package engine

import (
	"fmt"

	"planner/formulas"
)

// An input whose value lies outside its own low..high has outgrown the
// range: the user typed their own quote, or a --set asked for a what-if
// beyond it. The deterministic results use the value as they use any
// other; Monte Carlo and the tornado hold it at that value, since a range
// that does not contain the value says nothing about how it varies, and
// planner says so where the value was typed.

// Outside reports whether v lies outside the input's range.
func (in Input) Outside(v float64) bool {
	return in.HasRange && !in.Value.IsText && (v < in.Low || v > in.High)
}

// Held is an input Monte Carlo and the tornado keep at its value in one
// scenario, because that value lies outside the input's range.
type Held struct {
	Input Input
	Value float64
	Set   bool // the scenario sets the value (a Scenarios cell or --set); else it is the Assumptions'
}

// Why says what was held, for a sheet: "capex held at 412000: outside its
// range 250000..320000".
func (h Held) Why() string {
	return fmt.Sprintf("%s held at %s: outside its range %s..%s", h.Input.Name, num(h.Value), num(h.Input.Low), num(h.Input.High))
}

// HeldInputs lists, in model order, the inputs whose value in sc lies
// outside their range.
func (p *Plan) HeldInputs(sc Scenario) []Held {
	var out []Held
	for _, in := range p.model.Inputs {
		v, set := in.Value, false
		if s, ok := sc.Set[in.Name]; ok {
			v, set = s, true
		}
		if !v.IsText && in.Outside(v.Num) {
			out = append(out, Held{Input: in, Value: v.Num, Set: set})
		}
	}
	return out
}

// HeldWarnings say, for the base scenario with the command line's
// overrides, which inputs Monte Carlo and the tornado hold and how to let
// them vary: at the value cell the user typed in, or at the --set that
// asked for the value.
func (p *Plan) HeldWarnings(overrides map[string]Value) formulas.List {
	var out formulas.List
	for _, h := range p.HeldInputs(Scenario{Name: Base, Set: overrides}) {
		in := h.Input
		rng := fmt.Sprintf("%s..%s", num(in.Low), num(in.High))
		widen := fmt.Sprintf("to let it vary, widen low and high in Assumptions (%s) to include %s", rangeCells(in), num(h.Value))
		if h.Set {
			out = append(out, &formulas.Error{Origin: formulas.Origin{File: p.model.Where.File}, Msg: fmt.Sprintf("--set %s=%s lies outside %s's range %s, so Monte Carlo and the tornado hold %s at %s; %s",
				in.Name, num(h.Value), in.Name, rng, in.Name, num(h.Value), widen)})
			continue
		}
		out = append(out, &formulas.Error{Origin: in.Origin, Name: in.Name, Msg: fmt.Sprintf(
			"the value %s lies outside the range %s, so Monte Carlo and the tornado hold it at %s; %s",
			num(h.Value), rng, num(h.Value), widen)})
	}
	return out
}

// rangeCells names an input's low and high cells, "D6:E6", or says where
// they are when the input was not read from a sheet.
func rangeCells(in Input) string {
	if in.LowAt.Sheet == "" || in.HighAt.Sheet == "" {
		return "the low and high columns"
	}
	return in.LowAt.Cell() + ", " + in.HighAt.Cell()
}
