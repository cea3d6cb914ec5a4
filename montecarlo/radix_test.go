package montecarlo

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"planner/engine"
)

// scoreSets are scores as the correlator may rank them, at sizes from
// empty to a whole block: random over many magnitudes, ties, signed zeros,
// infinities and NaN (degenerate scores can mix to NaN; a key is an
// integer whatever it holds).
func scoreSets() map[string][]float64 {
	r := rand.New(rand.NewPCG(5, 6))
	sets := map[string][]float64{"empty": nil, "one": {1.5}, "two": {2, -2}, "three equal": {0.25, 0.25, 0.25}}
	random := func(n int, draw func() float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = draw()
		}
		return out
	}
	sets["normal"] = random(blockSize, r.NormFloat64)
	sets["part block"] = random(1000, r.NormFloat64)
	sets["magnitudes"] = random(blockSize, func() float64 { return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)) })
	// Positive scores share their top digits, which the sorts skip: an
	// odd number of passes is left, whose result must come back.
	sets["in 1..2"] = random(blockSize, func() float64 { return 1 + r.Float64() })
	sets["in 0.5..4"] = random(blockSize, func() float64 { return 0.5 + 3.5*r.Float64() })
	sets["few values"] = random(blockSize, func() float64 { return float64(r.IntN(5) - 2) })
	sets["all equal"] = random(blockSize, func() float64 { return -3.75 })
	sets["near ties"] = random(blockSize, func() float64 { return math.Nextafter(1, float64(r.IntN(3))) })
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}
	sets["specials"] = random(blockSize, func() float64 {
		if r.IntN(2) == 0 {
			return specials[r.IntN(len(specials))]
		}
		return r.NormFloat64()
	})
	ascending := random(blockSize, r.NormFloat64)
	slices.Sort(ascending)
	sets["ascending"] = ascending
	sets["descending"] = slices.Clone(ascending)
	slices.Reverse(sets["descending"])
	return sets
}

// sortKeys orders the correlator's keys exactly as slices.Sort does.
func TestSortKeysIsSlicesSort(t *testing.T) {
	for name, scores := range scoreSets() {
		keys := make([]uint64, len(scores))
		for i, s := range scores {
			keys[i] = orderKey(s, i)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		sortKeys(keys, make([]uint64, len(keys)))
		if !slices.Equal(keys, want) {
			t.Errorf("%s: sortKeys differs from slices.Sort", name)
		}
	}
}

// sortFloats sorts values exactly as slices.Sort does, to the bit: with
// signed zeros or NaN among them too, which it leaves to slices.Sort.
func TestSortFloatsIsSlicesSort(t *testing.T) {
	bitsOf := func(xs []float64) []uint64 {
		out := make([]uint64, len(xs))
		for i, x := range xs {
			out[i] = math.Float64bits(x)
		}
		return out
	}
	sets := scoreSets()
	sets["positive zero among negatives"] = []float64{-1, 0, -2, 0, -0.5}
	sets["negative zero alone"] = []float64{1, math.Copysign(0, -1), -1}
	for name, values := range sets {
		got, want := slices.Clone(values), slices.Clone(values)
		slices.Sort(want)
		sortFloats(got, make([]uint64, len(got)), make([]uint64, len(got)))
		if !slices.Equal(bitsOf(got), bitsOf(want)) {
			t.Errorf("%s: sortFloats differs from slices.Sort", name)
		}
	}
	got := []float64{3, -1, 2, -5, 0.5}
	sortFloats(got, make([]uint64, 5), make([]uint64, 5))
	if !slices.Equal(got, []float64{-5, -1, 0.5, 2, 3}) {
		t.Errorf("sortFloats gave %v", got)
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
		target, err := correlation([]engine.Correlation{{A: "a", B: "b", Rho: 0.5}, {A: "b", B: "c", Rho: -0.3}}, []string{"a", "b", "c"}[:k])
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
