package montecarlo

import (
	"math/bits"
	"math/rand/v2"
)

// stream is one block's random numbers: SplitMix64 (Steele, Lea and Flood,
// 2014; the generator behind Java's SplittableRandom), started from the
// run's seed and the block's number by math/rand's PCG. Drawing numbers is
// the inner loop of sampling. Each PCG step waits for the one before (a
// chain of 128-bit multiplications), while SplitMix64's state only adds a
// constant and the mixing of successive numbers overlaps; stratified draws
// and shuffles take half the time.
type stream struct{ state uint64 }

// seed starts the stream of block k of a run seeded with seed: the same
// block always draws the same numbers, whichever worker draws it.
func (s *stream) seed(seed, k uint64) {
	s.state = rand.NewPCG(seed, k).Uint64()
}

// Uint64 is the next number; it makes a stream a rand.Source for gonum's
// beta distribution and the correlator's shuffles.
func (s *stream) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// units are two uniform numbers strictly inside (0, 1), on a grid of 2⁻³²,
// from one draw: never the quantile of 0 or 1, which is infinite for a
// normal. Within a block's strata, a 1,024th wide, that grid is 2⁻⁴² fine.
func (s *stream) units() (float64, float64) {
	x := s.Uint64()
	return half(x >> 32), half(x & 0xffffffff)
}

func half(x uint64) float64 {
	return (float64(int64(x)) + 0.5) * 0x1p-32
}

// indexes are two uniform integers, in [0, n) and [0, m), from one draw by
// multiply-shift. For a block's size their bias (under n in 2³²) is far
// below anything a percentile can show.
func (s *stream) indexes(n, m int) (int, int) {
	x := s.Uint64()
	return int((x >> 32) * uint64(n) >> 32), int((x & 0xffffffff) * uint64(m) >> 32)
}

// index is a uniform integer in [0, n), n > 0, drawn as math/rand/v2's
// Rand draws one (a power of two by mask, else Lemire's multiply with
// rejection), so that shuffleScores draws what rand.Rand's Shuffle does,
// without a call through an interface for every number.
func (s *stream) index(n uint64) uint64 {
	if n&(n-1) == 0 {
		return s.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(s.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(s.Uint64(), n)
		}
	}
	return hi
}

// shuffleScores puts x in the order rand.New(s).Shuffle would (Fisher–Yates
// from the top, one draw a swap), and perm, when not nil, in the same order.
func (s *stream) shuffleScores(x []float64, perm []int32) {
	if perm != nil {
		perm = perm[:len(x)]
		for i := len(x) - 1; i > 0; i-- {
			j := s.index(uint64(i + 1))
			x[i], x[j] = x[j], x[i]
			perm[i], perm[j] = perm[j], perm[i]
		}
		return
	}
	for i := len(x) - 1; i > 0; i-- {
		j := s.index(uint64(i + 1))
		x[i], x[j] = x[j], x[i]
	}
}
