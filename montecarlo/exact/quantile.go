package exact

import (
	"math"
	"slices"
	"sync"
)

// Exact percentiles of millions of samples, keeping only a few per cent of
// them.
//
// A run first draws a pilot, its first few blocks, and keeps all of their
// values. The pilot's order statistics show where each output's P5,
// P50 and P95 lie, give or take the pilot's sampling error. Around each a
// bracket of values is set, bracketSigmas standard errors to either side:
// wide enough to hold the run's percentile but for odds far below one in a
// million. Every sample then counts into the region of values it falls in
// (below, inside or between the brackets), and only a value inside a
// bracket is kept. After the run the counts say which rank of which
// bracket each wanted order statistic is, and it is picked from the kept
// values. Should a rank fall between brackets, the run is counted again
// keeping every value, so the percentiles are exact either way. The pilot
// also sets the histogram's bins.
const (
	percentileCount = 3 // the reported percentiles, one bracket each
	regions         = 2*percentileCount + 1
	// HistogramBins is how many equal bins a histogram counts values into.
	HistogramBins = 20
	// chunk is the most values count takes at once: a power of two, so
	// that a mask spares its scratch's bounds checks.
	chunk = 1024
)

// BracketSigmas is how many of the pilot's standard errors a bracket
// reaches to either side (a test may pass 0 instead, to force a recount).
const BracketSigmas = 6.0

// reported are the percentiles a tally finds, P5, P50 and P95, as
// probabilities.
var reported = [percentileCount]float64{0.05, 0.5, 0.95}

// Sieve says which of an output's values a run keeps: those inside one of
// its brackets [low, high], ascending and apart; a bracket not needed is
// empty, at +Inf. It also holds the histogram's bins: HistogramBins equal
// bins from binLow, binWidth wide, the first and last reaching out to the
// run's smallest and largest values.
type Sieve struct {
	low, high        [percentileCount]float64
	tailLow          float64                  // values below are kept as candidates for the smallest
	tailHigh         float64                  // values above, for the largest
	pilotLow         float64                  // the pilot's smallest value
	pilotHigh        float64                  // and its largest
	share            [percentileCount]float64 // the pilot's share of values inside each bracket
	Histogram        bool                     // count the values into a histogram (set by the caller)
	binLow, binWidth float64
	binScale         float64 // 1 / (binWidth·binHalve), or 0 when the bins have no width
	// binHalve is 1, or ½ for a range wider than the largest float64,
	// whose bins are found among values halved, which cannot overflow.
	binHalve float64
	Base     float64 // the output's deterministic value: where it ranks is counted (set by the caller)
}

// KeepAll keeps every value, in one bracket, with the histogram's bins
// over lo..hi.
func KeepAll(lo, hi float64) Sieve {
	s := Sieve{tailLow: math.Inf(-1), tailHigh: math.Inf(1), pilotLow: lo, pilotHigh: hi, share: [percentileCount]float64{1}}
	s.KeepEverything()
	s.setBins(lo, hi)
	return s
}

// KeepEverything widens the brackets to keep every value, keeping the bins.
func (s *Sieve) KeepEverything() {
	for j := range s.low {
		s.low[j], s.high[j] = math.Inf(1), math.Inf(1)
	}
	s.low[0] = math.Inf(-1)
}

// Edges are the histogram's bin edges for a run whose values range over
// lo..hi.
func (s *Sieve) Edges(lo, hi float64) []float64 {
	out := make([]float64, HistogramBins+1)
	h := s.binHalve
	for i := range out {
		out[i] = (s.binLow*h + float64(i)*(s.binWidth*h)) / h
	}
	out[0], out[HistogramBins] = lo, hi
	return out
}

func (s *Sieve) setBins(lo, hi float64) {
	s.binHalve = 1
	if math.IsInf(hi-lo, 0) {
		s.binHalve = 0.5
	}
	h := s.binHalve
	s.binLow, s.binWidth, s.binScale = lo, (hi*h-lo*h)/HistogramBins/h, 0
	if s.binWidth > 0 && !math.IsInf(s.binWidth, 0) {
		s.binScale = 1 / (s.binWidth * h)
	}
}

// SieveFrom sets an output's brackets and bins from the pilot's values,
// sigmas of its standard errors to either side of each percentile. When
// the pilot is the whole run, it keeps every value.
func SieveFrom(pilot []float64, wholeRun bool, sigmas float64) Sieve {
	lo, hi := minMax(pilot)
	return SieveBetween(pilot, lo, hi, wholeRun, sigmas)
}

// SieveBetween is SieveFrom of a pilot whose smallest value is lo and
// largest hi.
func SieveBetween(pilot []float64, lo, hi float64, wholeRun bool, sigmas float64) Sieve {
	s := KeepAll(lo, hi)
	m := len(pilot)
	if m == 0 && !wholeRun {
		// Every pilot sample failed: keep every later value, as a tail too.
		s.tailLow, s.tailHigh = math.Inf(1), math.Inf(-1)
	}
	if wholeRun || m == 0 {
		return s
	}
	s.share[0] = 0
	// The run's smallest value is the pilot's or one below it: only those
	// need keeping. The same for the largest.
	s.tailLow, s.tailHigh = lo, hi
	var ranks []int
	var deltas [percentileCount]float64 // per percentile: the bracket's half width, as a probability
	for j, p := range reported {
		deltas[j] = sigmas*math.Sqrt(p*(1-p)/float64(m)) + 2/float64(m)
		ranks = append(ranks, max(0, int(math.Floor(float64(m-1)*(p-deltas[j])))), min(m-1, int(math.Ceil(float64(m-1)*(p+deltas[j])))))
	}
	at := Pick(pilot, ranks)
	n := 0
	for j, p := range reported {
		delta := deltas[j]
		low, high := at[2*j], at[2*j+1]
		if p-delta <= 0 {
			low = math.Inf(-1)
		}
		if p+delta >= 1 {
			high = math.Inf(1)
		}
		if n > 0 && low <= s.high[n-1] {
			s.high[n-1] = max(s.high[n-1], high) // overlaps the one before: merge
			continue
		}
		s.low[n], s.high[n] = low, high
		n++
	}
	for _, x := range pilot {
		for j := range n {
			if x >= s.low[j] && x <= s.high[j] {
				s.share[j]++
			}
		}
	}
	for j := range n {
		s.share[j] /= float64(m)
	}
	for ; n < percentileCount; n++ {
		s.low[n], s.high[n] = math.Inf(1), math.Inf(1)
	}
	return s
}

// NewTally is a tally with room for what it will likely keep of n values,
// taken from room (make's, when room is nil).
func NewTally(s *Sieve, n int, room func(size int) []float64) *Tally {
	t := &Tally{}
	for j, share := range s.share {
		if share > 0 {
			// What a bracket keeps of n values is binomial: a tenth more
			// than its share, and four of its standard deviations, leave it
			// room enough nearly always (it grows, as append grows, when
			// not), and no more, for the thousands of offers' tallies.
			expect := share * float64(n)
			size := int(expect*1.1+4*math.Sqrt(expect)) + 8
			if room == nil {
				t.kept[j] = make([]float64, 0, size)
			} else {
				t.kept[j] = room(size)
			}
		}
	}
	return t
}

// tallyOfAll is the tally of values under a sieve that keeps them all,
// as Add would make it, without copying them.
func tallyOfAll(s *Sieve, values []float64) *Tally {
	t := &Tally{n: len(values), bounded: len(values) > 0, lo: math.Inf(1), hi: math.Inf(-1)}
	t.atOrAbove[0] = len(values)
	t.kept[0] = values
	for _, x := range values {
		t.below += b2i(x < s.Base)
		t.atOrBelow += b2i(x <= s.Base)
		if x < t.lo {
			t.lo = x
		}
		if x > t.hi {
			t.hi = x
		}
	}
	if s.Histogram {
		t.bin(s, values, nil)
	}
	return t
}

// WholeTally is the tally of a run that was all pilot, of an output whose
// values are all the workers' kept ones: first's own tally when it was the
// only worker's (alone) and kept every value in its first bracket, as
// tallyOfAll would make it, else tallyOfAll's. The smallest and largest
// are the sieve's.
func WholeTally(s *Sieve, first *Tally, alone bool, values []float64) *Tally {
	t := first
	if !alone || t.n != len(t.kept[0]) || len(t.kept[1])+len(t.kept[2])+len(t.tails[0])+len(t.tails[1]) > 0 {
		t = tallyOfAll(s, values)
	} else if s.Histogram {
		t.bin(s, values, nil)
	}
	t.bounded, t.lo, t.hi = true, s.pilotLow, s.pilotHigh
	return t
}

// KnownBounds are the smallest and largest of the values kept (Kept), as
// min and max give them, when the tally knows them: not when they were found by plain
// comparisons that put 0 and -0 in the order they came.
func (t *Tally) KnownBounds() (lo, hi float64, ok bool) {
	if !t.bounded || t.n != len(t.kept[0]) || t.lo == 0 || t.hi == 0 {
		return 0, 0, false
	}
	return t.lo, t.hi, true
}

// Tally is one worker's account of one output's values under a sieve.
type Tally struct {
	n         int                        // values counted
	atOrAbove [percentileCount]int       // values at or above each bracket's low end
	kept      [percentileCount][]float64 // the values inside each bracket
	tails     [2][]float64               // the values below the sieve's tailLow, and above its tailHigh
	hist      [HistogramBins]int
	below     int // values below the sieve's base
	atOrBelow int // and at or below it
	// bounded says lo and hi are the smallest and largest of kept[0]
	// (but for the sign of a zero among them: see KnownBounds).
	bounded bool
	lo, hi  float64
}

// BaseRank is where the sieve's base value falls among the values: the
// share below it, ties counted half, as a percentile rank.
func (t *Tally) BaseRank() float64 {
	if t.n == 0 {
		return math.NaN()
	}
	return (float64(t.below) + float64(t.atOrBelow)) / 2 / float64(t.n)
}

// Bounds are the smallest and largest value the tally saw, under sieve s:
// the pilot's, or a value kept beyond them as a tail.
func (t *Tally) Bounds(s *Sieve) (lo, hi float64) {
	if t.n == 0 {
		return math.NaN(), math.NaN()
	}
	lo, _ = minMax(t.tails[0])
	_, hi = minMax(t.tails[1])
	return min(lo, s.pilotLow), max(hi, s.pilotHigh)
}

// regions counts the values per region: even, between brackets (below
// bracket region/2); odd, inside bracket region/2. A value at or above
// bracket j's low end and below the next one's is inside bracket j or in
// the gap after it.
func (t *Tally) regions() [regions]int {
	var r [regions]int
	r[0] = t.n - t.atOrAbove[0]
	for j := range percentileCount {
		next := 0
		if j+1 < percentileCount {
			next = t.atOrAbove[j+1]
		}
		r[2*j+1] = len(t.kept[j])
		r[2*j+2] = t.atOrAbove[j] - next - len(t.kept[j])
	}
	return r
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Kept are the values kept in the first bracket: under a sieve that keeps
// everything (a pilot's), every value counted.
func (t *Tally) Kept() []float64 { return t.kept[0] }

// Histogram is the count of values per bin, under a sieve that asked for
// one.
func (t *Tally) Histogram() []int { return t.hist[:] }

// Scratch is a worker's room for a chunk of one output's values.
type Scratch struct {
	good [chunk]float64 // the values of the samples that did not fail
	kept [chunk]float64 // the values inside a bracket or beyond the pilot's range
}

// Add accounts for the values of col whose samples did not fail (bad is
// nil when none did), and returns their sum.
func (t *Tally) Add(s *Sieve, col []float64, bad []bool, sc *Scratch) (sum float64) {
	if s.Histogram {
		t.bin(s, col, bad)
	}
	for start := 0; start < len(col); start += chunk {
		end := min(start+chunk, len(col))
		var chunkBad []bool
		if bad != nil {
			chunkBad = bad[start:end]
		}
		sum += t.count(s, col[start:end], chunkBad, sc)
	}
	return sum
}

// count is Add for at most a chunk of values. A value's region is found by
// adding up comparisons, not by branching on them: which bracket a value
// passes is as random as the value, and a mispredicted branch costs more
// than the rest of the loop: a value is at or above a bracket's low end,
// and inside it when also no higher than its top. Every value is written to
// the scratch, and the write position moves on only past those to keep,
// which a second, short loop sorts into their lists (g brackets start at
// or below a value; it is inside the g-th or in none).
func (t *Tally) count(s *Sieve, col []float64, bad []bool, sc *Scratch) (sum float64) {
	low0, low1, low2 := s.low[0], s.low[1], s.low[2]
	tops := [percentileCount + 1]float64{math.Inf(-1), s.high[0], s.high[1], s.high[2]}
	if bad != nil {
		good := sc.good[:0]
		for i, x := range col {
			if !bad[i] {
				good = append(good, x)
			}
		}
		col = good
	}
	if s.keepsEverything() {
		if sum, ok := t.keepFinite(s, col); ok {
			return sum
		}
	}
	t.bounded = false
	var above0, above1, above2, kept, below, atOrBelow int
	tailLow, tailHigh, base := s.tailLow, s.tailHigh, s.Base
	high0, high1, high2 := s.high[0], s.high[1], s.high[2]
	for _, x := range col {
		sum += x
		a0, a1, a2 := b2i(x >= low0), b2i(x >= low1), b2i(x >= low2)
		above0, above1, above2 = above0+a0, above1+a1, above2+a2
		below, atOrBelow = below+b2i(x < base), atOrBelow+b2i(x <= base)
		// kept < len(col) <= chunk, a power of two: the mask only
		// spares the bounds checks.
		sc.kept[kept&(chunk-1)] = x
		kept += a0&b2i(x <= high0) | a1&b2i(x <= high1) | a2&b2i(x <= high2) | b2i(x < tailLow) | b2i(x > tailHigh)
	}
	for _, x := range sc.kept[:kept] {
		if g := b2i(x >= low0) + b2i(x >= low1) + b2i(x >= low2); x <= tops[g] {
			t.kept[g-1] = append(t.kept[g-1], x)
		}
		if x < tailLow {
			t.tails[0] = append(t.tails[0], x)
		}
		if x > tailHigh {
			t.tails[1] = append(t.tails[1], x)
		}
	}
	t.n += len(col)
	t.atOrAbove[0] += above0
	t.atOrAbove[1] += above1
	t.atOrAbove[2] += above2
	t.below += below
	t.atOrBelow += atOrBelow
	return sum
}

// keepsEverything says whether the sieve keeps every value in its first
// bracket, as a pilot's does, with no tails.
func (s *Sieve) keepsEverything() bool {
	inf := math.Inf(1)
	return s.low[0] == -inf && s.high[0] == inf && s.low[1] == inf && s.high[1] == inf && s.low[2] == inf && s.high[2] == inf &&
		s.tailLow == -inf && s.tailHigh == inf
}

// keepFinite is count under a sieve that keeps everything, for values that
// are all finite, which all go to the first bracket: their sum and the
// base's counts, then one copy. ok is false, with nothing counted, when a
// value is not finite.
func (t *Tally) keepFinite(s *Sieve, col []float64) (sum float64, ok bool) {
	var below, atOrBelow, finite int
	base := s.Base
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range col {
		sum += x
		below, atOrBelow = below+b2i(x < base), atOrBelow+b2i(x <= base)
		finite += b2i(x-x == 0)
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	if finite < len(col) {
		return 0, false
	}
	switch {
	case len(col) == 0:
	case t.n == 0:
		t.bounded, t.lo, t.hi = true, lo, hi
	case t.bounded:
		t.lo, t.hi = min(t.lo, lo), max(t.hi, hi)
	}
	t.kept[0] = append(t.kept[0], col...)
	t.n += len(col)
	t.atOrAbove[0] += len(col)
	t.below += below
	t.atOrBelow += atOrBelow
	return sum, true
}

// bin counts the values into the histogram.
func (t *Tally) bin(s *Sieve, col []float64, bad []bool) {
	h := s.binHalve
	low := s.binLow * h
	for i, x := range col {
		if bad != nil && bad[i] {
			continue
		}
		bin := (x*h - low) * s.binScale
		if bin > HistogramBins-1 {
			bin = HistogramBins - 1
		}
		t.hist[max(0, int(bin))]++
	}
}

// Merge combines the workers' tallies of one output.
func Merge(tallies []*Tally) *Tally {
	if len(tallies) == 1 {
		return tallies[0]
	}
	out := &Tally{}
	for j := range out.kept {
		size := 0
		for _, t := range tallies {
			size += len(t.kept[j])
		}
		out.kept[j] = make([]float64, 0, size)
	}
	for _, t := range tallies {
		out.n += t.n
		out.below += t.below
		out.atOrBelow += t.atOrBelow
		for j, c := range t.atOrAbove {
			out.atOrAbove[j] += c
		}
		for b, c := range t.hist {
			out.hist[b] += c
		}
		for j, kept := range t.kept {
			out.kept[j] = append(out.kept[j], kept...)
		}
		for j, tail := range t.tails {
			out.tails[j] = append(out.tails[j], tail...)
		}
	}
	return out
}

// Ranks are the values at the two ranks each reported percentile lies
// between, k and k+1 for P = (n-1)p = k + a fraction, of n values.
type Ranks struct {
	n      int
	values [percentileCount][2]float64
}

// Ranked finds the tallied values at the reported percentiles' ranks; ok is
// false when a wanted rank fell between brackets.
func (t *Tally) Ranked() (r Ranks, ok bool) {
	r.n = t.n
	if r.n == 0 {
		return r, true
	}
	wanted := make([][]int, percentileCount) // per bracket: ranks within its kept values
	where := map[int][2]int{}                // rank -> bracket, rank within it
	for _, p := range reported {
		k := int(math.Floor(float64(r.n-1) * p))
		for _, rank := range []int{k, min(k+1, r.n-1)} {
			j, local, inside := t.locate(rank)
			if !inside {
				return r, false
			}
			wanted[j] = append(wanted[j], local)
			where[rank] = [2]int{j, len(wanted[j]) - 1}
		}
	}
	values := make([][]float64, percentileCount)
	for j := range wanted {
		if len(wanted[j]) > 0 {
			if j == 0 && t.bounded {
				values[j] = pickBetween(t.kept[j], t.lo, t.hi, wanted[j])
			} else {
				values[j] = Pick(t.kept[j], wanted[j])
			}
		}
	}
	at := func(rank int) float64 { w := where[rank]; return values[w[0]][w[1]] }
	for i, p := range reported {
		k := int(math.Floor(float64(r.n-1) * p))
		r.values[i] = [2]float64{at(k), at(min(k+1, r.n-1))}
	}
	return r, true
}

// Percentiles are P5, P50 and P95, the type-7 percentiles (as Excel's PERCENTILE.INC).
func (r Ranks) Percentiles() (q [percentileCount]float64) {
	for i, p := range reported {
		if r.n == 0 {
			q[i] = math.NaN()
			continue
		}
		h := float64(r.n-1) * p
		k := int(math.Floor(h))
		q[i] = r.values[i][0]
		if k+1 < r.n {
			q[i] += (h - float64(k)) * (r.values[i][1] - q[i])
		}
	}
	return q
}

// Through puts the ranked values through an increasing function: they stay
// at their ranks.
func (r Ranks) Through(f func(float64) float64) Ranks {
	for i := range r.values {
		r.values[i] = [2]float64{f(r.values[i][0]), f(r.values[i][1])}
	}
	return r
}

// locate finds which bracket holds the value of rank r, and its rank among
// the bracket's values.
func (t *Tally) locate(r int) (bracket, local int, inside bool) {
	seen := 0
	for region, c := range t.regions() {
		if r < seen+c {
			return region / 2, r - seen, region%2 == 1
		}
		seen += c
	}
	return 0, 0, false
}

// Pick returns the values of xs at the given 0-based ranks of its sorted
// order, without sorting it: one pass counts the values into equal bins
// between the smallest and largest, the cumulative counts tell which bins
// hold the wanted ranks, and a second pass gathers only those bins'
// values, few enough to sort.
func Pick(xs []float64, ranks []int) []float64 {
	if len(xs) <= 256 {
		return pickBetween(xs, 0, 0, ranks)
	}
	lo, hi := minMax(xs)
	return pickBetween(xs, lo, hi, ranks)
}

// pickBetween is Pick of values whose smallest is lo and largest hi (read
// only of more than 256 values).
func pickBetween(xs []float64, lo, hi float64, ranks []int) []float64 {
	out := make([]float64, len(ranks))
	if len(xs) <= 256 {
		sorted := slices.Clone(xs)
		slices.Sort(sorted)
		for i, r := range ranks {
			out[i] = sorted[r]
		}
		return out
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		// A bracket open on one side, or values beyond the largest
		// float64, bound nothing to bin between: the finite values'
		// smallest and largest do, and an infinity falls in an end bin.
		lo, hi = finiteMinMax(xs)
	}
	bins := min(4096, len(xs)/16)
	h := 1.0 // values spread wider than the largest float64 are binned halved
	if math.IsInf(hi-lo, 0) {
		h = 0.5
	}
	low := lo * h
	scale := float64(bins) / (hi*h - low)
	if !(scale > 0) || math.IsInf(scale, 0) {
		scale = 0 // no width, or too wide to divide: one bin
	}
	binOf := func(x float64) int {
		v := (x*h - low) * scale
		switch {
		case !(v > 0): // below the first bin's edge only at -Inf
			return 0
		case v >= float64(bins-1):
			return bins - 1
		}
		return int(v)
	}
	// Each value's bin (of at most 4,096) found once: the second pass
	// reads it back.
	sc := picks.Get().(*pickScratch)
	defer picks.Put(sc)
	counts, binned := zeroed(&sc.counts, bins), grown(&sc.binned, len(xs))
	for i, x := range xs {
		b := binOf(x)
		counts[b]++
		binned[i] = uint16(b)
	}
	first := grown(&sc.first, bins+1) // per bin: the rank of its first value
	first[0] = 0
	for b, c := range counts {
		first[b+1] = first[b] + c
	}
	binOfRank := func(r int) int { b, _ := slices.BinarySearch(first, r+1); return b - 1 }
	// Per bin: 1 + where its values start in gathered, or 0 when not wanted.
	slot, room := zeroed(&sc.slot, bins), 0
	for _, r := range ranks {
		if b := binOfRank(r); slot[b] == 0 {
			slot[b] = int32(room + 1)
			room += counts[b]
		}
	}
	gathered, filled := grown(&sc.gathered, room), zeroed(&sc.filled, bins)
	for k, x := range xs {
		if b := binned[k]; slot[b] != 0 {
			gathered[int(slot[b])-1+filled[b]] = x
			filled[b]++
		}
	}
	for b, at := range slot {
		if at != 0 {
			slices.Sort(gathered[at-1 : int(at)-1+counts[b]])
		}
	}
	for i, r := range ranks {
		b := binOfRank(r)
		out[i] = gathered[int(slot[b])-1+r-first[b]]
	}
	return out
}

// pickScratch is pickBetween's room, kept between calls: a run's outputs
// each pick from as many values, and the room of one fits the next.
type pickScratch struct {
	counts, first, filled []int
	binned                []uint16
	slot                  []int32
	gathered              []float64
}

var picks = sync.Pool{New: func() any { return new(pickScratch) }}

// grown is *s resliced to n values, grown if it has less room; what it
// holds is left as it was.
func grown[T any](s *[]T, n int) []T {
	if cap(*s) < n {
		*s = make([]T, n)
	}
	*s = (*s)[:n]
	return *s
}

// zeroed is grown with every value zero.
func zeroed[T any](s *[]T, n int) []T {
	z := grown(s, n)
	clear(z)
	return z
}

// minMax is the smallest and largest of xs, as min and max over them
// give them: a NaN among them makes both NaN, and -0 is below 0. Plain
// comparisons find them faster, and are the same but for a NaN or a zero
// among the bounds, which take the slower way.
func minMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	numbers := 0
	for _, x := range xs {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
		numbers += b2i(x == x)
	}
	if numbers == len(xs) && lo != 0 && hi != 0 {
		return lo, hi
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// finiteMinMax is the smallest and largest finite value of xs; 0 and 0
// when none is finite.
func finiteMinMax(xs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		if !math.IsInf(x, 0) && x == x {
			lo, hi = min(lo, x), max(hi, x)
		}
	}
	if lo > hi {
		return 0, 0
	}
	return lo, hi
}
