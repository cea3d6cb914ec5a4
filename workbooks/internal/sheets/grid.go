package sheets

import (
	_ "embed"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/pagesetup"
)

// Grid is a whole sheet as planner writes it: cells, column widths, frozen
// panes, defined names and data validation. Every sheet planner writes is
// described this way first and streamed out in one pass (see Write), so a
// rewrite replaces the sheet's cells completely and the same grid always
// gives the same bytes.
type Grid struct {
	sheet       string
	owned       bool     // a sheet eval rewrites, whose names planner manages
	rows        [][]cell // rows[0] is row 1; a nil row stays empty
	widths      []float64
	heights     map[int]float64 // row -> height in points, for rows of wrapped text
	freezeRows  int             // rows above the scrolling area
	freezeCols  int
	printRow    int // the header row printed atop every page; 0 for none
	names       []definedName
	validations []*excelize.DataValidation
	charts      []ooxml.Chart // drawn afresh on every run (see ooxml.Build)
	shading     []shading     // conditional formats, replacing the sheet's old ones
	sentences   []textSpan    // text merged across columns and wrapped (see sentence)
	keep        [][2]int      // rows from..to printed on one page: a table and its chart
}

// cell is one cell: a value (float64, string or nil) in a style, and an
// Excel formula (without =) whose cached value the value is.
type cell struct {
	value   any
	style   string
	formula string
}

// definedName points a workbook-scoped name at one cell of the grid.
type definedName struct {
	name string
	col  int
	row  int
}

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

// at is the cell at 1-based (col, row), or nil.
func (g *Grid) at(col, row int) *cell {
	if row < 1 || row > len(g.rows) || col < 1 || col > len(g.rows[row-1]) {
		return nil
	}
	return &g.rows[row-1][col-1]
}

// set puts c at 1-based (col, row), growing the grid as needed.
func (g *Grid) set(col, row int, c cell) {
	for len(g.rows) < row {
		g.rows = append(g.rows, nil)
	}
	r := g.rows[row-1]
	for len(r) < col {
		r = append(r, cell{})
	}
	r[col-1] = c
	g.rows[row-1] = r
}

// line writes cells left to right from column 1 of row.
func (g *Grid) line(row int, cells ...cell) {
	for i, c := range cells {
		g.set(i+1, row, c)
	}
}

// next is the first row after everything written so far.
func (g *Grid) next() int { return len(g.rows) + 1 }

// wrapHeight makes row tall enough for texts wrapped in columns of the
// given width (Excel and LibreOffice do not grow a row a program wrote).
func (g *Grid) wrapHeight(row int, width float64, texts ...string) {
	lines := 1
	for _, t := range texts {
		lines = max(lines, wrappedLines(t, width))
	}
	if lines > 1 {
		if g.heights == nil {
			g.heights = map[int]float64{}
		}
		g.heights[row] = max(g.heights[row], 15*float64(lines))
	}
}

// wrappedLines is how many lines text takes wrapped at spaces in a column
// of width: a width counts digits, and text runs about a tenth narrower.
func wrappedLines(text string, width float64) int {
	room := max(1, int((width-1)*1.1))
	lines, used := 1, 0
	for _, w := range strings.Fields(text) {
		n := utf8.RuneCountInString(w)
		switch {
		case used == 0:
			used = n
		case used+1+n <= room:
			used += 1 + n
		default:
			lines++
			used = n
		}
		for used > room { // a word longer than the column breaks across lines
			lines++
			used -= room
		}
	}
	return lines
}

// sentence writes a line of text from (col, row) across the columns to
// last (0: the last the sheet's first printed page holds), merged and
// wrapped there, the row tall enough for it: a verdict in words or a
// warning reads whole on screen and on paper, where text running past the
// table would be cut off at the page's edge. The cells it covers stay
// empty.
func (g *Grid) sentence(col, row, last int, s, style string) {
	g.set(col, row, text(s, wrapped(style)))
	g.sentences = append(g.sentences, textSpan{col: col, row: row, last: last})
}

// textSpan is where a sentence runs: row, from col to last.
type textSpan struct{ col, row, last int }

// settled are the grid's merged ranges and row heights, its sentences
// placed across the columns the grid has once it is complete.
func (g *Grid) settled() (merges [][2]string, heights map[int]float64) {
	heights = map[int]float64{}
	for r, h := range g.heights {
		heights[r] = h
	}
	for _, sp := range g.sentences {
		last := sp.last
		if last == 0 {
			last = max(sp.col, pagesetup.FirstPage(g.extent()))
		}
		width := 0.0
		for c := sp.col; c <= last; c++ {
			width += defaultWidth
			if c <= len(g.widths) {
				width += g.widths[c-1] - defaultWidth
			}
		}
		if last > sp.col {
			merges = append(merges, [2]string{cellName(sp.col, sp.row), cellName(last, sp.row)})
		}
		if s, ok := g.at(sp.col, sp.row).value.(string); ok {
			if lines := wrappedLines(s, width); lines > 1 {
				heights[sp.row] = max(heights[sp.row], 15*float64(lines))
			}
		}
	}
	return merges, heights
}

// defaultWidth is the width of a column the grid does not size.
const defaultWidth = 9.140625

// note writes a note at (col, row), wrapped in its column, and makes the
// row tall enough for it.
func (g *Grid) note(col, row int, s string) {
	g.set(col, row, text(s, styleWrapNote))
	if col <= len(g.widths) {
		g.wrapHeight(row, g.widths[col-1], s)
	}
}

// width makes column col at least w wide.
func (g *Grid) width(col int, w float64) {
	for len(g.widths) < col {
		g.widths = append(g.widths, 10)
	}
	g.widths[col-1] = max(g.widths[col-1], w)
}

func (g *Grid) name(name string, col, row int) {
	g.names = append(g.names, definedName{name: name, col: col, row: row})
}

func text(s, style string) cell { return cell{value: s, style: style} }

// number rounds v to 12 significant digits: far below any figure a reader
// sees, and above the last-bit drift that would make identical inputs
// write different files.
func number(v float64, style string) cell {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		// Excel has no such number; excelize would write the text "NaN".
		return text("no number", styleError)
	}
	if v == 0 {
		return cell{value: v, style: style}
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	return cell{value: r, style: style}
}

// write streams the grid into its sheet, creating the sheet when needed.
// An existing sheet keeps its place and part name; its cells, data
// validations and panes are replaced.
func (g *Grid) write(f *excelize.File, st *styles) error {
	if idx, _ := f.GetSheetIndex(g.sheet); idx < 0 {
		if _, err := f.NewSheet(g.sheet); err != nil {
			return err
		}
	} else if err := f.DeleteDataValidation(g.sheet); err != nil {
		return err
	}
	for _, dv := range g.validations {
		if err := f.AddDataValidation(g.sheet, dv); err != nil {
			return err
		}
	}
	if err := pagesetup.Apply(f, g.pages()); err != nil {
		return err
	}
	if err := g.shade(f, st); err != nil {
		return err
	}
	merges, heights := g.settled()
	sw, err := f.NewStreamWriter(g.sheet)
	if err != nil {
		return err
	}
	for i, w := range g.widths {
		if err := sw.SetColWidth(i+1, i+1, w); err != nil {
			return err
		}
	}
	if g.freezeRows > 0 || g.freezeCols > 0 {
		if err := sw.SetPanes(freeze(g.freezeCols, g.freezeRows)); err != nil {
			return err
		}
	}
	for i, r := range g.rows {
		if len(r) == 0 {
			continue
		}
		values := make([]any, len(r))
		for j, c := range r {
			if c.value == nil && c.style == "" {
				continue
			}
			id, err := st.id(c.style)
			if err != nil {
				return err
			}
			values[j] = excelize.Cell{StyleID: id, Value: c.value, Formula: c.formula}
		}
		var opts []excelize.RowOpts
		if h, ok := heights[i+1]; ok {
			opts = append(opts, excelize.RowOpts{Height: h})
		}
		if err := sw.SetRow(cellName(1, i+1), values, opts...); err != nil {
			return err
		}
	}
	for _, m := range merges {
		if err := sw.MergeCell(m[0], m[1]); err != nil {
			return err
		}
	}
	return sw.Flush()
}

func freeze(cols, rows int) *excelize.Panes {
	pane := "bottomLeft"
	if cols > 0 {
		pane = "bottomRight"
	}
	return &excelize.Panes{Freeze: true, XSplit: cols, YSplit: rows,
		TopLeftCell: cellName(cols+1, rows+1), ActivePane: pane,
		Selection: []excelize.Selection{{SQRef: cellName(cols+1, rows+1), ActiveCell: cellName(cols+1, rows+1), Pane: pane}}}
}

// absolute is the reference a defined name uses: 'Sheet name'!$C$5.
func absolute(sheet string, col, row int) string {
	return Quote(sheet) + "!$" + strings.TrimRight(cellName(col, row), "0123456789") + "$" + strconv.Itoa(row)
}

var plainSheet = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*$`)

// Quote is the sheet's name as a reference writes it: plain, or quoted as
// 'Sheet name' where Excel needs it.
func Quote(sheet string) string {
	if plainSheet.MatchString(sheet) && !cellLike.MatchString(sheet) {
		return sheet
	}
	return "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
}

// cellLike matches names Excel would read as a cell reference (A1, XFD9,
// R1C1, R, C), which cannot be defined names.
var cellLike = regexp.MustCompile(`(?i)^([a-z]{1,3}[0-9]+|r[0-9]*c[0-9]*|r|c)$`)

// excelName reports why name cannot be an Excel defined name, or "".
func excelName(name string) string {
	switch {
	case cellLike.MatchString(name):
		return "reads as a cell reference in Excel"
	case len(name) > 255:
		return "is longer than Excel's 255 characters"
	case excelFunctions[strings.ToUpper(name)]:
		return "is the name of an Excel function"
	case strings.EqualFold(name, "TRUE") || strings.EqualFold(name, "FALSE"):
		return "is one of Excel's truth values"
	}
	return ""
}

// NameProblem says why name cannot be an Excel defined name, or "".
func NameProblem(name string) string { return excelName(name) }

//go:embed excelfunctions.txt
var excelFunctionList string

// excelFunctions are Excel's function names, upper case.
var excelFunctions = func() map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(excelFunctionList, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out
}()

// pages is how the grid's sheet prints (see pagesetup): its columns, rows
// and charts, the header row it repeats on every page, the columns it keeps
// at the left of every page as it keeps them on screen (at least the
// first, which names each row), and the blocks of rows (a table with its
// chart) no page end should cut.
func (g *Grid) pages() pagesetup.Sheet {
	s := g.extent()
	s.Name, s.Ref, s.HeaderRow, s.KeepCols, s.Keep = g.sheet, Quote(g.sheet), g.printRow, max(1, g.freezeCols), g.keep
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

// extent is how wide the grid's sheet is: its columns and its charts.
func (g *Grid) extent() pagesetup.Sheet {
	s := pagesetup.Sheet{Widths: g.widths}
	for _, c := range g.charts {
		col, _, _ := excelize.CellNameToCoordinates(c.Cell)
		s.Charts = append(s.Charts, pagesetup.Chart{Col: col, Width: float64(c.Chart.Dimension.Width)})
	}
	return s
}

// Widths are the grid's column widths, from A.
func (g *Grid) Widths() []float64 { return g.widths }

// Heights are the heights of the grid's rows that are not the default's.
func (g *Grid) Heights() map[int]float64 {
	_, heights := g.settled()
	return heights
}
