package exact

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The histogram of values spread wider than the largest float64 counts
// every value in the bin its edges give it, as a narrow one does.
func TestHistogramOfAWideRange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	xs := make([]float64, 50_000)
	for i := range xs {
		xs[i] = (2*r.Float64() - 1) * 1.5e308
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
		if !slices.Equal(tl.hist[:], want) || want[0] == len(xs) {
			t.Errorf("pilot %d: histogram %v; by the edges %v it should be %v", pilot, tl.hist, edges, want)
		}
		if edges[0] != lo || edges[HistogramBins] != hi || !slices.IsSorted(edges) {
			t.Errorf("pilot %d: edges %v should rise from %v to %v", pilot, edges, lo, hi)
		}
	}
}

// The order statistics of values spread wider than the largest float64 are
// the sorted values' (their bins once overflowed, and planner crashed).
func TestPickOverAWideRange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 10))
	xs := make([]float64, 10_000)
	for i := range xs {
		xs[i] = (2*r.Float64() - 1) * 1.7e308
	}
	ranks := []int{0, 499, 5000, 9499, 9999}
	sorted := slices.Sorted(slices.Values(xs))
	got := Pick(xs, ranks)
	for i, rank := range ranks {
		if got[i] != sorted[rank] {
			t.Errorf("rank %d: %v, sorted %v", rank, got[i], sorted[rank])
		}
	}
}
