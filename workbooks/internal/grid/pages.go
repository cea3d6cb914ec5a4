package grid

import (
	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/pagesetup"
)

// pages is how the grid's sheet prints (see pagesetup): its columns, rows
// and charts, the header row it repeats on every page, the columns it keeps
// at the left of every page as it keeps them on screen (at least the
// first, which names each row), and the blocks of rows (a table with its
// chart) no page end should cut.
func (g *Grid) pages() pagesetup.Sheet {
	s := g.extent()
	s.Name, s.Ref, s.HeaderRow, s.KeepCols, s.Keep = g.sheet, Quote(g.sheet), g.printRow, max(1, g.freezeCols), g.keep
	s.Breaks, s.Heading, s.HeadingRows = g.breaks, g.heading, g.headingRows
	last := len(g.rows)
	for _, k := range g.keep {
		last = max(last, k[1])
	}
	_, heights := g.settled()
	for r := 1; r <= last; r++ {
		h, ok := heights[r]
		if !ok {
			h = 15
		}
		s.Rows = append(s.Rows, h)
	}
	return s
}

// FitsPageWidth says whether a sheet of columns as wide as widths prints
// one page wide (see pagesetup.Decide).
func FitsPageWidth(widths []float64) bool {
	return pagesetup.Decide(pagesetup.Sheet{Widths: widths}).Fit
}

// extent is how wide the grid's sheet is: its columns and its charts.
func (g *Grid) extent() pagesetup.Sheet {
	s := pagesetup.Sheet{Widths: g.widths}
	for _, c := range g.charts {
		col, _, _ := excelize.CellNameToCoordinates(c.Cell)
		s.Charts = append(s.Charts, pagesetup.Chart{Col: col, Width: float64(c.Chart.Dimension.Width)})
	}
	return s
}
