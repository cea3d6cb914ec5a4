package engine

import (
	"math"
	"sort"
)

// percentiles returns the p-quantiles of xs (type 7, as Excel's
// PERCENTILE.INC: linear between order statistics), for ascending ps. It
// reorders xs and runs in linear time: each quantile is found by selection
// in what lies right of the one before, never by a full sort.
func percentiles(xs []float32, ps ...float64) []float64 {
	out := make([]float64, len(ps))
	n := len(xs)
	if n == 0 {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	from := 0
	for i, p := range ps {
		h := float64(n-1) * p
		lo := int(math.Floor(h))
		if lo >= from {
			selectK(xs[from:], lo-from)
			from = lo
		}
		v := float64(xs[lo])
		if lo+1 < n && h > float64(lo) {
			next := minOf(xs[lo+1:])
			v += (h - float64(lo)) * (float64(next) - v)
		}
		out[i] = v
	}
	return out
}

func minOf(xs []float32) float32 {
	m := xs[0]
	for _, x := range xs[1:] {
		if x < m {
			m = x
		}
	}
	return m
}

// selectK reorders xs so that xs[k] is the value that would be there if xs
// were sorted, with nothing larger before it and nothing smaller after it
// (quickselect with a median-of-three pivot; small or stubborn ranges are
// sorted).
func selectK(xs []float32, k int) {
	lo, hi := 0, len(xs)-1
	for budget := 64; hi-lo > 16; budget-- {
		if budget == 0 {
			break
		}
		p := medianOf3(xs, lo, (lo+hi)/2, hi)
		i, j := lo, hi
		for i <= j {
			for xs[i] < p {
				i++
			}
			for xs[j] > p {
				j--
			}
			if i <= j {
				xs[i], xs[j] = xs[j], xs[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
	part := xs[lo : hi+1]
	sort.Slice(part, func(a, b int) bool { return part[a] < part[b] })
}

func medianOf3(xs []float32, a, b, c int) float32 {
	x, y, z := xs[a], xs[b], xs[c]
	if x > y {
		x, y = y, x
	}
	if y > z {
		y = z
	}
	if x > y {
		return x
	}
	return y
}
