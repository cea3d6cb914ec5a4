package montecarlo

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
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
