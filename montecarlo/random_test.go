package montecarlo

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A stream's index draws what math/rand/v2's Uint64N draws from the same
// stream, also where the rejection loop runs (n just above a power of two,
// near 2⁶⁴), and shuffleScores orders values, and the ranks beside them,
// as rand.Rand's Shuffle does, leaving the stream where Shuffle leaves it.
func TestStreamShufflesAsRandDoes(t *testing.T) {
	for _, n := range []uint64{1, 2, 3, 7, 1000, 1024, 1025, 1<<32 + 1, 1<<63 + 1, 1<<63 + 12345, 3 << 62, 1<<64 - 1} {
		var a, b stream
		a.seed(3, n)
		b.seed(3, n)
		r := rand.New(&b)
		for d := 0; d < 2000; d++ {
			if got, want := a.index(n), r.Uint64N(n); got != want {
				t.Fatalf("index(%d), draw %d: %d, rand's %d", n, d, got, want)
			}
		}
	}
	for _, n := range []int{0, 1, 2, 3, 17, 1000, 1024} {
		var a, b stream
		a.seed(4, uint64(n))
		b.seed(4, uint64(n))
		x, perm, want := make([]float64, n), make([]int32, n), make([]float64, n)
		for i := range x {
			x[i], perm[i], want[i] = float64(i)*1.5, int32(i), float64(i)*1.5
		}
		a.shuffleScores(x, perm)
		rand.New(&b).Shuffle(n, func(i, j int) { want[i], want[j] = want[j], want[i] })
		if !slices.Equal(x, want) {
			t.Errorf("%d values: shuffled otherwise than rand's Shuffle", n)
		}
		for i, p := range perm {
			if x[i] != float64(p)*1.5 {
				t.Fatalf("%d values: rank %d beside value %v", n, p, x[i])
			}
		}
		if a.Uint64() != b.Uint64() {
			t.Errorf("%d values: the stream is left elsewhere than by rand's Shuffle", n)
		}
		a.seed(4, uint64(n))
		y := make([]float64, n)
		for i := range y {
			y[i] = float64(i) * 1.5
		}
		a.shuffleScores(y, nil)
		if !slices.Equal(y, want) {
			t.Errorf("%d values without ranks: shuffled otherwise than rand's Shuffle", n)
		}
	}
}
