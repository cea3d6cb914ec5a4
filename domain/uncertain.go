package domain

import (
	"math"
	"strconv"
	"strings"

	"planner/units"
)

// Outside reports whether v lies outside the input's range: the range no
// longer says how the input varies (Monte Carlo and the tornado hold it).
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
