package whatif

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/units"
)

// Solution is a goal solved, or why it cannot be.
type Solution struct {
	domain.Goal
	X          float64 // the input's value that reaches the target
	Reached    float64 // the target's value there
	Found      bool
	Iterations int
	Why        string // when not found: what the search saw
}

// Solve finds the value of g.For in scenario sc that makes g.Target equal
// g.Value, by Brent's method inside a bracket: the goal's own range, else
// the input's range, else wider ones the input's unit allows. Without a
// bracket it says so, with the target's values at the ends: never a wrong
// number.
func Solve(p *engine.Plan, sc domain.Scenario, g domain.Goal) (Solution, error) {
	sol := Solution{Goal: g}
	m := p.Model()
	in, ok := m.Input(g.For)
	switch {
	case !ok:
		return sol, fmt.Errorf("goal %s: %s is not an input%s", g.Name, g.For, p.DidYouMean(g.For))
	case in.Value.IsText:
		return sol, fmt.Errorf("goal %s: %s is text; goal seek solves for a number input", g.Name, g.For)
	}
	f, err := goalFunc(p, sc, g)
	if err != nil {
		return sol, err
	}
	return solveFor(p, in, g, f), nil
}

// solveFor finds where f, the goal's target less its value as a function
// of the input in, is zero (see Solve), for a caller that evaluates f
// itself, such as one evaluator shared by many goals.
func solveFor(p *engine.Plan, in domain.Input, g domain.Goal, f func(float64) float64) Solution {
	sol := Solution{Goal: g}
	var last [2]float64
	var lastV [2]float64
	for _, br := range brackets(in, g) {
		fa, fb := f(br[0]), f(br[1])
		last, lastV = br, [2]float64{fa + g.Value, fb + g.Value}
		if !finite(fa) || !finite(fb) || fa*fb > 0 {
			continue
		}
		x, n := brent(f, br[0], br[1], fa, fb)
		sol.X, sol.Iterations = x, n
		sol.Reached = f(x) + g.Value
		// A sign change can also be a jump, as across a division by zero:
		// only a point where the target really equals the value counts, to
		// within the rounding of the target's own values (an NPV of
		// $100,000s that rounds to a millionth of a dollar reaches $0).
		scale := math.Max(1, math.Max(math.Abs(g.Value), math.Max(math.Abs(fa), math.Abs(fb))))
		if miss := math.Abs(sol.Reached - g.Value); !(miss <= 1e-9*scale) {
			sol.Why = fmt.Sprintf("%s jumps across %s near %s = %s without reaching it (a division by zero?)",
				g.Target, p.Currency().Format(g.Value, p.Unit(g.Target)), g.For, p.Currency().Format(x, in.Unit))
			return sol
		}
		sol.Found = true
		return sol
	}
	x := func(v float64) string { return p.Currency().Format(v, in.Unit) }
	y := func(v float64) string {
		if !finite(v) {
			return "not a number"
		}
		return p.Currency().Format(v, p.Unit(g.Target))
	}
	sol.Why = fmt.Sprintf("no value of %s between %s and %s makes %s reach %s: it is %s at %s and %s at %s",
		g.For, x(last[0]), x(last[1]), g.Target, y(g.Value), y(lastV[0]), x(last[0]), y(lastV[1]), x(last[1]))
	return sol
}

// goalFunc is target(x) − value for the goal, evaluated in sc with the
// goal's other settings; NaN where the model gives no number.
func goalFunc(p *engine.Plan, sc domain.Scenario, g domain.Goal) (func(float64) float64, error) {
	set := map[string]domain.Value{}
	for k, v := range sc.Set {
		set[k] = v
	}
	for k, v := range g.With {
		set[k] = v
	}
	if _, ok := p.Formula(g.Target); !ok {
		return nil, fmt.Errorf("goal %s: %s is not a formula%s", g.Name, g.Target, p.DidYouMeanFormula(g.Target))
	}
	perOffer := p.PerOffer(g.Target)
	var offer domain.Offer
	if perOffer {
		m := p.Model()
		o, found := offerByLabel(&m, g.Offer)
		if !found {
			return nil, fmt.Errorf("goal %s: %s is evaluated per offer; name the offer (one of %s)", g.Name, g.Target, m.OfferLabels(""))
		}
		offer = o
	}
	ev, err := p.NewEvaluator(domain.Scenario{Name: sc.Name, Set: set}, g.For)
	if err != nil {
		return nil, err
	}
	x, y := slot(p, g.For), slot(p, g.Target)
	return func(v float64) float64 {
		ev.Set(x, v)
		ev.Run()
		if perOffer {
			ev.RunOfferOf(offer)
		}
		return ev.Get(y) - g.Value
	}, nil
}

func offerByLabel(m *domain.Model, label string) (domain.Offer, bool) {
	for _, o := range m.Offers {
		if strings.EqualFold(o.Label(), strings.TrimSpace(label)) {
			return o, true
		}
	}
	return domain.Offer{}, false
}

// brackets lists where to look, narrowest first.
func brackets(in domain.Input, g domain.Goal) [][2]float64 {
	if g.HasRange {
		return [][2]float64{{g.Low, g.High}}
	}
	var out [][2]float64
	if in.HasRange && in.Low < in.High {
		out = append(out, [2]float64{in.Low, in.High})
	}
	v := in.Value.Num
	// Near the largest float64, a thousandfold is beyond it: the bracket
	// stops there.
	top := math.MaxFloat64
	switch units.ConstraintOf(in.Unit) {
	case units.Fraction:
		out = append(out, [2]float64{1e-9, 1})
	case units.AboveZero, units.WholeCount, units.NotNegative:
		out = append(out, [2]float64{math.Max(v, 1e-9) / 1000, math.Min(math.Max(v, 1)*1000, top)})
	default:
		span := math.Max(math.Abs(v), 1) * 1000
		out = append(out, [2]float64{math.Max(v-span, -top), math.Min(v+span, top)})
	}
	return out
}

// brent finds a root of f in [a, b], where f(a) and f(b) differ in sign:
// Brent's method as Brent and Dekker wrote it (inverse quadratic
// interpolation and secant steps, falling back to bisection, each step at
// least the tolerance), to within 1e-12 of the bracket's scale.
func brent(f func(float64) float64, a, b, fa, fb float64) (float64, int) {
	const eps = 2.220446049250313e-16
	tol := 1e-12 * math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
	c, fc := b, fb
	var d, e float64
	for i := 1; i <= 200; i++ {
		if (fb > 0) == (fc > 0) {
			c, fc = a, fa
			d = b - a
			e = d
		}
		if math.Abs(fc) < math.Abs(fb) {
			a, b, c = b, c, b
			fa, fb, fc = fb, fc, fb
		}
		tol1 := 2*eps*math.Abs(b) + tol/2
		half := (c - b) / 2
		if math.Abs(half) <= tol1 || fb == 0 {
			return b, i
		}
		if math.Abs(e) >= tol1 && math.Abs(fa) > math.Abs(fb) {
			p, q := interpolate(a, b, c, fa, fb, fc, half)
			if 2*p < math.Min(3*half*q-math.Abs(tol1*q), math.Abs(e*q)) {
				e, d = d, p/q
			} else {
				d, e = half, half
			}
		} else {
			d, e = half, half
		}
		a, fa = b, fb
		if math.Abs(d) > tol1 {
			b += d
		} else {
			b += math.Copysign(tol1, half)
		}
		if fb = f(b); !finite(fb) {
			return b, i // a pole or a gap: the caller sees the target missed
		}
	}
	return b, 200
}

// interpolate is Brent's next step as p/q (p ≥ 0): inverse quadratic
// through three points, or the secant through two.
func interpolate(a, b, c, fa, fb, fc, half float64) (p, q float64) {
	s := fb / fa
	if a == c {
		p, q = 2*half*s, 1-s
	} else {
		q, r := fa/fc, fb/fc
		p = s * (2*half*q*(q-r) - (b-a)*(r-1))
		q = (q - 1) * (r - 1) * (s - 1)
	}
	if p > 0 {
		q = -q
	}
	return math.Abs(p), q
}

// checkGoals refuses goals over names the model lacks.
func checkGoals(p *engine.Plan) diag.Diagnostics {
	var problems diag.Diagnostics
	for _, g := range p.Model().Goals {
		for _, gp := range GoalProblems(p, g) {
			at, ok := g.Where[gp.Column]
			if !ok {
				at = g.Origin
			}
			problems = append(problems, &diag.Diagnostic{Origin: at, Name: g.Name, Msg: gp.Msg})
		}
	}
	return problems
}

// GoalProblem is what is wrong with one part of a goal: Column is "for",
// "target", "offer", "with" or "low".
type GoalProblem struct {
	Column string
	Msg    string
}

// GoalProblems says what makes g impossible to solve in this model, part by
// part; none when it can be tried.
func GoalProblems(p *engine.Plan, g domain.Goal) []GoalProblem {
	m := p.Model()
	var out []GoalProblem
	fail := func(col, format string, args ...any) {
		out = append(out, GoalProblem{col, fmt.Sprintf(format, args...)})
	}
	switch in, ok := m.Input(g.For); {
	case !ok:
		fail("for", "%s is not an input%s", g.For, p.DidYouMean(g.For))
	case in.Value.IsText:
		fail("for", "%s is text; goal seek solves for a number input", g.For)
	}
	_, ok := p.Formula(g.Target)
	switch {
	case !ok:
		fail("target", "%s is not a formula%s", g.Target, p.DidYouMeanFormula(g.Target))
	case p.PerOffer(g.Target) && g.Offer == "":
		fail("offer", "%s is evaluated per offer; name the offer (one of %s)", g.Target, m.OfferLabels(""))
	case g.Offer != "":
		if _, found := offerByLabel(&m, g.Offer); !found {
			fail("offer", "there is no offer %q; name one of %s", g.Offer, m.OfferLabels(""))
		}
	}
	var names []string
	for name := range g.With {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if in, ok := m.Input(name); !ok || in.Value.IsText != g.With[name].IsText {
			fail("with", "%s is not a number input%s", name, p.DidYouMean(name))
		}
	}
	if g.HasRange && !(g.Low < g.High) {
		fail("low", "looks between %s and %s; the low end must be below the high end", num(g.Low), num(g.High))
	}
	return out
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
