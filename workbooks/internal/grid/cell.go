package grid

import (
	"math"
	"strconv"
	"time"
)

// Cell is one cell: a value (float64, string, time.Time or nil) in a style
// (see the Style keys), and an Excel formula (without =) whose cached value
// the value is.
type Cell struct {
	value   any
	style   string
	formula string
}

// Text is a cell of text.
func Text(s, style string) Cell { return Cell{value: s, style: style} }

// Number is a cell of v rounded to 12 significant digits: far below any
// figure a reader sees, and above the last-bit drift that would make
// identical inputs write different files.
func Number(v float64, style string) Cell {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		// Excel has no such number; excelize would write the text "NaN".
		return Text("no number", StyleError)
	}
	if v == 0 {
		return Cell{value: v, style: style}
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return Cell{value: r, style: style}
}

// Date is a cell holding the day d.
func Date(d time.Time, style string) Cell { return Cell{value: d, style: style} }

// Blank is an empty cell that still shows its style (an input to fill in).
func Blank(style string) Cell { return Cell{style: style} }

// Headers is a header row of names.
func Headers(names ...string) []Cell {
	out := make([]Cell, len(names))
	for i, n := range names {
		out[i] = Text(n, StyleHeader)
	}
	return out
}

// TextValue is the text the cell holds, if it holds text: a header's
// words, say, that a layout sizes its row for.
func (c Cell) TextValue() (string, bool) {
	s, ok := c.value.(string)
	return s, ok
}

// Linked gives a value cell the formula that computes it; "" leaves it a
// value.
func Linked(c Cell, formula string) Cell {
	c.formula = packed(formula)
	return c
}
