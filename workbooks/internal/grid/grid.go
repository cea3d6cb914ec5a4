package grid

import (
	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/ooxml"
)

// Grid is a whole sheet as planner writes it: cells, column widths, frozen
// panes, defined names and data validation. Every sheet planner writes is
// described this way first and streamed out in one pass (see Write), so a
// rewrite replaces the sheet's cells completely and the same grid always
// gives the same bytes.
type Grid struct {
	sheet       string
	owned       bool     // a sheet eval rewrites, whose names planner manages
	rows        [][]Cell // rows[0] is row 1; a nil row stays empty
	widths      []float64
	heights     []float64 // row r's height in points at r-1, for rows of wrapped text; 0 for none
	freezeRows  int       // rows above the scrolling area
	freezeCols  int
	printRow    int // the header row printed atop every page; 0 for none
	heading     string
	headingRows int
	names       []definedName
	validations []*excelize.DataValidation
	charts      []ooxml.Chart // drawn afresh on every run (see ooxml.Build)
	shading     []shading     // conditional formats, replacing the sheet's old ones
	sentences   []textSpan    // text merged across columns and wrapped (see Sentence)
	keep        [][2]int      // rows from..to printed on one page: a table and its chart
	repeat      bool          // each table's header repeated where it continues on a page (see RepeatTableHeaders)
	table       *table        // the table being written, when repeat
	breaks      []int         // rows that start a page, placed as the tables were written
	measure     *measure      // what Fit measured of the rows so far
	held        *held         // the rows WriteForPacking left for WriteRows
	frozen      *frozen       // the same, of a large grid, already XML (see freeze)
}

// definedName points a workbook-scoped name at one cell of the grid.
type definedName struct {
	name string
	col  int
	row  int
}

// New is an empty grid of a sheet of the user's (one eval never
// rewrites), its top rows and left columns frozen (the last frozen row
// printed atop every page), its columns as wide as widths.
func New(sheet string, freezeRows, freezeCols int, widths ...float64) *Grid {
	return &Grid{sheet: sheet, freezeRows: freezeRows, freezeCols: freezeCols, printRow: freezeRows, widths: widths}
}

// NewOwned is an empty grid of a sheet planner owns: eval rewrites it on
// every run, and the names it defines carry NameComment, so a later run
// knows them as planner's and may move them.
func NewOwned(sheet string, freezeRows, freezeCols int, widths ...float64) *Grid {
	g := New(sheet, freezeRows, freezeCols, widths...)
	g.owned = true
	return g
}

// PrintHeader makes row the one printed atop every page; 0 for none.
func (g *Grid) PrintHeader(row int) { g.printRow = row }

// Heading is what the page header says on paper in place of the sheet's
// first rows (its title and provenance) when it prints across pages.
func (g *Grid) Heading(text string, rows int) { g.heading, g.headingRows = text, rows }

// Sheet is the name of the grid's sheet.
func (g *Grid) Sheet() string { return g.sheet }

// Charts are the charts drawn on the grid's sheet.
func (g *Grid) Charts() []ooxml.Chart { return g.charts }

// Names are the workbook-scoped names the grid defines.
func (g *Grid) Names() []string {
	var out []string
	for _, n := range g.names {
		out = append(out, n.name)
	}
	return out
}

// Widths are the grid's column widths, from A.
func (g *Grid) Widths() []float64 { return g.widths }

// Used is the range the grid's cells and merged sentences take, from A1 to
// its last row and its widest row's last column, as a sheet's <dimension>
// gives it: readers that stream a sheet read no further. "" for a grid
// without cells.
func (g *Grid) Used() string {
	if g.frozen != nil {
		return g.frozen.used
	}
	rows, cols := 0, 0
	for i, r := range g.rows {
		for j := len(r); j > 0; j-- {
			if r[j-1].value != nil || r[j-1].style != "" {
				rows, cols = i+1, max(cols, j)
				break
			}
		}
	}
	if rows == 0 {
		return ""
	}
	merges, _ := g.settled()
	for _, m := range merges {
		if col, row, err := excelize.CellNameToCoordinates(m[1]); err == nil {
			rows, cols = max(rows, row), max(cols, col)
		}
	}
	return "A1:" + CellName(cols, rows)
}

// Heights are the heights of the grid's rows that are not the default's.
func (g *Grid) Heights() map[int]float64 {
	if g.frozen != nil {
		return g.frozen.heights
	}
	_, heights := g.settled()
	return heights
}

// at is the cell at 1-based (col, row), or nil.
func (g *Grid) at(col, row int) *Cell {
	if row < 1 || row > len(g.rows) || col < 1 || col > len(g.rows[row-1]) {
		return nil
	}
	return &g.rows[row-1][col-1]
}

// Set puts c at 1-based (col, row), growing the grid as needed.
func (g *Grid) Set(col, row int, c Cell) {
	g.touch(row)
	for len(g.rows) < row {
		g.rows = append(g.rows, nil)
	}
	r := g.rows[row-1]
	if col > cap(r) {
		r = withRoom(r, g.roomFor(col, cap(r)))
	}
	for len(r) < col {
		r = append(r, Cell{})
	}
	r[col-1] = c
	g.rows[row-1] = r
}

// Line writes cells left to right from column 1 of row.
func (g *Grid) Line(row int, cells ...Cell) {
	g.reserve(row, len(cells))
	for i, c := range cells {
		g.Set(i+1, row, c)
	}
}

// reserve makes room in row for cols cells at once: set one by one, a
// row grows by doubling, and a large sheet's rows held half their room
// empty.
func (g *Grid) reserve(row, cols int) {
	if row < 1 || cols == 0 {
		return // a Line of no cells writes no row
	}
	for len(g.rows) < row {
		g.rows = append(g.rows, nil)
	}
	if r := g.rows[row-1]; cap(r) < cols {
		g.rows[row-1] = withRoom(r, cols)
	}
}

// withRoom is r with room for n cells, no more than make rounds it to:
// append and slices.Grow would give half as much again.
func withRoom(r []Cell, n int) []Cell {
	grown := make([]Cell, len(r), n)
	copy(grown, r)
	return grown
}

// roomFor is the room a row of room cells grows to for a cell in column
// col: twice as much, as append grows it, but not past the grid's columns,
// so that a row as wide as the sheet (thousands of offers' columns) holds
// no room it will never use. A row past wideFrom columns of a grid that
// declares more runs across them (a scenario's or an offer's each): it
// takes them all at once, rather than copying itself ten times over.
func (g *Grid) roomFor(col, room int) int {
	want := max(col, 2*room)
	if w := len(g.widths); col <= w {
		if col > wideFrom {
			want = w
		}
		want = min(want, w)
	}
	return want
}

// wideFrom is the most columns a row holds before roomFor takes it for
// one that runs across the grid.
const wideFrom = 64

// LastRow is the last row written so far; 0 for none.
func (g *Grid) LastRow() int { return len(g.rows) }

// Next is the first row after everything written so far.
func (g *Grid) Next() int { return len(g.rows) + 1 }

// Link gives the cell at (col, row) the formula that computes its value,
// which stays as the formula's cached value. An empty cell stays empty,
// and a formula past Excel's limits is left out: the cell stays a value,
// where Excel would call the file damaged.
func (g *Grid) Link(col, row int, formula string) {
	if c := g.at(col, row); c != nil && c.value != nil && withinExcelLimits(formula) {
		c.formula = packed(formula)
		g.touch(row)
	}
}

// Note writes a note at (col, row), wrapped in its column, and makes the
// row tall enough for it, the note cut to what the tallest row shows.
func (g *Grid) Note(col, row int, s string) {
	if col <= len(g.widths) {
		s = Fitted(s, g.widths[col-1])
		g.WrapHeight(row, g.widths[col-1], s)
	}
	g.Set(col, row, Text(s, StyleWrapNote))
}

// Width makes column col at least w wide.
func (g *Grid) Width(col int, w float64) {
	g.touchAll()
	for len(g.widths) < col {
		g.widths = append(g.widths, 10)
	}
	g.widths[col-1] = max(g.widths[col-1], w)
}

// Name points the workbook-scoped name at the cell (col, row).
func (g *Grid) Name(name string, col, row int) {
	g.names = append(g.names, definedName{name: name, col: col, row: row})
}

// Validate adds data validations; a nil one is skipped.
func (g *Grid) Validate(dvs ...*excelize.DataValidation) {
	for _, dv := range dvs {
		if dv != nil {
			g.validations = append(g.validations, dv)
		}
	}
}

// AddChart draws chart with its top left corner at cell (A1).
func (g *Grid) AddChart(cell string, chart *excelize.Chart) {
	g.touchAll()
	g.charts = append(g.charts, ooxml.Chart{Cell: cell, Chart: chart})
}

// KeepTogether asks that rows from..to print on one page where they fit
// on one: a table with its chart, or a title with its header.
func (g *Grid) KeepTogether(from, to int) { g.keep = append(g.keep, [2]int{from, to}) }

// Excel's limits on one formula: 8,192 characters, 64 levels of nested
// functions (counted here as parentheses, which is stricter).
func withinExcelLimits(formula string) bool {
	if len(formula) > 8192 {
		return false
	}
	depth := 0
	for i := range len(formula) { // bytes: no rune of UTF-8 holds a parenthesis's byte
		switch formula[i] {
		case '(':
			if depth++; depth > 64 {
				return false
			}
		case ')':
			depth--
		}
	}
	return true
}
