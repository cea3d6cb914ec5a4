package montecarlo

import (
	"fmt"
	"strings"

	"planner/engine"
	"planner/formulas"
	"planner/units"
)

// HeldWarnings say, for the base scenario with the command line's
// overrides, which inputs Monte Carlo and the tornado hold and how to let
// them vary: at the value cell the user typed in, at the distribution cell
// whose parameters miss the value, or at the --set that asked for it.
func HeldWarnings(p *engine.Plan, overrides map[string]engine.Value) formulas.List {
	file := p.Model().Where.File
	var out formulas.List
	for _, h := range p.HeldInputs(engine.Scenario{Name: engine.Base, Set: overrides}) {
		in, v := h.Input, units.Plain(h.Value)
		rng := fmt.Sprintf("%s..%s", units.Plain(in.Low), units.Plain(in.High))
		widen := fmt.Sprintf("to let it vary, widen low and high in Assumptions (%s) to include %s", rangeCells(in), v)
		switch {
		case h.Set:
			out = append(out, &formulas.Error{Origin: formulas.Origin{File: file}, Msg: fmt.Sprintf(
				"--set %s=%s lies outside %s's range %s, so Monte Carlo and the tornado hold %s at %s; %s", in.Name, v, in.Name, rng, in.Name, v, widen)})
		case h.ByDistribution:
			out = append(out, &formulas.Error{Origin: distCell(in), Name: in.Name, Msg: fmt.Sprintf(
				"the value %s lies outside %s, so Monte Carlo holds it at %s; to let it vary, write a distribution around it, such as %s%s",
				v, in.Dist, v, example(in.Dist.Kind, in), clearToUseRange(in))})
		default:
			out = append(out, &formulas.Error{Origin: in.Origin, Name: in.Name, Msg: fmt.Sprintf(
				"the value %s lies outside the range %s, so Monte Carlo and the tornado hold it at %s; %s", v, rng, v, widen)})
			if in.OutsideDistribution(h.Value) && in.DistText != "" && strings.Contains(in.DistText, "(") {
				out = append(out, &formulas.Error{Origin: distCell(in), Name: in.Name, Msg: fmt.Sprintf(
					"the value %s lies outside %s too; write a distribution around it, such as %s, or clear the cell to draw it over low, value and high",
					v, in.Dist, example(in.Dist.Kind, in))})
			}
		}
	}
	return out
}

// clearToUseRange offers the bare distribution over the input's range,
// where that range holds the value.
func clearToUseRange(in engine.Input) string {
	if !in.HasRange || in.Outside(in.Value.Num) {
		return ""
	}
	return ", or clear the cell to draw it over low, value and high (" + units.Plain(in.Low) + ", " + units.Plain(in.Value.Num) + ", " + units.Plain(in.High) + ")"
}

func distCell(in engine.Input) formulas.Origin {
	if in.DistAt.Sheet != "" {
		return in.DistAt
	}
	return in.Origin
}

// rangeCells names an input's low and high cells, "D6, E6", or says where
// they are when the input was not read from a sheet.
func rangeCells(in engine.Input) string {
	if in.LowAt.Sheet == "" || in.HighAt.Sheet == "" {
		return "the low and high columns"
	}
	return in.LowAt.Cell() + ", " + in.HighAt.Cell()
}
