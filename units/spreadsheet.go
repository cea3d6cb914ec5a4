package units

import (
	"math"
	"strconv"
)

// AsSpreadsheets is x to the 15 significant digits a spreadsheet keeps:
// 3008.4 ÷ 1002.8 is 3.0000000000000004 in binary, and 3 to Excel and
// LibreOffice. Zero and numbers that are not finite stay as they are.
func AsSpreadsheets(x float64) float64 {
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
		return x
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 15, 64), 64)
	if err != nil {
		return x
	}
	return v
}

// CeilAsSpreadsheets rounds x up to a whole number as a spreadsheet's
// ROUNDUP(x,0) does for x above zero: x to 15 significant digits first, so
// that a quotient a rounding error above a whole number is that number.
func CeilAsSpreadsheets(x float64) float64 { return math.Ceil(AsSpreadsheets(x)) }

// FloorAsSpreadsheets rounds x down to a whole number as a spreadsheet's
// INT(x) does: x to 15 significant digits first.
func FloorAsSpreadsheets(x float64) float64 { return math.Floor(AsSpreadsheets(x)) }
