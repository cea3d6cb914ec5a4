package montecarlo

import (
	"fmt"
	"math"
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
	target  *mat.TriDense // lower Cholesky factor of the target correlation
	base    map[int][]float64
	k, size int
	scores  [][]float64   // per column: van der Waerden scores, shuffled per block
	first   []int32       // per sample: the rank of the first column's score
	dev     [][]float64   // per column: its scores less their mean
	sq      []float64     // per column: the sum of its squared deviations
	e       *mat.SymDense // the scores' correlation
	ch      mat.Cholesky
	q, qInv *mat.TriDense
	mix     *mat.Dense
	m       []float64 // the mixing matrix, k × k by rows
	t       []float64 // the scores with the target correlation, column j from j*size
	lo, hi  []float64 // per column of t: its least and greatest
	keys    []uint64  // per sample: its correlated score's order, and its index
	buf     []uint64  // the sorts' scratch
	counts  []uint32  // per bucket of rank: its scores, then where they go
	bucket  []uint16  // per score: its bucket
	sorted  []float64
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
	c := &correlator{target: target, k: k, size: size, base: map[int][]float64{}, first: make([]int32, size),
		sq: make([]float64, k), m: make([]float64, k*k), lo: make([]float64, k), hi: make([]float64, k),
		e: mat.NewSymDense(k, nil), q: mat.NewTriDense(k, mat.Lower, nil), qInv: mat.NewTriDense(k, mat.Lower, nil), mix: mat.NewDense(k, k, nil), t: make([]float64, size*k),
		keys: make([]uint64, size), buf: make([]uint64, size), counts: make([]uint32, size), bucket: make([]uint16, size), sorted: make([]float64, size)}
	for j := 0; j < k; j++ {
		c.scores = append(c.scores, make([]float64, size))
		c.dev = append(c.dev, make([]float64, size))
	}
	return c
}

// apply reorders the first n values of each column so that their ranks
// follow scores correlated as the target, drawing shuffles from src.
// ascending says which columns already hold their values in order.
func (c *correlator) apply(cols [][]float64, ascending []bool, n int, src *stream) {
	base := c.vanDerWaerden(n)
	first := c.first[:n]
	for i := range first {
		first[i] = int32(i)
	}
	for j := range cols {
		s := c.scores[j][:n]
		copy(s, base)
		if j == 0 {
			src.shuffleScores(s, first) // the first column's ranks with it
		} else {
			src.shuffleScores(s, nil)
		}
	}
	c.mixing(n)
	c.products(n)
	for j, col := range cols {
		c.rearrange(col[:n], j, n, ascending[j])
	}
}

// products sets t to the scores times the mixing matrix, each sum taken
// over the scores' columns in order, and lo and hi to each column's least
// and greatest, from the last product's pass. A zero of the matrix (every
// entry below its diagonal) adds nothing: the scores are finite, so its product
// is a zero, and a sum that starts at +0 is never -0, so adding a zero
// leaves it as it was to the bit.
func (c *correlator) products(n int) {
	for j := 0; j < c.k; j++ {
		t := c.t[j*c.size:][:n]
		clear(t)
		last := -1
		for l := 0; l < c.k; l++ {
			if c.m[l*c.k+j] != 0 {
				last = l
			}
		}
		for l := 0; l < last; l++ {
			if x := c.m[l*c.k+j]; x != 0 {
				for i, s := range c.scores[l][:n] {
					t[i] += s * x
				}
			}
		}
		lo, hi := 0.0, 0.0 // a column of zeros
		if last >= 0 {
			x := c.m[last*c.k+j]
			lo, hi = math.Inf(1), math.Inf(-1)
			for i, s := range c.scores[last][:n] {
				v := t[i] + s*x
				t[i] = v
				if v < lo {
					lo = v
				}
				if v > hi {
					hi = v
				}
			}
		}
		c.lo[j], c.hi[j] = lo, hi
	}
}

// mixing sets m to (Q⁻¹)ᵀ Pᵀ, where the scores' own correlation is Q Qᵀ
// and the target's P Pᵀ: the scores times it have exactly the target
// correlation. The matrices are the correlator's, reused block to block.
func (c *correlator) mixing(n int) {
	e := c.scoreCorrelation(n)
	if c.ch.Factorize(e) {
		c.ch.LTo(c.q)
	} else {
		c.q.Zero()
		for i := 0; i < c.k; i++ {
			c.q.SetTri(i, i, 1) // degenerate scores: take them as uncorrelated
		}
	}
	if err := c.qInv.InverseTri(c.q); err != nil {
		c.qInv.Copy(c.q)
	}
	c.mix.Mul(c.qInv.T(), c.target.T())
	for l := 0; l < c.k; l++ {
		for j := 0; j < c.k; j++ {
			c.m[l*c.k+j] = c.mix.At(l, j)
		}
	}
}

// scoreCorrelation is Pearson's correlation of every two columns of
// scores, each as corr computes it: a column's mean and its deviations'
// squares are summed once for all its pairs, and four pairs' products are
// summed side by side, each in sample order, so that no sum waits on
// another.
func (c *correlator) scoreCorrelation(n int) *mat.SymDense {
	for a := 0; a < c.k; a++ {
		s, d := c.scores[a][:n], c.dev[a][:n]
		var mean float64
		for _, x := range s {
			mean += x
		}
		mean /= float64(n)
		var sq float64
		for i, x := range s {
			d[i] = x - mean
			sq += d[i] * d[i]
		}
		c.sq[a] = sq
	}
	e := c.e
	for a := 0; a < c.k; a++ {
		e.SetSym(a, a, c.sq[a]/math.Sqrt(c.sq[a]*c.sq[a]))
		da := c.dev[a][:n]
		b := a + 1
		for ; b+4 <= c.k; b += 4 {
			s0, s1, s2, s3 := dot4(da, c.dev[b][:n], c.dev[b+1][:n], c.dev[b+2][:n], c.dev[b+3][:n])
			for i, s := range [4]float64{s0, s1, s2, s3} {
				e.SetSym(a, b+i, s/math.Sqrt(c.sq[a]*c.sq[b+i]))
			}
		}
		for ; b < c.k; b++ {
			e.SetSym(a, b, dot(da, c.dev[b][:n])/math.Sqrt(c.sq[a]*c.sq[b]))
		}
	}
	return e
}

// dot is the sum of x[i]·y[i], in order.
func dot(x, y []float64) (s float64) {
	y = y[:len(x)]
	for i, v := range x {
		s += v * y[i]
	}
	return s
}

// dot4 is dot of x with each of four columns, the four sums side by side.
func dot4(x, y0, y1, y2, y3 []float64) (s0, s1, s2, s3 float64) {
	y0, y1, y2, y3 = y0[:len(x)], y1[:len(x)], y2[:len(x)], y3[:len(x)]
	for i, v := range x {
		s0 += v * y0[i]
		s1 += v * y1[i]
		s2 += v * y2[i]
		s3 += v * y3[i]
	}
	return s0, s1, s2, s3
}

// rearrange gives col the ranks of column j of the correlated scores.
func (c *correlator) rearrange(col []float64, j, n int, ascending bool) {
	sorted := c.sorted[:n]
	copy(sorted, col)
	if !ascending {
		exact.SortFloats(sorted, c.keys, c.buf)
	}
	keys := c.keys[:n]
	t := c.t[j*c.size:][:n]
	if j > 0 || !c.placeFirst(keys, t) {
		c.rank(keys, t, c.lo[j], c.hi[j])
	}
	for rank, key := range keys {
		col[key&(1<<indexBits-1)] = sorted[rank]
	}
}

// placeFirst puts the first column's keys in order when its correlated
// scores are its scores times one number, as they are while the mixing
// matrix's first column is zero below its top (the matrix is upper
// triangular, a product of two): each key goes to the rank its score was
// shuffled from. It reports whether they came out in order, which they do
// unless that number has made two scores' keys swap or tie.
func (c *correlator) placeFirst(keys []uint64, t []float64) bool {
	for l := 1; l < c.k; l++ {
		if c.m[l*c.k] != 0 {
			return false
		}
	}
	first := c.first[:len(keys)]
	for i, x := range t {
		keys[first[i]] = orderKey(x, i)
	}
	for r := 1; r < len(keys); r++ {
		if keys[r-1] >= keys[r] {
			return false
		}
	}
	return true
}

// rank sets keys to the order keys of the scores t, sorted. Every key
// differs from every other in its index, so any sort of them gives the one
// order exact.SortKeys gives. The scores go to buckets by value, as many
// as there are scores, in one pass, and an insertion sort then orders each
// bucket's few (and any key a bucket misplaces: a NaN, or scores that
// differ only in their keys' index bits); scores too bunched for that to
// stay linear, or not all finite, are sorted by radix. lo and hi are the
// least and greatest of the scores (a NaN aside).
func (c *correlator) rank(keys []uint64, t []float64, lo, hi float64) {
	n := len(keys)
	width := hi - lo
	scale := float64(n) / width
	if !(width > 0) || !finite(width) || !finite(scale) {
		c.sortKeys(keys, t)
		return
	}
	counts, bucket := c.counts[:n], c.bucket[:n]
	clear(counts)
	last := uint(n - 1)
	for i, x := range t {
		b := min(uint(int((x-lo)*scale)), last) // a NaN's to some bucket
		bucket[i] = uint16(b)
		counts[b]++
	}
	var sum uint32
	for b, k := range counts {
		counts[b] = sum
		sum += k
	}
	for i, x := range t {
		b := bucket[i]
		keys[counts[b]] = orderKey(x, i)
		counts[b]++
	}
	moves := 0
	for i := 1; i < n; i++ {
		k, j := keys[i], i
		for ; j > 0 && keys[j-1] > k; j-- {
			keys[j] = keys[j-1]
		}
		keys[j] = k
		if moves += i - j; moves > 4*n {
			c.sortKeys(keys, t)
			return
		}
	}
}

// sortKeys sets keys to the order keys of the scores t, sorted by radix.
func (c *correlator) sortKeys(keys []uint64, t []float64) {
	for i, x := range t {
		keys[i] = orderKey(x, i)
	}
	exact.SortKeys(keys, c.buf, indexBits)
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
