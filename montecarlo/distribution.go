package montecarlo

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat/distuv"

	"planner/diag"
	"planner/domain"
	"planner/units"
)

// z95 is the standard normal's 95th percentile: a normal or lognormal
// input's low and high are its 5th and 95th percentiles.
const z95 = 1.6448536269514722

var distArity = map[string]int{"uniform": 2, "triangular": 3, "pert": 3, "normal": 2, "lognormal": 2}

// ParseDistribution reads an Assumptions distribution cell for the input in:
// "" (triangular over low, value, high when the input has a range, else
// fixed), "fixed", a bare name whose parameters come from low, value and
// high, or a name with its parameters: "normal(0.12, 0.02)". It returns nil
// for a fixed input, and for one whose value lies outside its range, which
// Monte Carlo holds at that value (see HeldWarnings). Every message gives an
// example made of the input's own numbers.
func ParseDistribution(text string, in domain.Input) (*domain.Distribution, error) {
	s := strings.ToLower(strings.TrimSpace(text))
	if s == "fixed" || s == "none" || (s == "" && !in.HasRange) {
		return nil, nil
	}
	if s == "" {
		s = "triangular"
	}
	kind, args, hasArgs := strings.Cut(s, "(")
	kind = strings.TrimSpace(kind)
	n, ok := distArity[kind]
	if !ok {
		return nil, fmt.Errorf("%q is not a distribution planner knows; write %s", text, knownKinds(in))
	}
	d := &domain.Distribution{Kind: kind, Text: strings.TrimSpace(text)}
	if hasArgs {
		params, err := parseArgs(args, n)
		if err != nil {
			return nil, fmt.Errorf("%q: %v; write it like %s", text, err, example(kind, in))
		}
		d.Params = params
	} else {
		if !in.HasRange {
			lo, hi := exampleRange(in)
			return nil, fmt.Errorf("%s needs a range: fill low and high (such as %s and %s), give its parameters, such as %s, or write fixed to hold %s at %s",
				kind, units.Plain(lo), units.Plain(hi), example(kind, in), in.Name, units.Plain(in.Value.Num))
		}
		if in.Outside(in.Value.Num) {
			return nil, nil
		}
		d.Params = fromRange(kind, in)
	}
	if err := check(d); err != nil {
		return nil, fmt.Errorf("%v; write it like %s, or fixed to hold %s at %s", err, example(kind, in), in.Name, units.Plain(in.Value.Num))
	}
	if err := checkDraws(d); err != nil {
		return nil, fmt.Errorf("%v; write one whose draws stay within it, such as %s, or fixed to hold %s at %s",
			err, example("triangular", in), in.Name, units.Plain(in.Value.Num))
	}
	return d, nil
}

// knownKinds lists the distributions, bare where the input's range gives
// their parameters and with the input's own numbers where it does not, or
// fixed.
func knownKinds(in domain.Input) string {
	var out []string
	for _, kind := range []string{"triangular", "uniform", "pert", "normal", "lognormal"} {
		if in.HasRange && !in.Outside(in.Value.Num) && (kind != "lognormal" || in.Low > 0) {
			out = append(out, kind)
		} else {
			out = append(out, example(kind, in))
		}
	}
	return diag.ListOr(append(out, "fixed to hold "+in.Name+" at "+units.Plain(in.Value.Num)))
}

func parseArgs(args string, n int) ([]float64, error) {
	inner, ok := strings.CutSuffix(strings.TrimSpace(args), ")")
	if !ok {
		return nil, fmt.Errorf("the closing parenthesis is missing")
	}
	fields := strings.Split(inner, ",")
	if len(fields) != n {
		return nil, fmt.Errorf("it takes %d numbers, not %d", n, len(fields))
	}
	out := make([]float64, n)
	for i, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a number", strings.TrimSpace(f))
		}
		out[i] = v
	}
	return out, nil
}

// example is a distribution of kind written out with parameters around the
// input's own value, valid as it stands: what a message can advise.
func example(kind string, in domain.Input) string {
	v := in.Value.Num
	lo, hi := exampleRange(in)
	var params []float64
	switch kind {
	case "uniform":
		params = []float64{lo, hi}
	case "normal":
		params = []float64{v, significant(sigma95(lo, hi))}
	case "lognormal":
		mu := 0.0
		if v > 0 {
			mu = significant(math.Log(v))
		}
		params = []float64{mu, 0.1}
	default:
		params = []float64{lo, v, hi}
	}
	d := domain.Distribution{Kind: kind, Params: params}
	return d.String()
}

// exampleRange is a low and high for advice: the input's range when it
// holds the value, else a tenth either side of the value (a share stays
// within 0..1, a count or price above zero).
func exampleRange(in domain.Input) (lo, hi float64) {
	v := in.Value.Num
	if in.HasRange && !in.Outside(v) && in.Low < in.High {
		return in.Low, in.High
	}
	spread := significant(math.Abs(v) / 10)
	if spread == 0 {
		spread = 1
		if units.ConstraintOf(in.Unit) == units.Fraction {
			spread = 0.1
		}
	}
	// Next to the largest float64, a tenth further is beyond it: the
	// range stops there.
	lo, hi = significant(max(v-spread, -math.MaxFloat64)), significant(min(v+spread, math.MaxFloat64))
	switch units.ConstraintOf(in.Unit) {
	case units.Fraction:
		lo, hi = max(lo, 0), min(hi, 1)
	case units.WholeCount:
		lo, hi = max(math.Floor(lo), 1), math.Max(math.Ceil(hi), math.Floor(lo)+1)
	case units.AboveZero, units.NotNegative:
		lo = max(lo, 0)
	}
	return lo, hi
}

// significant rounds x to three significant digits, for numbers a person
// types.
func significant(x float64) float64 {
	if x == 0 || !finite(x) {
		return x
	}
	scale := math.Pow(10, 2-math.Floor(math.Log10(math.Abs(x))))
	if r := math.Round(x*scale) / scale; finite(r) {
		return r
	}
	return x // next to the largest float64, rounding up would pass it
}

// sigma95 is the standard deviation of a normal whose 5th and 95th
// percentiles are lo and hi, for ends however far apart.
func sigma95(lo, hi float64) float64 {
	if sigma := (hi - lo) / (2 * z95); finite(sigma) {
		return sigma
	}
	return (hi/2 - lo/2) / z95
}

// fromRange takes a bare distribution's parameters from low, value, high.
func fromRange(kind string, in domain.Input) []float64 {
	lo, v, hi := in.Low, in.Value.Num, in.High
	switch kind {
	case "uniform":
		return []float64{lo, hi}
	case "normal":
		return []float64{v, sigma95(lo, hi)}
	case "lognormal":
		if lo <= 0 || hi <= 0 {
			return []float64{math.NaN(), math.NaN()}
		}
		return []float64{(math.Log(lo) + math.Log(hi)) / 2, (math.Log(hi) - math.Log(lo)) / (2 * z95)}
	}
	return []float64{lo, v, hi}
}

// check refuses parameters no distribution can have.
func check(d *domain.Distribution) error {
	p := d.Params
	switch d.Kind {
	case "uniform":
		if !(p[0] < p[1]) {
			return fmt.Errorf("uniform(%g, %g): the low end must be below the high end", p[0], p[1])
		}
	case "triangular", "pert":
		if !(p[0] < p[2]) || p[1] < p[0] || p[1] > p[2] {
			return fmt.Errorf("%s(%g, %g, %g): needs low < high with the most likely value between them", d.Kind, p[0], p[1], p[2])
		}
	case "normal":
		if !(p[1] > 0) {
			return fmt.Errorf("normal(%g, %g): the standard deviation must be above zero", p[0], p[1])
		}
	case "lognormal":
		if math.IsNaN(p[0]) {
			return fmt.Errorf("lognormal over a range needs low and high above zero")
		}
		if !(p[1] > 0) {
			return fmt.Errorf("lognormal(%g, %g): sigma must be above zero", p[0], p[1])
		}
	}
	return nil
}

// farthest is the probability of the least likely draw a run can make:
// the first of a full block's 1,024 strata, at the random grid's first
// point (stream.units), halved to be safe.
const farthest = 0x1p-33 / blockSize / 2

// checkDraws refuses a normal or lognormal whose farthest draws are beyond
// the largest float64: no formula could compute with them.
func checkDraws(d *domain.Distribution) error {
	var quantile func(float64) float64
	switch d.Kind {
	case "normal":
		quantile = distuv.Normal{Mu: d.Params[0], Sigma: d.Params[1]}.Quantile
	case "lognormal":
		quantile = distuv.LogNormal{Mu: d.Params[0], Sigma: d.Params[1]}.Quantile
	default:
		return nil
	}
	if finite(quantile(farthest)) && finite(quantile(1-farthest)) {
		return nil
	}
	return fmt.Errorf("%s draws numbers beyond ±%s, the largest planner computes with", d, units.Plain(math.MaxFloat64))
}

// fill draws len(col) values. A distribution whose quantile function gonum
// gives in closed form is stratified (Latin hypercube sampling, as the
// Excel add-ins do by default): one value from each of n equally likely
// strata, ascending, which the caller shuffles or ranks. Stratifying makes
// the percentiles of a run of n samples markedly more accurate, and an
// ascending sweep through a quantile function runs several times faster
// than random calls. PERT has no closed-form quantile and is drawn at
// random. fill reports whether col came out ascending.
func fill(d *domain.Distribution, col []float64, src *stream) bool {
	if scale := wideScale(d); scale != 1 {
		// A range so wide that its width, or its square, overflows: the
		// same draws scaled down by a power of two, and back up exactly.
		scaled := *d
		scaled.Params = make([]float64, len(d.Params))
		for i, x := range d.Params {
			scaled.Params[i] = x * scale
		}
		ascending := draw(&scaled, col, src)
		lo, hi := d.Params[0], d.Params[len(d.Params)-1]
		for i, x := range col {
			col[i] = max(lo, min(hi, x/scale))
		}
		return ascending
	}
	return draw(d, col, src)
}

// wideScale is 1 for a distribution whose draws can be computed as they
// stand, and for a uniform, triangle or PERT between ends so far apart
// that their width or its square overflows, the power of two that brings
// them close enough. (A normal or lognormal whose draws overflow draws
// beyond the largest float64: ParseDistribution refuses it.)
func wideScale(d *domain.Distribution) float64 {
	if d.Kind != "uniform" && d.Kind != "triangular" && d.Kind != "pert" {
		return 1
	}
	p := d.Params
	if width := p[len(p)-1] - p[0]; finite(width * width) {
		return 1
	}
	return 0x1p-600
}

// draw is fill for a distribution whose draws can be computed as they stand.
func draw(d *domain.Distribution, col []float64, src *stream) bool {
	p := d.Params
	var quantile func(float64) float64
	switch d.Kind {
	case "uniform":
		quantile = distuv.Uniform{Min: p[0], Max: p[1]}.Quantile
	case "triangular":
		// The triangle is most inputs' distribution and the inner loop of
		// sampling: its quantile is inlined rather than called.
		t := newTriangle(p[0], p[1], p[2])
		step := 1 / float64(len(col))
		for i := 0; i < len(col); i += 2 {
			u, v := src.units()
			col[i] = t.quantile((float64(i) + u) * step)
			if i+1 < len(col) {
				col[i+1] = t.quantile((float64(i+1) + v) * step)
			}
		}
		return true
	case "normal":
		quantile = distuv.Normal{Mu: p[0], Sigma: p[1]}.Quantile
	case "lognormal":
		quantile = distuv.LogNormal{Mu: p[0], Sigma: p[1]}.Quantile
	default:
		// PERT: a beta over [a, b] shaped by the mode (λ = 4).
		a, m, b := p[0], p[1], p[2]
		beta := distuv.Beta{Alpha: 1 + 4*(m-a)/(b-a), Beta: 1 + 4*(b-m)/(b-a), Src: src}
		for i := range col {
			col[i] = a + (b-a)*beta.Rand()
		}
		return false
	}
	step := 1 / float64(len(col))
	for i := 0; i < len(col); i += 2 {
		u, v := src.units()
		col[i] = quantile((float64(i) + u) * step)
		if i+1 < len(col) {
			col[i+1] = quantile((float64(i+1) + v) * step)
		}
	}
	return true
}

// triangle is gonum's distuv.Triangle quantile with the parts that do not
// depend on the probability worked out once: the same operations in the
// same order, so the same values to the last bit (TestTriangleIsGonums),
// without a division and a call per draw.
type triangle struct {
	low, high                    float64
	width, leftWidth, rightWidth float64
	peak                         float64 // the probability below the mode
}

func newTriangle(low, mode, high float64) triangle {
	return triangle{low: low, high: high, width: high - low, leftWidth: mode - low, rightWidth: high - mode,
		peak: (mode - low) / (high - low)}
}

func (t *triangle) quantile(p float64) float64 {
	if p < t.peak {
		return t.low + math.Sqrt(p*t.width*t.leftWidth)
	}
	return t.high - math.Sqrt((1-p)*t.width*t.rightWidth)
}
