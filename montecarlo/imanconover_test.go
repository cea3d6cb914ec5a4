package montecarlo

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"planner/domain"
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
		keys[i] = orderKey(c.t[i*c.k+j], i)
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
