package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A batch multiplies by the reciprocal of a power of two instead of
// dividing by it: the same bits for every number, subnormal results and
// infinities included; any other divisor is divided by.
func TestExactReciprocalIsDivision(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -3, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64,
		0x1p-1020, math.MaxFloat64, 730, 285000}
	for range 10000 {
		xs = append(xs, math.Float64frombits(r.Uint64()))
	}
	for _, k := range []float64{8, 1, 2, 0.5, 0x1p-1000, 0x1p1000, 1024} {
		rec, ok := exactReciprocal(k)
		if !ok {
			t.Fatalf("%v: no exact reciprocal", k)
		}
		for _, x := range xs {
			if q, p := x/k, x*rec; math.Float64bits(q) != math.Float64bits(p) && !(math.IsNaN(q) && math.IsNaN(p)) {
				t.Errorf("%v / %v = %v, × %v = %v", x, k, q, rec, p)
			}
		}
	}
	for _, k := range []float64{730, 3, 0, -8, 0x1p1023, math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64} {
		if rec, ok := exactReciprocal(k); ok {
			t.Errorf("%v: reciprocal %v taken as exact", k, rec)
		}
	}
}
