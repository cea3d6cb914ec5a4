package montecarlo

import (
	"math"
	"slices"
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
