package sheets

import "planner/workbooks/internal/grid"

// What inputsheets and workbooks used from here before package grid, until
// they use grid directly.

type (
	Grid = grid.Grid
	Cell = grid.Cell
)

const (
	StyleHeader   = grid.StyleHeader
	StyleLabel    = grid.StyleLabel
	StyleWrapNote = grid.StyleWrapNote
	StyleInput    = grid.StyleInput
	NameComment   = grid.NameComment
)

var (
	NewGrid     = grid.New
	Text        = grid.Text
	Number      = grid.Number
	Date        = grid.Date
	Blank       = grid.Blank
	Headers     = grid.Headers
	Linked      = grid.Linked
	WithFormat  = grid.WithFormat
	Absolute    = grid.Absolute
	Quote       = grid.Quote
	NameProblem = grid.NameProblem
	Write       = grid.Write
)
