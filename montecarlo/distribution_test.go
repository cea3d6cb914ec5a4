package montecarlo

import (
	"math"
	"math/rand/v2"
	"testing"

	"planner/domain"

	"gonum.org/v1/gonum/stat/distuv"
)

// The inlined triangle must be gonum's to the last bit, so that inlining
// changed no number planner reports.
func TestTriangleIsGonums(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	shapes := [][3]float64{{250000, 285000, 320000}, {0, 0, 0.3}, {1.2, 1.3, 1.4}, {0.25, 0.9, 0.9}, {-5, 1e-9, 3}}
	for _, s := range shapes {
		ours := newTriangle(s[0], s[1], s[2])
		theirs := distuv.NewTriangle(s[0], s[2], s[1], nil)
		probabilities := []float64{0, 0x1p-53, 0.5, 1 - 0x1p-53, 1, ours.peak, math.Nextafter(ours.peak, 0)}
		for i := 0; i < 100000; i++ {
			probabilities = append(probabilities, r.Float64())
		}
		for _, p := range probabilities {
			if got, want := ours.quantile(p), theirs.Quantile(p); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("triangular%v at %v: %v, gonum %v", s, p, got, want)
			}
		}
	}
}

// Stratified draws take one value from each of n equal strata: the i-th
// value's probability lies in [i/n, (i+1)/n), strictly inside (0, 1).
func TestFillStratifies(t *testing.T) {
	d := &domain.Distribution{Kind: "uniform", Params: []float64{0, 1}}
	col := make([]float64, 1000)
	var src stream
	src.seed(1, 1)
	if !fill(d, col, &src) {
		t.Fatal("uniform draws should come out ascending")
	}
	for i, v := range col {
		if lo, hi := float64(i)/1000, float64(i+1)/1000; !(v >= lo && v < hi) || v <= 0 || v >= 1 {
			t.Fatalf("draw %d = %v, outside its stratum [%v, %v)", i, v, lo, hi)
		}
	}
}
