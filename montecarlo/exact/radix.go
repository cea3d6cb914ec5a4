package exact

import (
	"math"
	"slices"
)

// Iman–Conover ranks every block of correlated scores, and the values of a
// column drawn out of order. A block holds about a thousand numbers, so a
// least-significant-digit radix sort does it in a few linear passes over
// data that stays in cache, where a comparison sort's n log n compares and
// mispredicted branches would take most of a correlated run.

// A radix digit is a byte: its 256 counters sit in cache beside a block,
// and indexing them by a uint8 needs no bounds check. The 54 bits of a
// score's key above a 10-bit index take seven such digits.

// SortFloats sorts values exactly as slices.Sort does, through their IEEE
// bits, ordered as FloatKey orders them. The two orders differ only where
// slices.Sort calls different bits equal: -0 and +0, and any NaN; values
// with either are handed to slices.Sort. No distribution planner draws
// yields them, but the sort must agree with slices.Sort on any input.
// keys and buf are scratch as long as values.
func SortFloats(values []float64, keys, buf []uint64) {
	keys, buf = keys[:len(values)], buf[:len(values)]
	for i, v := range values {
		b := math.Float64bits(v)
		if v != v || b == 1<<63 {
			slices.Sort(values)
			return
		}
		keys[i] = FloatKey(b)
	}
	SortKeys(keys, buf, 0)
	for i, k := range keys {
		values[i] = math.Float64frombits(fromFloatKey(k))
	}
}

// FloatKey maps a float64's bits to an unsigned integer in the same
// order: a positive number's sign bit set, a negative number's bits all
// flipped, so that a larger magnitude sorts lower.
func FloatKey(b uint64) uint64 {
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

// fromFloatKey undoes FloatKey.
func fromFloatKey(k uint64) uint64 {
	if k>>63 == 1 {
		return k &^ (1 << 63)
	}
	return ^k
}

// SortKeys sorts keys stably by their bits from low up, a byte at a time,
// ping-ponging with buf (scratch as long as keys); a digit all keys share
// is skipped. One read counts every digit. Keys whose low bits already
// stand in order, as a key holding its index there does, come out exactly
// as slices.Sort puts them, without a pass over those bits.
func SortKeys(keys, buf []uint64, low uint) {
	n := len(keys)
	if n < 2 {
		return
	}
	passes := int(64-low+7) / 8
	var counts [8][256]uint32
	for _, k := range keys {
		k >>= low
		for p := range counts[:passes] {
			counts[p][uint8(k>>(8*p))]++
		}
	}
	buf = buf[:n]
	src, dst := keys, buf
	for p := range counts[:passes] {
		shift := low + uint(8*p)
		count := &counts[p]
		if count[uint8(src[0]>>shift)] == uint32(n) {
			continue // every key has this digit: the order stands
		}
		var sum uint32
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, k := range src {
			d := uint8(k >> shift)
			dst[count[d]] = k
			count[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &keys[0] {
		copy(keys, src)
	}
}
