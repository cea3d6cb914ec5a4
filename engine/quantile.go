package engine

import (
	"math"
	"sort"
)

// Exact percentiles without a sort. Over a million samples a full sort or
// even quickselect costs more than computing the samples, so percentiles
// are found by counting: one pass bins every value into fineBins equal bins
// between the minimum and maximum, the cumulative counts tell which bin holds
// each wanted order statistic, and a second pass picks out only the values
// of those bins, few enough to sort. The result is exact, and the display
// histogram comes from the same counts.
const fineBins = histogramBins * 200

// summarise computes the statistics of xs, whose smallest and largest
// values are lo and hi: type-7 percentiles (as Excel's PERCENTILE.INC), and
// a histogram of histogramBins bins over [lo, hi].
func summarise(xs []float32, lo, hi float32) Stats {
	s := Stats{Histogram: make([]int, histogramBins), Min: float64(lo), Max: float64(hi)}
	n := len(xs)
	if n == 0 {
		s.Mean, s.P5, s.P50, s.P95, s.Min, s.Max = math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return s
	}
	if lo == hi {
		s.Histogram[histogramBins-1] = n
		s.P5, s.P50, s.P95 = float64(lo), float64(lo), float64(lo)
		return s
	}
	counts := make([]int, fineBins)
	scale := float32(fineBins) / (hi - lo)
	for _, x := range xs {
		counts[binOf(x, lo, scale)]++
	}
	for b, c := range counts {
		s.Histogram[b/(fineBins/histogramBins)] += c
	}
	ranks := map[int]float64{}
	ps := []float64{0.05, 0.5, 0.95}
	for _, p := range ps {
		h := float64(n-1) * p
		k := int(math.Floor(h))
		ranks[k] = 0
		if k+1 < n {
			ranks[k+1] = 0
		}
	}
	orderStatistics(xs, counts, lo, scale, ranks)
	q := make([]float64, len(ps))
	for i, p := range ps {
		h := float64(n-1) * p
		k := int(math.Floor(h))
		v := ranks[k]
		if k+1 < n {
			v += (h - float64(k)) * (ranks[k+1] - v)
		}
		q[i] = v
	}
	s.P5, s.P50, s.P95 = q[0], q[1], q[2]
	return s
}

func binOf(x, lo, scale float32) int {
	return min(int((x-lo)*scale), fineBins-1)
}

// orderStatistics fills ranks (0-based rank -> value) with the values of
// those ranks in xs, using the bin counts.
func orderStatistics(xs []float32, counts []int, lo, scale float32, ranks map[int]float64) {
	keys := make([]int, 0, len(ranks))
	for k := range ranks {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	slot := make([]int8, fineBins) // bin -> 1 + index into picked; 0 when not wanted
	var before []int               // per picked bin: how many values lie in lower bins
	seen, next := 0, 0
	for b, c := range counts {
		for next < len(keys) && keys[next] < seen+c {
			if slot[b] == 0 {
				before = append(before, seen)
				slot[b] = int8(len(before))
			}
			next++
		}
		seen += c
	}
	picked := make([][]float32, len(before))
	for _, x := range xs {
		if i := slot[binOf(x, lo, scale)]; i != 0 {
			picked[i-1] = append(picked[i-1], x)
		}
	}
	for i, vs := range picked {
		sort.Slice(vs, func(a, b int) bool { return vs[a] < vs[b] })
		for _, k := range keys {
			if j := k - before[i]; j >= 0 && j < len(vs) {
				ranks[k] = float64(vs[j])
			}
		}
	}
}

// percentiles returns the p-quantiles of xs (type 7), for ascending ps.
func percentiles(xs []float32, ps ...float64) []float64 {
	lo, hi := bounds(xs)
	s := summarise(xs, lo, hi)
	out := make([]float64, len(ps))
	for i, p := range ps {
		switch p {
		case 0.05:
			out[i] = s.P5
		case 0.5:
			out[i] = s.P50
		case 0.95:
			out[i] = s.P95
		default:
			out[i] = math.NaN()
		}
	}
	return out
}

func bounds(xs []float32) (lo, hi float32) {
	if len(xs) == 0 {
		return 0, 0
	}
	lo, hi = xs[0], xs[0]
	for _, x := range xs {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return lo, hi
}
