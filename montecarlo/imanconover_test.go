package montecarlo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"

	"planner/domain"
	"planner/montecarlo/exact"
)

// Sorting order keys orders the scores: negative, zero and positive, far
// apart and near, with equal scores by index.
func TestOrderKeyOrdersScores(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	scores := []float64{0, math.Copysign(0, -1), 1, -1, 1e-300, -1e-300, 3.5, 3.5, -2.25, -2.25}
	for len(scores) < blockSize {
		scores = append(scores, r.NormFloat64()*math.Pow(10, float64(r.IntN(9)-4)))
	}
	keys := make([]uint64, len(scores))
	for i, s := range scores {
		keys[i] = orderKey(s, i)
	}
	slices.Sort(keys)
	for n := 1; n < len(keys); n++ {
		a, b := int(keys[n-1]&(1<<indexBits-1)), int(keys[n]&(1<<indexBits-1))
		if scores[a] > scores[b] || (scores[a] == scores[b] && math.Signbit(scores[a]) == math.Signbit(scores[b]) && a > b) {
			t.Fatalf("score %v (sample %d) sorted before %v (sample %d)", scores[a], a, scores[b], b)
		}
	}
}

// rearrangeBySlicesSort is rearrange done with slices.Sort: the reference
// the radix sorts must match.
func (c *correlator) rearrangeBySlicesSort(col []float64, j, n int, ascending bool) {
	sorted := slices.Clone(col)
	if !ascending {
		slices.Sort(sorted)
	}
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = orderKey(c.t[j*c.size+i], i)
	}
	slices.Sort(keys)
	for rank, key := range keys {
		col[key&(1<<indexBits-1)] = sorted[rank]
	}
}

// The correlator puts every value where ranking with slices.Sort put it:
// columns in order and out of order, with ties, for two and three
// correlated inputs and a part block.
func TestCorrelatorIsSlicesSorts(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	for _, k := range []int{2, 3} {
		target, err := correlation([]domain.Correlation{{A: "a", B: "b", Rho: 0.5}, {A: "b", B: "c", Rho: -0.3}}, []string{"a", "b", "c"}[:k])
		if err != nil || target == nil {
			t.Fatal(err)
		}
		for _, n := range []int{blockSize, 1000, 2} {
			cols, ascending := make([][]float64, k), make([]bool, k)
			for j := range cols {
				cols[j] = make([]float64, n)
				for i := range cols[j] {
					cols[j][i] = r.NormFloat64()
					if j == 1 {
						cols[j][i] = float64(r.IntN(7)) // ties
					}
				}
				if ascending[j] = j == 0; ascending[j] {
					slices.Sort(cols[j])
				}
			}
			want := make([][]float64, k)
			for j := range cols {
				want[j] = slices.Clone(cols[j])
			}
			var got, ref stream
			got.seed(1, uint64(n))
			ref.seed(1, uint64(n))
			newCorrelator(target, k, blockSize).apply(cols, ascending, n, &got)
			// The reference draws the same scores, then ranks with slices.Sort.
			rc := newCorrelator(target, k, blockSize)
			scratch := make([][]float64, k)
			for j := range scratch {
				scratch[j] = slices.Clone(want[j])
			}
			rc.apply(scratch, ascending, n, &ref)
			for j := range want {
				rc.rearrangeBySlicesSort(want[j], j, n, ascending[j])
				if !slices.Equal(cols[j], want[j]) {
					t.Errorf("%d inputs, %d samples: column %d differs from slices.Sort's ranking", k, n, j)
				}
			}
		}
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

// referenceApply is Iman–Conover as the correlator first did it, step by
// step: the scores shuffled, their correlation pair by pair through corr,
// the mixing matrix read through At, every column's keys sorted by radix.
// The correlator must place every value where it does. It returns the
// correlated scores, t[i*k+j] for sample i of column j.
func referenceApply(target *mat.TriDense, cols [][]float64, ascending []bool, n int, src rand.Source) []float64 {
	k := len(cols)
	r := rand.New(src)
	base := make([]float64, n)
	for i := range base {
		base[i] = distuv.UnitNormal.Quantile(float64(i+1) / float64(n+1))
	}
	scores := make([][]float64, k)
	for j := range cols {
		scores[j] = slices.Clone(base)
		s := scores[j]
		r.Shuffle(n, func(a, b int) { s[a], s[b] = s[b], s[a] })
	}
	e := mat.NewSymDense(k, nil)
	for a := 0; a < k; a++ {
		for b := a; b < k; b++ {
			e.SetSym(a, b, corr(scores[a], scores[b]))
		}
	}
	var ch mat.Cholesky
	q := mat.NewTriDense(k, mat.Lower, nil)
	if ch.Factorize(e) {
		ch.LTo(q)
	} else {
		for i := 0; i < k; i++ {
			q.SetTri(i, i, 1)
		}
	}
	var qInv mat.TriDense
	if err := qInv.InverseTri(q); err != nil {
		qInv.Copy(q)
	}
	var m mat.Dense
	m.Mul(qInv.T(), target.T())
	t := make([]float64, n*k)
	for i := 0; i < n; i++ {
		for j := 0; j < k; j++ {
			var v float64
			for l := 0; l < k; l++ {
				v += scores[l][i] * m.At(l, j)
			}
			t[i*k+j] = v
		}
	}
	keys, buf := make([]uint64, n), make([]uint64, n)
	for j, col := range cols {
		sorted := slices.Clone(col[:n])
		if !ascending[j] {
			exact.SortFloats(sorted, keys, buf)
		}
		for i := range keys {
			keys[i] = orderKey(t[i*k+j], i)
		}
		exact.SortKeys(keys, buf, indexBits)
		for rank, key := range keys {
			col[key&(1<<indexBits-1)] = sorted[rank]
		}
	}
	return t
}

// The correlator places every value where the step-by-step reference
// does, from the same correlated scores to the bit: two to ten correlated inputs, one correlation or every
// pair, strong and weak, positive and negative, columns in order and out
// of order, with ties, full blocks and part blocks down to one sample.
func TestCorrelatorIsTheReference(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	for _, k := range []int{2, 3, 6, 10} {
		for _, pairs := range []string{"one", "chain", "every"} {
			var rel []domain.Correlation
			switch pairs {
			case "one":
				rel = []domain.Correlation{{A: names[k-2], B: names[k-1], Rho: 0.5}}
			case "chain":
				for j := 1; j < k; j++ {
					rel = append(rel, domain.Correlation{A: names[j-1], B: names[j], Rho: []float64{0.5, -0.4, 0.3}[j%3]})
				}
			case "every":
				for a := 0; a < k; a++ {
					for b := a + 1; b < k; b++ {
						rel = append(rel, domain.Correlation{A: names[a], B: names[b], Rho: 0.2 - 0.03*float64((a+b)%3)})
					}
				}
			}
			target, err := correlation(rel, names[:k])
			if err != nil || target == nil {
				t.Fatalf("%d inputs, %s: %v", k, pairs, err)
			}
			c := newCorrelator(target, k, blockSize)
			for _, n := range []int{blockSize, 1000, 17, 3, 2, 1} {
				for block := 0; block < 3; block++ {
					cols, ascending := make([][]float64, k), make([]bool, k)
					for j := range cols {
						cols[j] = make([]float64, n)
						for i := range cols[j] {
							cols[j][i] = r.NormFloat64() * 100
							if j%3 == 1 {
								cols[j][i] = float64(r.IntN(5)) // ties
							}
						}
						if ascending[j] = j%2 == 0; ascending[j] {
							slices.Sort(cols[j])
						}
					}
					want := make([][]float64, k)
					for j := range cols {
						want[j] = slices.Clone(cols[j])
					}
					var got, ref stream
					got.seed(5, uint64(n*3+block))
					ref.seed(5, uint64(n*3+block))
					c.apply(cols, ascending, n, &got)
					scores := referenceApply(target, want, ascending, n, &ref)
					what := fmt.Sprintf("%d inputs, %s, %d samples, block %d", k, pairs, n, block)
					for i := 0; i < n; i++ {
						for j := 0; j < k; j++ {
							if got, want := c.t[j*c.size+i], scores[i*k+j]; math.Float64bits(got) != math.Float64bits(want) {
								t.Fatalf("%s: correlated score %d of column %d is %v, the reference's %v", what, i, j, got, want)
							}
						}
					}
					for j := range want {
						for i := range want[j] {
							if math.Float64bits(cols[j][i]) != math.Float64bits(want[j][i]) {
								t.Fatalf("%s: column %d sample %d is %v, the reference's %v", what, j, i, cols[j][i], want[j][i])
							}
						}
					}
					if got.Uint64() != ref.Uint64() {
						t.Fatalf("%s: the correlator drew other random numbers than the reference", what)
					}
				}
			}
		}
	}
}

// rank orders scores as sorting their keys does, also scores bunched,
// tied, zeros of both signs, or not all finite.
func TestRankIsSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	c := newCorrelator(nil, 1, blockSize)
	// normalBut is a normal score but at sample at, where it is x.
	normalBut := func(at int, x float64) func(int) float64 {
		return func(i int) float64 {
			if i == at {
				return x
			}
			return r.NormFloat64()
		}
	}
	cases := map[string]func(i int) float64{
		"normal":    func(int) float64 { return r.NormFloat64() },
		"bunched":   func(int) float64 { return 1 + r.NormFloat64()*1e-13 },
		"one value": func(int) float64 { return 2.5 },
		"ties":      func(int) float64 { return float64(r.IntN(3)) - 1 },
		"outlier":   normalBut(7, 1e300),
		"zeros":     func(i int) float64 { return math.Copysign(0, float64(i%2)-0.5) },
		"NaN":       normalBut(3, math.NaN()),
		"infinite":  normalBut(9, math.Inf(-1)),
		"huge":      func(i int) float64 { return math.MaxFloat64 * float64(i%3-1) },
	}
	for name, score := range cases {
		for _, n := range []int{blockSize, 5, 1} {
			scores := make([]float64, n)
			for i := range scores {
				scores[i] = score(i)
			}
			want := make([]uint64, n)
			for i, x := range scores {
				want[i] = orderKey(x, i)
			}
			slices.Sort(want)
			got := make([]uint64, n)
			lo, hi := math.Inf(1), math.Inf(-1) // as products finds them, past a NaN
			for _, x := range scores {
				if x < lo {
					lo = x
				}
				if x > hi {
					hi = x
				}
			}
			c.rank(got, scores, lo, hi)
			if !slices.Equal(got, want) {
				t.Errorf("%s, %d scores: rank orders them otherwise than sorting their keys", name, n)
			}
		}
	}
}

// The scores' correlations are corr's to the bit, for pairs summed four
// at a time and one at a time: ten columns, full and part blocks.
func TestScoreCorrelationIsCorrs(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	const k = 10
	c := newCorrelator(nil, k, blockSize)
	for _, n := range []int{blockSize, 1000, 2} {
		for j := range c.scores {
			for i := range c.scores[j][:n] {
				c.scores[j][i] = r.NormFloat64()
			}
		}
		e := c.scoreCorrelation(n)
		for a := 0; a < k; a++ {
			for b := 0; b < k; b++ {
				if got, want := e.At(a, b), corr(c.scores[a][:n], c.scores[b][:n]); math.Float64bits(got) != math.Float64bits(want) {
					t.Errorf("%d scores: correlation of %d with %d is %v, corr says %v", n, a, b, got, want)
				}
			}
		}
	}
}
