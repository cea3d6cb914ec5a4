package engine

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// sortedPercentile is the type-7 percentile computed the slow, obvious way.
func sortedPercentile(xs []float32, p float64) float64 {
	s := append([]float32(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	h := float64(len(s)-1) * p
	k := int(math.Floor(h))
	v := float64(s[k])
	if k+1 < len(s) {
		v += (h - float64(k)) * (float64(s[k+1]) - v)
	}
	return v
}

// The counting percentiles equal a full sort's on data of every shape:
// smooth, skewed, heavy with ties, tiny, and constant.
func TestPercentilesMatchASort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func(int) float32{
		"uniform":   func(int) float32 { return r.Float32() },
		"skewed":    func(int) float32 { return float32(math.Exp(r.NormFloat64() * 3)) },
		"ties":      func(int) float32 { return float32(r.IntN(5)) },
		"two-point": func(i int) float32 { return float32(i % 2 * 1000) },
		"constant":  func(int) float32 { return 7 },
	}
	for name, gen := range shapes {
		for _, n := range []int{1, 2, 3, 19, 20, 21, 1000, 100_003} {
			xs := make([]float32, n)
			for i := range xs {
				xs[i] = gen(i)
			}
			want := []float64{sortedPercentile(xs, 0.05), sortedPercentile(xs, 0.5), sortedPercentile(xs, 0.95)}
			got := percentiles(append([]float32(nil), xs...), 0.05, 0.5, 0.95)
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("%s, n=%d: percentile %d = %v, sort says %v", name, n, i, got[i], want[i])
				}
			}
		}
	}
}

func TestHistogramCountsEverySample(t *testing.T) {
	xs := []float32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	s := summarise(xs, 0, 10)
	total := 0
	for _, c := range s.Histogram {
		total += c
	}
	if total != len(xs) || s.Histogram[0] != 1 || s.Histogram[histogramBins-1] != 1 {
		t.Errorf("histogram %v", s.Histogram)
	}
}
