package grid

import "strings"

// At is the cell at 1-based (col, row): an empty cell where nothing was
// written. Layouts are checked by reading their grids back.
func (g *Grid) At(col, row int) Cell {
	if c := g.at(col, row); c != nil {
		return *c
	}
	return Cell{}
}

// NumberValue is the number a cell holds, if it holds one.
func (c Cell) NumberValue() (float64, bool) {
	v, ok := c.value.(float64)
	return v, ok
}

// Formula is the formula that computes the cell's value; "" for a value.
func (c Cell) Formula() (formula string) {
	if c.formula == "" || c.formula[0] != packedMark {
		return c.formula
	}
	c.withFormula(func(f string) { formula = strings.Clone(f) })
	return formula
}

// Style is the cell's style, with its number format (see WithFormat).
func (c Cell) Style() string { return c.style }
