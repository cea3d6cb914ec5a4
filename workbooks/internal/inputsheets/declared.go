package inputsheets

import (
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/schema"
)

// newGrid is an input sheet as its declaration lays it out: named as n
// says, its columns' widths (then more, for what stands right of the
// table), the header row written and kept in view with the declared
// columns.
func newGrid(n schema.Names, s schema.Sheet, more ...float64) *grid.Grid {
	g := grid.New(n.Of(s.Name), 1, s.Frozen, append(s.Widths(), more...)...)
	g.Line(1, grid.Headers(s.Headers()...)...)
	return g
}

// declared is the validation the declaration gives the columns of keys
// (the first one's: its unit, else its pick list), one rule over their
// cells from row 2 to row last; nil when it gives none.
func declared(n schema.Names, s schema.Sheet, last int, keys ...string) *excelize.DataValidation {
	var cells []string
	for _, k := range keys {
		cells = append(cells, s.Cells(k, 2, last))
	}
	sqref := strings.Join(cells, " ")
	switch c := s.Column(keys[0]); {
	case c.Unit != "":
		return validation(c.Header, c.Unit, sqref)
	case c.Pick != "":
		return pick(n, c.Pick, sqref)
	}
	return nil
}
