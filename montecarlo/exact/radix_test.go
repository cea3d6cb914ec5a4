package exact

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// indexBits hold a key's index in its low bits, as the correlator's keys do.
const indexBits = 10

// orderKey is a correlator's key: score's order, with index i in its low
// bits.
func orderKey(score float64, i int) uint64 {
	return FloatKey(math.Float64bits(score))&^(1<<indexBits-1) | uint64(i)
}

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
	sets["normal"] = random(chunk, r.NormFloat64)
	sets["part block"] = random(1000, r.NormFloat64)
	sets["magnitudes"] = random(chunk, func() float64 { return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20)) })
	// Positive scores share their top digits, which the sorts skip: an
	// odd number of passes is left, whose result must come back.
	sets["in 1..2"] = random(chunk, func() float64 { return 1 + r.Float64() })
	sets["in 0.5..4"] = random(chunk, func() float64 { return 0.5 + 3.5*r.Float64() })
	sets["few values"] = random(chunk, func() float64 { return float64(r.IntN(5) - 2) })
	sets["all equal"] = random(chunk, func() float64 { return -3.75 })
	sets["near ties"] = random(chunk, func() float64 { return math.Nextafter(1, float64(r.IntN(3))) })
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), -math.NaN(), math.SmallestNonzeroFloat64,
		-math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}
	sets["specials"] = random(chunk, func() float64 {
		if r.IntN(2) == 0 {
			return specials[r.IntN(len(specials))]
		}
		return r.NormFloat64()
	})
	ascending := random(chunk, r.NormFloat64)
	slices.Sort(ascending)
	sets["ascending"] = ascending
	sets["descending"] = slices.Clone(ascending)
	slices.Reverse(sets["descending"])
	return sets
}

// SortKeys orders the correlator's keys exactly as slices.Sort does.
func TestSortKeysIsSlicesSort(t *testing.T) {
	for name, scores := range scoreSets() {
		keys := make([]uint64, len(scores))
		for i, s := range scores {
			keys[i] = orderKey(s, i)
		}
		want := slices.Clone(keys)
		slices.Sort(want)
		SortKeys(keys, make([]uint64, len(keys)), indexBits)
		if !slices.Equal(keys, want) {
			t.Errorf("%s: SortKeys differs from slices.Sort", name)
		}
	}
}

// SortFloats sorts values exactly as slices.Sort does, to the bit: with
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
		SortFloats(got, make([]uint64, len(got)), make([]uint64, len(got)))
		if !slices.Equal(bitsOf(got), bitsOf(want)) {
			t.Errorf("%s: SortFloats differs from slices.Sort", name)
		}
	}
	got := []float64{3, -1, 2, -5, 0.5}
	SortFloats(got, make([]uint64, 5), make([]uint64, 5))
	if !slices.Equal(got, []float64{-5, -1, 0.5, 2, 3}) {
		t.Errorf("SortFloats gave %v", got)
	}
}
