package units

import (
	"math"
	"strconv"
)

// Plain writes a number as a person types it, 1000000 rather than 1e+06,
// for messages: no unit, no grouping, every digit the number holds. Very
// small and very large numbers keep Go's shortest form; one that is not
// finite is NoNumber, which nobody could type.
func Plain(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return NoNumber
	}
	if a := math.Abs(v); v != 0 && (a < 1e-4 || a >= 1e15) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
