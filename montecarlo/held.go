package montecarlo

import (
	"fmt"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/units"
)

// An input whose value lies outside its own low..high has outgrown the
// range: the user typed their own quote, or a --set asked for a what-if
// beyond it. The deterministic results use the value as they use any
// other; Monte Carlo and the tornado hold it at that value, since a range
// that does not contain the value says nothing about how it varies, and
// planner says so where the value was typed. The same holds for Monte
// Carlo when the value lies outside the distribution the input was given
// with its own parameters ("triangular(250000, 285000, 320000)" after a
// quote of 412,000).

// Held is an input Monte Carlo (and, when its range no longer holds its
// value, the tornado) keeps at its value in one scenario.
type Held struct {
	Input domain.Input
	Value float64
	Set   bool // the scenario sets the value (a Scenarios cell or --set); else it is the Assumptions'
	// ByDistribution: the value lies inside the range but outside the
	// distribution given with its own parameters, so only Monte Carlo
	// holds it; the tornado swings it over the range.
	ByDistribution bool
	// Implausible is the band of plausible values the value lies outside
	// too ("0 to 2 $/kWh"), or "": widening the range to take in such a
	// value would spread a slip over every sample, so the advice is to
	// check the value.
	Implausible string
}

// implausible is the plausible band v lies outside, in currency c, or "".
func implausible(c units.Currency, in domain.Input, v float64) string {
	if b, ok := domain.BandOf(in.Name, in.Unit); ok && b.Check(v) != nil {
		return b.In(c).Range()
	}
	return ""
}

// LetVary says what lets a held input vary: widen its range, or, for a
// value outside what the input plausibly is, check the value.
func (h Held) LetVary() string {
	if h.Implausible != "" {
		return "it lies outside the plausible " + h.Implausible + " too: check the value rather than widen the range"
	}
	return "widen low and high in Assumptions to include it to let it vary"
}

// Why says what was held, for a sheet: "capex held at 412000: outside its
// range 250000..320000".
func (h Held) Why() string {
	if h.ByDistribution {
		return fmt.Sprintf("%s held at %s: outside %s", h.Input.Name, units.Plain(h.Value), h.Input.Dist)
	}
	return fmt.Sprintf("%s held at %s: outside its range %s..%s", h.Input.Name, units.Plain(h.Value), units.Plain(h.Input.Low), units.Plain(h.Input.High))
}

// HeldInputs lists, in model order, the inputs whose value in sc lies
// outside their range, or (for the Assumptions' own values, which are the
// ones Monte Carlo draws around) outside their distribution.
func HeldInputs(p *engine.Plan, sc domain.Scenario) []Held {
	var out []Held
	for _, in := range p.Model().Inputs {
		v, set := in.Value, false
		if s, ok := sc.Set[in.Name]; ok {
			v, set = s, true
		}
		switch {
		case v.IsText:
		case in.Outside(v.Num):
			out = append(out, Held{Input: in, Value: v.Num, Set: set, Implausible: implausible(p.Currency(), in, v.Num)})
		case !set && in.OutsideDistribution(v.Num):
			out = append(out, Held{Input: in, Value: v.Num, ByDistribution: true})
		}
	}
	return out
}

// HeldNames names the held inputs, in the order given.
func HeldNames(held []Held) []string {
	var out []string
	for _, h := range held {
		out = append(out, h.Input.Name)
	}
	return out
}

// HeldWarnings say, for the base scenario with the command line's
// overrides, which inputs Monte Carlo and the tornado hold and how to let
// them vary: at the value cell the user typed in, at the distribution cell
// whose parameters miss the value, or at the --set that asked for it.
func HeldWarnings(p *engine.Plan, overrides map[string]domain.Value) diag.Diagnostics {
	file := p.Model().Where.File
	var out diag.Diagnostics
	for _, h := range HeldInputs(p, domain.Scenario{Name: domain.Base, Set: overrides}) {
		in, v := h.Input, units.Plain(h.Value)
		rng := fmt.Sprintf("%s..%s", units.Plain(in.Low), units.Plain(in.High))
		widen := fmt.Sprintf("to let it vary, widen low and high in Assumptions (%s) to include %s", rangeCells(in), v)
		if h.Implausible != "" {
			widen = h.LetVary()
		}
		switch {
		case h.Set:
			out = append(out, &diag.Diagnostic{Origin: diag.Origin{File: file}, Msg: fmt.Sprintf(
				"--set %s=%s lies outside %s's range %s, so Monte Carlo and the tornado hold %s at %s; %s", in.Name, v, in.Name, rng, in.Name, v, widen)})
		case h.ByDistribution:
			out = append(out, &diag.Diagnostic{Origin: distCell(in), Name: in.Name, Msg: fmt.Sprintf(
				"the value %s lies outside %s, so Monte Carlo holds it at %s; to let it vary, write a distribution around it, such as %s%s",
				v, in.Dist, v, example(in.Dist.Kind, in), clearToUseRange(in))})
		default:
			out = append(out, &diag.Diagnostic{Origin: in.Origin, Name: in.Name, Msg: fmt.Sprintf(
				"the value %s lies outside the range %s, so Monte Carlo and the tornado hold it at %s; %s", v, rng, v, widen)})
			if in.OutsideDistribution(h.Value) && in.DistText != "" && strings.Contains(in.DistText, "(") {
				out = append(out, &diag.Diagnostic{Origin: distCell(in), Name: in.Name, Msg: fmt.Sprintf(
					"the value %s lies outside %s too; write a distribution around it, such as %s, or clear the cell to draw it over low, value and high",
					v, in.Dist, example(in.Dist.Kind, in))})
			}
		}
	}
	return out.AsWarnings()
}

// clearToUseRange offers the bare distribution over the input's range,
// where that range holds the value.
func clearToUseRange(in domain.Input) string {
	if !in.HasRange || in.Outside(in.Value.Num) {
		return ""
	}
	return ", or clear the cell to draw it over low, value and high (" + units.Plain(in.Low) + ", " + units.Plain(in.Value.Num) + ", " + units.Plain(in.High) + ")"
}

func distCell(in domain.Input) diag.Origin {
	if in.DistAt.Sheet != "" {
		return in.DistAt
	}
	return in.Origin
}

// rangeCells names an input's low and high cells, "D6, E6", or says where
// they are when the input was not read from a sheet.
func rangeCells(in domain.Input) string {
	if in.LowAt.Sheet == "" || in.HighAt.Sheet == "" {
		return "the low and high columns"
	}
	return in.LowAt.Cell() + ", " + in.HighAt.Cell()
}
