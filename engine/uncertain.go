package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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

// Outside reports whether v lies outside the input's range.
func (in Input) Outside(v float64) bool {
	return in.HasRange && !in.Value.IsText && (v < in.Low || v > in.High)
}

// OutsideDistribution reports whether v lies where the input's
// distribution never draws: beyond a uniform's, triangle's or PERT's ends,
// or beyond the 0.1st and 99.9th percentiles of a normal or lognormal.
func (in Input) OutsideDistribution(v float64) bool {
	d := in.Dist
	if d == nil || in.Value.IsText || len(d.Params) < 2 {
		return false
	}
	const z999 = 3.090232306167813 // the standard normal's 99.9th percentile
	p := d.Params
	switch d.Kind {
	case "uniform":
		return v < p[0] || v > p[1]
	case "triangular", "pert":
		return len(p) == 3 && (v < p[0] || v > p[2])
	case "normal":
		return math.Abs(v-p[0]) > z999*p[1]
	case "lognormal":
		return v <= 0 || math.Abs(math.Log(v)-p[0]) > z999*p[1]
	}
	return false
}

// Held is an input Monte Carlo (and, when its range no longer holds its
// value, the tornado) keeps at its value in one scenario.
type Held struct {
	Input Input
	Value float64
	Set   bool // the scenario sets the value (a Scenarios cell or --set); else it is the Assumptions'
	// ByDistribution: the value lies inside the range but outside the
	// distribution given with its own parameters, so only Monte Carlo
	// holds it; the tornado swings it over the range.
	ByDistribution bool
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
func (p *Plan) HeldInputs(sc Scenario) []Held {
	var out []Held
	for _, in := range p.model.Inputs {
		v, set := in.Value, false
		if s, ok := sc.Set[in.Name]; ok {
			v, set = s, true
		}
		switch {
		case v.IsText:
		case in.Outside(v.Num):
			out = append(out, Held{Input: in, Value: v.Num, Set: set})
		case !set && in.OutsideDistribution(v.Num):
			out = append(out, Held{Input: in, Value: v.Num, ByDistribution: true})
		}
	}
	return out
}

// Distribution is how an uncertain input varies in a Monte Carlo run.
type Distribution struct {
	Kind   string    // uniform, triangular, pert, normal or lognormal
	Params []float64 // uniform: a, b; triangular and pert: a, mode, b; normal: mean, sd; lognormal: mu, sigma of the log
	Text   string    // as the workbook wrote it
}

// String prints the distribution with its parameters, to six significant
// digits as a person types them: "triangular(250000, 285000, 320000)".
func (d *Distribution) String() string {
	var ps []string
	for _, p := range d.Params {
		six, _ := strconv.ParseFloat(strconv.FormatFloat(p, 'g', 6, 64), 64)
		ps = append(ps, units.Plain(six))
	}
	return d.Kind + "(" + strings.Join(ps, ", ") + ")"
}
