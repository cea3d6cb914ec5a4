package inputsheets

import (
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/units"
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

// tableGrid is an input sheet that is a table of its declared columns and
// nothing more: one item per row, by column key. A column with a unit
// holds numbers, in the unit's format; the others hold text. Each
// column's declared validation covers the rows written and a hundred more,
// for the user's own.
func tableGrid(n schema.Names, s schema.Sheet, rows []map[string]string) *grid.Grid {
	g := newGrid(n, s)
	for i, r := range rows {
		for c, col := range s.Columns {
			if text := r[col.Key]; text != "" {
				g.Set(c+1, i+2, tableCell(col, text))
			}
		}
	}
	last := len(rows) + 1 + 100
	for _, col := range s.Columns {
		if dv := declared(n, s, last, col.Key); dv != nil {
			g.Validate(dv)
		}
	}
	return g
}

// tableCell is a cell of a declared column: a number in its unit's format
// when the column has a unit and the text is one, else the text.
func tableCell(col schema.Column, text string) grid.Cell {
	if v, err := strconv.ParseFloat(text, 64); err == nil && col.Unit != "" {
		return grid.Number(v, grid.WithFormat(grid.StyleInput, units.ExcelFormat(col.Unit)))
	}
	return grid.Text(text, grid.StyleInput)
}

// item is one row of an input sheet being written: each cell goes under
// the column its key declares, so a column moved in the declaration takes
// its data along with its header.
type item struct {
	g   *grid.Grid
	s   schema.Sheet
	row int
}

// set puts c under the column of key.
func (it item) set(key string, c grid.Cell) { it.g.Set(it.s.At(key), it.row, c) }

// note writes text as a note under the column of key.
func (it item) note(key, text string) { it.g.Note(it.s.At(key), it.row, text) }
