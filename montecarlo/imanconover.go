package montecarlo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/montecarlo/exact"
	"planner/units"
)

// correlator induces a target rank correlation between sampled columns by
// the Iman–Conover method: it reorders each column's values, leaving every
// marginal distribution exactly as sampled. Each worker has its own.
type correlator struct {
	target *mat.TriDense // lower Cholesky factor of the target correlation
	base   map[int][]float64
	k      int
	scores [][]float64 // per column: van der Waerden scores, shuffled per block
	t      []float64   // the scores with the target correlation, n × k
	keys   []uint64    // per sample: its correlated score's order, and its index
	buf    []uint64    // the radix sorts' scratch
	sorted []float64
}

// indexBits hold a sample's index within a block in the low bits of its
// sort key.
const indexBits = 10

var _ [1<<indexBits - blockSize]struct{} // a block's indexes fit in indexBits

// orderKey orders float64s as unsigned integers do, their low indexBits
// replaced by index i: scores that differ only there, a relative 2⁻⁴² apart,
// are ordered by index, as ties would be. Plain integers sort several times
// faster than pairs through a comparison function, and by radix (exact.SortKeys)
// in linear time.
func orderKey(score float64, i int) uint64 {
	return exact.FloatKey(math.Float64bits(score))&^(1<<indexBits-1) | uint64(i)
}

// correlated lists the sampled inputs some declared correlation joins, in
// sampled order; only they are rearranged.
func correlated(correlations []domain.Correlation, sampled []string) []int {
	in := map[string]bool{}
	for _, n := range sampled {
		in[n] = true
	}
	joined := map[string]bool{}
	for _, r := range correlations {
		if in[r.A] && in[r.B] {
			joined[r.A], joined[r.B] = true, true
		}
	}
	var out []int
	for i, n := range sampled {
		if joined[n] {
			out = append(out, i)
		}
	}
	return out
}

// correlation builds the target correlation matrix of the named inputs
// from the model's declared correlations; nil when none applies.
func correlation(correlations []domain.Correlation, sampled []string) (*mat.TriDense, error) {
	pos := map[string]int{}
	for i, n := range sampled {
		pos[n] = i
	}
	k := len(sampled)
	if k < 2 || len(correlations) == 0 {
		return nil, nil
	}
	c := mat.NewSymDense(k, nil)
	for i := 0; i < k; i++ {
		c.SetSym(i, i, 1)
	}
	any := false
	for _, r := range correlations {
		i, okA := pos[r.A]
		j, okB := pos[r.B]
		if !okA || !okB {
			continue // an input held fixed in this scenario takes no part
		}
		c.SetSym(i, j, r.Rho)
		any = true
	}
	if !any {
		return nil, nil
	}
	var ch mat.Cholesky
	if !ch.Factorize(c) {
		return nil, fmt.Errorf("the rank correlations in Correlations contradict each other (no set of inputs can have them all at once); weaken some of them")
	}
	var l mat.TriDense
	ch.LTo(&l)
	return &l, nil
}

// Check refuses correlations between unknown inputs, outside -1..1, or
// between an input and itself. A correlation with an input Monte Carlo
// holds at its value takes no part, and a warning says so. Build runs it
// with the engine's own checks.
func Check(p *engine.Plan) (problems, warnings diag.Diagnostics) {
	m := p.Model()
	seen := map[[2]string]diag.Origin{}
	for _, r := range m.Correlations {
		fail := func(msg string) {
			problems = append(problems, &diag.Diagnostic{Origin: r.Origin, Msg: msg})
		}
		for _, name := range []string{r.A, r.B} {
			if _, ok := m.Input(name); !ok {
				fail(fmt.Sprintf("%s is not an input%s", name, p.DidYouMean(name)))
			}
		}
		key := [2]string{min(r.A, r.B), max(r.A, r.B)}
		switch first, dup := seen[key]; {
		case r.A == r.B:
			fail(fmt.Sprintf("%s is correlated with itself", r.A))
		case math.IsNaN(r.Rho) || r.Rho <= -1 || r.Rho >= 1:
			fail(fmt.Sprintf("the rank correlation %g must lie strictly between -1 and 1", r.Rho))
		case dup:
			fail(fmt.Sprintf("%s and %s are correlated twice (also at %s)", r.A, r.B, first.Where()))
		}
		seen[key] = r.Origin
	}
	if len(problems) == 0 {
		if _, err := correlation(m.Correlations, namesOf(uncertain(&m))); err != nil {
			problems = append(problems, &diag.Diagnostic{Origin: m.Correlations[0].Origin, Msg: err.Error()})
		}
	}
	if len(problems) > 0 {
		return problems, nil
	}
	return nil, correlationWarnings(&m)
}

// uncertain are the inputs Monte Carlo can vary: a distribution, and a
// value inside the range.
func uncertain(m *domain.Model) []domain.Input {
	var out []domain.Input
	for _, in := range m.Inputs {
		if in.Dist != nil && !in.Outside(in.Value.Num) && !in.OutsideDistribution(in.Value.Num) {
			out = append(out, in)
		}
	}
	return out
}

// letVary says why a fixed input does not vary and what would let it, for
// a message about correlating it.
func letVary(in domain.Input) string {
	where := "its distribution cell"
	if in.DistAt.Sheet != "" {
		where = in.DistAt.Cell()
	}
	lo, hi := exampleRange(in)
	switch {
	case in.HasRange:
		return fmt.Sprintf("as its distribution says fixed; write triangular in %s to let it vary and correlate it", where)
	case strings.TrimSpace(in.DistText) != "":
		return fmt.Sprintf("as it has no range and its distribution says %s; give it a low and a high in Assumptions (such as %s and %s) and clear %s to let it vary and correlate it",
			strings.TrimSpace(in.DistText), units.Plain(lo), units.Plain(hi), where)
	}
	return fmt.Sprintf("as it has no range; give it a low and a high in Assumptions (such as %s and %s) to let it vary and correlate it", units.Plain(lo), units.Plain(hi))
}

// correlationWarnings say which declared correlations take no part because
// an input is held at its value, and what would let it vary.
func correlationWarnings(m *domain.Model) diag.Diagnostics {
	var out diag.Diagnostics
	for _, r := range m.Correlations {
		for _, name := range []string{r.A, r.B} {
			in, _ := m.Input(name)
			var why string
			switch {
			case in.Value.IsText:
				why = fmt.Sprintf("%s is text, which does not vary; remove this row", name)
			case in.Outside(in.Value.Num) && implausible(m.Currency, in, in.Value.Num) != "":
				why = fmt.Sprintf("%s is held at %s, outside its range %s..%s and the plausible %s; check the value",
					name, units.Plain(in.Value.Num), units.Plain(in.Low), units.Plain(in.High), implausible(m.Currency, in, in.Value.Num))
			case in.Outside(in.Value.Num):
				why = fmt.Sprintf("%s is held at %s, outside its range %s..%s; widen the range in Assumptions to include %s to correlate it",
					name, units.Plain(in.Value.Num), units.Plain(in.Low), units.Plain(in.High), units.Plain(in.Value.Num))
			case in.OutsideDistribution(in.Value.Num):
				why = fmt.Sprintf("%s is held at %s, outside %s; give it a distribution around its value to correlate it", name, units.Plain(in.Value.Num), in.Dist)
			case in.Dist == nil:
				why = fmt.Sprintf("%s is held at %s, %s", name, units.Plain(in.Value.Num), letVary(in))
			default:
				continue
			}
			out = append(out, &diag.Diagnostic{Origin: r.Origin, Msg: fmt.Sprintf("the correlation of %s with %s is skipped: %s", r.A, r.B, why)})
			break
		}
	}
	return out
}

func newCorrelator(target *mat.TriDense, k, size int) *correlator {
	c := &correlator{target: target, k: k, base: map[int][]float64{}, t: make([]float64, size*k), keys: make([]uint64, size), buf: make([]uint64, size), sorted: make([]float64, size)}
	for j := 0; j < k; j++ {
		c.scores = append(c.scores, make([]float64, size))
	}
	return c
}

// apply reorders the first n values of each column so that their ranks
// follow scores correlated as the target, drawing shuffles from src.
// ascending says which columns already hold their values in order.
func (c *correlator) apply(cols [][]float64, ascending []bool, n int, src rand.Source) {
	r := rand.New(src)
	base := c.vanDerWaerden(n)
	for j := range cols {
		s := c.scores[j][:n]
		copy(s, base)
		r.Shuffle(n, func(a, b int) { s[a], s[b] = s[b], s[a] })
	}
	m := c.mixing(n)
	for i := 0; i < n; i++ {
		for j := 0; j < c.k; j++ {
			var v float64
			for l := 0; l < c.k; l++ {
				v += c.scores[l][i] * m.At(l, j)
			}
			c.t[i*c.k+j] = v
		}
	}
	for j, col := range cols {
		c.rearrange(col[:n], j, n, ascending[j])
	}
}

// mixing is (Q⁻¹)ᵀ Pᵀ, where the scores' own correlation is Q Qᵀ and the
// target's P Pᵀ: the scores times it have exactly the target correlation.
func (c *correlator) mixing(n int) *mat.Dense {
	e := mat.NewSymDense(c.k, nil)
	for a := 0; a < c.k; a++ {
		for b := a; b < c.k; b++ {
			e.SetSym(a, b, corr(c.scores[a][:n], c.scores[b][:n]))
		}
	}
	var ch mat.Cholesky
	q := mat.NewTriDense(c.k, mat.Lower, nil)
	if ch.Factorize(e) {
		ch.LTo(q)
	} else {
		for i := 0; i < c.k; i++ {
			q.SetTri(i, i, 1) // degenerate scores: take them as uncorrelated
		}
	}
	var qInv mat.TriDense
	if err := qInv.InverseTri(q); err != nil {
		qInv.Copy(q)
	}
	var m mat.Dense
	m.Mul(qInv.T(), c.target.T())
	return &m
}

// rearrange gives col the ranks of column j of the correlated scores.
func (c *correlator) rearrange(col []float64, j, n int, ascending bool) {
	sorted := c.sorted[:n]
	copy(sorted, col)
	if !ascending {
		exact.SortFloats(sorted, c.keys, c.buf)
	}
	keys := c.keys[:n]
	for i := range keys {
		keys[i] = orderKey(c.t[i*c.k+j], i)
	}
	exact.SortKeys(keys, c.buf, indexBits)
	for rank, key := range keys {
		col[key&(1<<indexBits-1)] = sorted[rank]
	}
}

// corr is Pearson's correlation of two equally long columns.
func corr(a, b []float64) float64 {
	var ma, mb float64
	for i := range a {
		ma += a[i]
		mb += b[i]
	}
	ma /= float64(len(a))
	mb /= float64(len(b))
	var sab, saa, sbb float64
	for i := range a {
		da, db := a[i]-ma, b[i]-mb
		sab += da * db
		saa += da * da
		sbb += db * db
	}
	return sab / math.Sqrt(saa*sbb)
}

// vanDerWaerden are the normal scores Φ⁻¹(i/(n+1)), i = 1..n, computed once
// per block length.
func (c *correlator) vanDerWaerden(n int) []float64 {
	if s, ok := c.base[n]; ok {
		return s
	}
	s := make([]float64, n)
	for i := range s {
		s[i] = distuv.UnitNormal.Quantile(float64(i+1) / float64(n+1))
	}
	c.base[n] = s
	return s
}
