package exact

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// sortedPercentile is the type-7 percentile computed the slow, obvious way.
func sortedPercentile(xs []float64, p float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	h := float64(len(s)-1) * p
	k := int(math.Floor(h))
	v := s[k]
	if k+1 < len(s) {
		v += (h - float64(k)) * (s[k+1] - v)
	}
	return v
}

// shapes of data percentiles must survive: smooth, skewed, heavy with ties,
// two-valued and constant.
func shapes(r *rand.Rand) map[string]func(int) float64 {
	return map[string]func(int) float64{
		"uniform":   func(int) float64 { return r.Float64() },
		"skewed":    func(int) float64 { return math.Exp(r.NormFloat64() * 3) },
		"ties":      func(int) float64 { return float64(r.IntN(5)) },
		"two-point": func(i int) float64 { return float64(i % 2 * 1000) },
		"constant":  func(int) float64 { return 7 },
	}
}

// pick finds the same order statistics as a sort, on data of every shape.
func TestPickMatchesASort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, gen := range shapes(r) {
		for _, n := range []int{1, 2, 3, 255, 256, 257, 1000, 100_003} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = gen(i)
			}
			sorted := slices.Clone(xs)
			slices.Sort(sorted)
			ranks := []int{0, n - 1, n / 2, r.IntN(n), r.IntN(n), n / 20}
			for i, got := range Pick(xs, ranks) {
				if got != sorted[ranks[i]] {
					t.Errorf("%s, n=%d: rank %d = %v, sort says %v", name, n, ranks[i], got, sorted[ranks[i]])
				}
			}
		}
	}
}

// tallyOf counts xs, in blocks of an odd size spread over three workers,
// through a sieve set from its first pilot values.
func tallyOf(xs []float64, pilot int) (*Tally, Sieve) {
	s := SieveFrom(xs[:pilot], pilot == len(xs), BracketSigmas)
	s.Histogram = true
	s.Base = xs[len(xs)/2]
	workers := []*Tally{{}, {}, {}}
	for i := 0; i < len(xs); i += 777 {
		block := xs[i:min(i+777, len(xs))]
		workers[i/777%3].Add(&s, block, nil, &Scratch{})
	}
	return Merge(workers), s
}

// The percentiles counted through brackets equal a full sort's, whether
// the pilot is the whole run or a part of it, on data of every shape.
func TestTalliedPercentilesMatchASort(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for name, gen := range shapes(r) {
		for _, n := range []int{1, 2, 3, 19, 1000, 100_003} {
			xs := make([]float64, n)
			for i := range xs {
				xs[i] = gen(i)
			}
			for _, pilot := range []int{n, min(n, 16384)} {
				tl, s := tallyOf(xs, pilot)
				if lo, hi := tl.Bounds(&s); lo != slices.Min(xs) || hi != slices.Max(xs) {
					t.Errorf("%s, n=%d, pilot %d: bounds %v..%v, want %v..%v", name, n, pilot, lo, hi, slices.Min(xs), slices.Max(xs))
				}
				r, ok := tl.Ranked()
				got := r.Percentiles()
				if !ok {
					t.Errorf("%s, n=%d, pilot %d: a percentile fell outside the brackets", name, n, pilot)
					continue
				}
				for i, p := range reported {
					if want := sortedPercentile(xs, p); got[i] != want {
						t.Errorf("%s, n=%d, pilot %d: P%v = %v, sort says %v", name, n, pilot, p*100, got[i], want)
					}
				}
				// Where the base value ranks: counted here one by one.
				below, ties := 0, 0
				for _, x := range xs {
					if x < s.Base {
						below++
					} else if x == s.Base {
						ties++
					}
				}
				if want := (float64(below) + float64(ties)/2) / float64(n); tl.BaseRank() != want {
					t.Errorf("%s, n=%d, pilot %d: the base ranks %v, counting says %v", name, n, pilot, tl.BaseRank(), want)
				}
			}
		}
	}
}

// A run that is all pilot is tallied without copying, as add would.
func TestTallyOfAllIsAdds(t *testing.T) {
	xs := []float64{3, -1, 4, 1, -5, 9, 2, 6}
	s := SieveFrom(xs, true, BracketSigmas)
	s.Histogram, s.Base = true, 2
	added := &Tally{}
	added.Add(&s, xs, nil, &Scratch{})
	if whole := tallyOfAll(&s, xs); !reflect.DeepEqual(whole, added) {
		t.Errorf("tallyOfAll %+v; add %+v", whole, added)
	}
}

// A pilot unlike the rest of the run sets brackets that miss, and
// percentiles says so rather than answer wrong.
func TestMissedBracketIsReported(t *testing.T) {
	xs := make([]float64, 100_000)
	for i := range xs {
		xs[i] = float64(i) // ascending: the pilot holds only the smallest values
	}
	// (and every later value lies above the pilot's largest: all are kept as tails)
	tl, _ := tallyOf(xs, 16384)
	if _, ok := tl.Ranked(); ok {
		t.Error("percentiles answered though the pilot saw only the lowest sixth of the values")
	}
}

// Only a few per cent of a million values are kept.
func TestBracketsKeepFewValues(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	xs := make([]float64, 1_000_000)
	for i := range xs {
		xs[i] = r.NormFloat64()
	}
	tl, _ := tallyOf(xs, 16384)
	kept := 0
	for _, k := range tl.kept {
		kept += len(k)
	}
	if kept > 120_000 || kept == 0 {
		t.Errorf("kept %d of a million values; the brackets should keep about 9%%", kept)
	}
}

// The histogram counts every value once, in the bin its edges give it.
func TestHistogramBinsEveryValue(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float64, 50_000)
	for i := range xs {
		xs[i] = math.Exp(r.NormFloat64())
	}
	for _, pilot := range []int{len(xs), 16384} {
		tl, s := tallyOf(xs, pilot)
		lo, hi := minMax(xs)
		edges := s.Edges(lo, hi)
		want := make([]int, HistogramBins)
		for _, x := range xs {
			b := HistogramBins - 1
			for b > 0 && x < edges[b] {
				b--
			}
			want[b]++
		}
		if !slices.Equal(tl.hist[:], want) {
			t.Errorf("pilot %d: histogram %v; by the edges %v it should be %v", pilot, tl.hist, edges, want)
		}
		if edges[0] != lo || edges[HistogramBins] != hi || !slices.IsSorted(edges) {
			t.Errorf("pilot %d: edges %v should rise from %v to %v", pilot, edges, lo, hi)
		}
	}
}

// A bracket open below (-Inf its lower edge, and two values beyond the
// largest float64) still picks the values at the ranks, as sorting them
// does: binning between -Inf and the upper edge would put every value in
// no bin at all.
func TestPickBetweenAnOpenBracket(t *testing.T) {
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = -math.MaxFloat64 / float64(1+(i*7919)%1000)
	}
	xs[3], xs[700] = math.Inf(-1), math.Inf(-1) // beyond the largest float64
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	ranks := []int{0, 50, 500, 950, 999}
	got := pickBetween(xs, math.Inf(-1), sorted[999], ranks)
	for i, r := range ranks {
		if got[i] != sorted[r] {
			t.Errorf("rank %d: %v, want %v", r, got[i], sorted[r])
		}
	}
}
