package units

import (
	"math"
	"strconv"
)

// Plain writes a number as a person types it, 1000000 rather than 1e+06,
// for messages: no unit, no grouping, every digit the number holds. Very
// small and very large numbers, and those that are not finite, keep Go's
// shortest form.
func Plain(v float64) string {
	if a := math.Abs(v); v != 0 && (a < 1e-4 || a >= 1e15) || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
