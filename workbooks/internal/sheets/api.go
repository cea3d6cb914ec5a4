package sheets

import (
	"time"

	"github.com/xuri/excelize/v2"
)

// The grid as the input sheets' package lays it out (see inputsheets):
// the same cells, styles and names as planner's own sheets, so that every
// sheet planner writes is written one way (Write).

// Cell is one cell of a grid: a value in a style, perhaps with a formula.
type Cell = cell

// Styles of the input sheets' cells.
const (
	StyleHeader   = styleHeader
	StyleLabel    = styleLabel
	StyleWrapNote = styleWrapNote
	StyleInput    = styleInput
)

// NewGrid is an empty grid of the user's sheet (one eval never rewrites),
// its top rows and left columns frozen (the last frozen row printed atop
// every page), its columns as wide as widths.
func NewGrid(sheet string, freezeRows, freezeCols int, widths ...float64) *Grid {
	return &Grid{sheet: sheet, freezeRows: freezeRows, freezeCols: freezeCols, printRow: freezeRows, widths: widths}
}

// Line writes cells left to right from column 1 of row.
func (g *Grid) Line(row int, cells ...Cell) { g.line(row, cells...) }

// Set puts c at 1-based (col, row).
func (g *Grid) Set(col, row int, c Cell) { g.set(col, row, c) }

// WrapHeight makes row tall enough for texts wrapped in a column of width.
func (g *Grid) WrapHeight(row int, width float64, texts ...string) {
	g.wrapHeight(row, width, texts...)
}

// Width makes column col at least w wide.
func (g *Grid) Width(col int, w float64) { g.width(col, w) }

// Note writes a note at (col, row), wrapped in its column, the row tall
// enough for it.
func (g *Grid) Note(col, row int, s string) { g.note(col, row, s) }

// Name points the workbook-scoped name at the cell (col, row).
func (g *Grid) Name(name string, col, row int) { g.name(name, col, row) }

// Validate adds data validations; a nil one is skipped.
func (g *Grid) Validate(dvs ...*excelize.DataValidation) {
	for _, dv := range dvs {
		if dv != nil {
			g.validations = append(g.validations, dv)
		}
	}
}

// Text, Number, Date and Blank make cells; Headers a header row.
func Text(s, style string) Cell              { return text(s, style) }
func Number(v float64, style string) Cell    { return number(v, style) }
func Date(d time.Time, style string) Cell    { return cell{value: d, style: style} }
func Blank(style string) Cell                { return cell{style: style} }
func Headers(names ...string) []Cell         { return headers(names...) }
func Linked(c Cell, formula string) Cell     { return linked(c, formula) }
func WithFormat(style, format string) string { return withFormat(style, format) }

// Absolute is the reference a defined name uses: 'Sheet name'!$C$5.
func Absolute(sheet string, col, row int) string { return absolute(sheet, col, row) }
