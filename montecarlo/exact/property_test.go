package exact

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The percentiles of 0, 1, ..., 100 are the integers they name.
func TestPercentilesOfTheFirstHundred(t *testing.T) {
	xs := make([]float64, 101)
	for i := range xs {
		xs[i] = float64(100 - i)
	}
	tl, _ := tallyOf(xs, len(xs))
	r, ok := tl.Ranked()
	if got := r.Percentiles(); !ok || got != [3]float64{5, 50, 95} {
		t.Errorf("P5, P50, P95 of 0..100: %v (ok %v), want [5 50 95]", got, ok)
	}
}

// countAll tallies xs in chunks of random sizes over random workers, with
// the samples bad marks left out, under s; it returns the merged tally and
// the sum Add reported.
func countAll(r *rand.Rand, s *Sieve, xs []float64, bad []bool, workers int) (*Tally, float64) {
	tallies := make([]*Tally, workers)
	for i := range tallies {
		tallies[i] = NewTally(s, len(xs)/workers, nil)
	}
	sum, sc := 0.0, &Scratch{}
	for start := 0; start < len(xs); {
		end := min(len(xs), start+1+r.IntN(3000))
		sum += tallies[r.IntN(workers)].Add(s, xs[start:end], bad[start:end], sc)
		start = end
	}
	return Merge(tallies), sum
}

// On random data, random pilots, random failures and random splits over
// workers, a tally's percentiles, bounds, sum, histogram total and base
// rank are those of the good values counted the plain way; where the
// brackets miss, counting again keeping everything finds them exactly.
func TestTallyAgreesWithPlainCounting(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	draws := []func() float64{
		r.NormFloat64,
		func() float64 { return math.Exp(4 * r.NormFloat64()) },
		func() float64 { return float64(r.IntN(3)) },
	}
	for trial := range 60 {
		n := 1 + r.IntN(60_000)
		draw := draws[trial%len(draws)]
		xs, bad := make([]float64, n), make([]bool, n)
		var good []float64
		for i := range xs {
			xs[i], bad[i] = draw(), r.IntN(10) == 0
			if !bad[i] {
				good = append(good, xs[i])
			}
		}
		pilot := good[:min(len(good), 1+r.IntN(20_000))]
		s := SieveFrom(pilot, len(pilot) == len(good), BracketSigmas)
		s.Histogram, s.Base = true, draw()
		tl, sum := countAll(r, &s, xs, bad, 1+r.IntN(4))
		ranks, ok := tl.Ranked()
		if !ok {
			s.KeepEverything()
			tl, sum = countAll(r, &s, xs, bad, 1+r.IntN(4))
			if ranks, ok = tl.Ranked(); !ok {
				t.Fatalf("trial %d: a tally keeping everything missed a percentile", trial)
			}
		}
		checkAgainstPlain(t, trial, tl, &s, ranks, sum, good)
	}
}

// checkAgainstPlain compares what a tally found of good with a sorted
// copy and plain sums.
func checkAgainstPlain(t *testing.T, trial int, tl *Tally, s *Sieve, ranks Ranks, sum float64, good []float64) {
	t.Helper()
	if len(good) == 0 {
		return
	}
	got := ranks.Percentiles()
	for i, p := range reported {
		if want := sortedPercentile(good, p); got[i] != want {
			t.Errorf("trial %d: P%v = %v, a sorted copy says %v", trial, p*100, got[i], want)
		}
	}
	if lo, hi := tl.Bounds(s); lo != slices.Min(good) || hi != slices.Max(good) {
		t.Errorf("trial %d: bounds %v..%v, want %v..%v", trial, lo, hi, slices.Min(good), slices.Max(good))
	}
	plain, below, ties := 0.0, 0, 0
	for _, x := range good {
		plain += x
		if x < s.Base {
			below++
		} else if x == s.Base {
			ties++
		}
	}
	if math.Abs(sum-plain) > 1e-9*math.Abs(plain)+1e-9 {
		t.Errorf("trial %d: sum %v, plain sum %v", trial, sum, plain)
	}
	if want := (float64(below) + float64(ties)/2) / float64(len(good)); tl.BaseRank() != want {
		t.Errorf("trial %d: base ranks %v, counting says %v", trial, tl.BaseRank(), want)
	}
	total := 0
	for _, c := range tl.Histogram() {
		total += c
	}
	if total != len(good) {
		t.Errorf("trial %d: the histogram holds %d values of %d", trial, total, len(good))
	}
}

// NewTally takes its room from the function given, and a tally so made
// counts as one made with make's room.
func TestNewTallyUsesTheRoomGiven(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	xs := make([]float64, 50_000)
	for i := range xs {
		xs[i] = r.NormFloat64()
	}
	s := SieveFrom(xs[:16384], false, BracketSigmas)
	lent := 0
	pooled := NewTally(&s, len(xs), func(size int) []float64 { lent++; return make([]float64, 0, size) })
	plain := NewTally(&s, len(xs), nil)
	pooled.Add(&s, xs, nil, &Scratch{})
	plain.Add(&s, xs, nil, &Scratch{})
	a, okA := pooled.Ranked()
	b, okB := plain.Ranked()
	if lent == 0 || !okA || !okB || a.Percentiles() != b.Percentiles() {
		t.Errorf("lent %d buffers; pooled %v (%v), plain %v (%v)", lent, a.Percentiles(), okA, b.Percentiles(), okB)
	}
}

// Pick finds random ranks of random data as a sorted copy does.
func TestPickAtRandomRanks(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for range 40 {
		xs := make([]float64, 1+r.IntN(20_000))
		for i := range xs {
			xs[i] = math.Round(r.NormFloat64()*1e3) / 10 // with ties
		}
		sorted := slices.Sorted(slices.Values(xs))
		ranks := make([]int, 1+r.IntN(8))
		for i := range ranks {
			ranks[i] = r.IntN(len(xs))
		}
		for i, got := range Pick(xs, ranks) {
			if got != sorted[ranks[i]] {
				t.Errorf("n=%d: rank %d = %v, sorted %v", len(xs), ranks[i], got, sorted[ranks[i]])
			}
		}
	}
}
