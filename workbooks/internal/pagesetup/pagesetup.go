package pagesetup

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Sheet is what decides how a sheet prints.
type Sheet struct {
	Name      string    // as the workbook spells it
	Ref       string    // as a reference writes it: Results, 'Goal seek'
	Widths    []float64 // each column's width from A, in characters, as the sheet sets it
	Charts    []Chart   // charts drawn on the sheet
	HeaderRow int       // the row repeated atop every page; 0 for none
	KeepCols  int       // columns repeated at the left of every page when the sheet prints across pages
	Rows      []float64 // each row's height from row 1, in points
	Keep      [][2]int  // rows from..to printed on one page where they fit on one: a table and its chart
	Breaks    []int     // rows that start a page whatever else does
	// Heading stands on paper for the sheet's first HeadingRows rows (its
	// title and provenance) when it prints across pages: a page header on
	// every page, where the rows would print cut to the first column on
	// every page but the first.
	Heading     string
	HeadingRows int
}

// Chart is where a chart sits across the sheet: the column its left edge
// is anchored in (1 for A) and its width in pixels.
type Chart struct {
	Col   int
	Width float64
}

// The page: landscape, as narrow as Letter (279 mm) and as low as A4
// (210 mm), so that either paper holds what planner lays out. Margins in
// inches.
const (
	pageWidth  = 11.0 * 72 // points
	pageHeight = 8.27 * 72
	sideMargin = 0.5
	topMargin  = 0.75
	hfMargin   = 0.3
)

// MinScale is the smallest scale a sheet is fitted at: 11-point text
// printed at 60 % reads as 6.6-point text, the size of a statement's small
// print. A sheet that would need less prints at FixedScale across pages
// instead, its left columns on every page.
const (
	MinScale   = 0.60
	FixedScale = 70
)

// columnPixels is a column's width at 100 %: widths count the default
// font's digits, which Excel draws 7 pixels wide and LibreOffice, with
// Calibri's metric twin Carlito, 7.4; planner counts the wider.
func columnPixels(w float64) float64 { return math.Round(w * 7.4) }

// Width is the sheet's printed width in points at 100 %: its columns, or a
// chart reaching further right.
func (s Sheet) Width() float64 {
	px := 0.0
	for _, w := range s.Widths {
		px += columnPixels(w)
	}
	for _, c := range s.Charts {
		left := 0.0
		for i := 0; i < c.Col-1; i++ {
			left += columnPixels(s.width(i))
		}
		px = max(px, left+c.Width)
	}
	return px * 0.75
}

// width is column i's width (0 for A), Excel's default past the widths.
func (s Sheet) width(i int) float64 {
	if i < len(s.Widths) {
		return s.Widths[i]
	}
	return 9.140625
}

// Printable is the width and height a page holds inside its margins, in
// points at 100 %.
func Printable() (width, height float64) {
	return pageWidth - 2*sideMargin*72, pageHeight - 2*topMargin*72
}

// Fit is how a sheet prints: fitted to one page wide (Fit, at Scale or
// larger), or at Scale across pages with the left columns repeated.
type Fit struct {
	Fit    bool
	Scale  float64 // the scale the sheet prints at: fitted, the most it would take
	Titles string  // the print titles: rows and columns repeated on every page
	Breaks []int   // the rows that start a new page, so that no block of Keep is cut
}

// Decide works out how s prints.
func Decide(s Sheet) Fit {
	usable, _ := Printable()
	scale := min(1, usable/max(1, s.Width()))
	fit := Fit{Fit: scale >= MinScale, Scale: scale}
	if !fit.Fit {
		fit.Scale = s.scaleAcross()
		if s.KeepCols > 0 {
			fit.Titles = s.Ref + "!$A:$" + column(s.KeepCols)
		}
	}
	if s.HeaderRow > 0 {
		if fit.Titles != "" {
			fit.Titles += ","
		}
		row := strconv.Itoa(s.HeaderRow)
		fit.Titles += s.Ref + "!$" + row + ":$" + row
	}
	fit.Breaks = s.breaks(fit.Scale)
	if len(s.Breaks) > 0 {
		fit.Breaks = slices.Compact(slices.Sorted(slices.Values(append(fit.Breaks, s.Breaks...))))
	}
	return fit
}

// Room is the height a page of s holds, in points of the sheet's rows
// (at 100 %): what planner counts on at the scale s prints at, less the
// header row repeated atop every page.
func Room(s Sheet) float64 {
	_, height := Printable()
	room := height / Decide(Sheet{Widths: s.Widths, Charts: s.Charts, KeepCols: s.KeepCols}).Scale * slack
	if s.HeaderRow > 0 {
		room -= s.height(s.HeaderRow)
	}
	return room
}

// scaleAcross is the scale a sheet too wide for a page prints at:
// FixedScale, or as much less, down to MinScale, as saves a page down, so
// that the last rows do not print alone on pages of their own.
func (s Sheet) scaleAcross() float64 {
	fixed := FixedScale / 100.0
	down := s.pagesDown(fixed)
	for percent := FixedScale - 1; percent >= MinScale*100; percent-- {
		if scale := float64(percent) / 100; s.pagesDown(scale) < down {
			return scale
		}
	}
	return fixed
}

// pagesDown is how many pages the rows of s take down at scale, a page
// ending where the next row would not fit, each page after the first
// under the header row repeated; the breaks s asks for start pages too.
func (s Sheet) pagesDown(scale float64) int {
	_, height := Printable()
	room := height / scale * slack
	title := 0.0
	if s.HeaderRow > 0 {
		title = s.height(s.HeaderRow)
	}
	pages, top, fits, y := 1, 0.0, room, 0.0
	for r := 1; r <= len(s.Rows); r++ {
		if h := s.height(r); (y+h > top+fits || slices.Contains(s.Breaks, r)) && y > top {
			pages, top, fits = pages+1, y, room-title
		}
		y += s.height(r)
	}
	return pages
}

// slack is the share of a page's height planner counts on: spreadsheets
// measure rows and fonts a little differently.
const slack = 0.92

// breaks places a page break before each block of s.Keep that would run
// past the end of its page but fits on a page of its own, following the
// breaks the spreadsheet makes itself as rows fill each page. Of blocks
// that start on one row, the longest that fits on a page counts.
func (s Sheet) breaks(scale float64) []int {
	_, height := Printable()
	room := height / scale * slack
	title := 0.0
	if s.HeaderRow > 0 {
		title = s.height(s.HeaderRow)
	}
	longest := map[int]float64{} // first row -> the longest block from it that fits a page
	for _, k := range s.Keep {
		block := 0.0
		for r := k[0]; r <= k[1]; r++ {
			block += s.height(r)
		}
		if block <= room-title {
			longest[k[0]] = max(longest[k[0]], block)
		}
	}
	var out []int
	top, fits, y := 0.0, room, 0.0
	for r := 1; r <= len(s.Rows); r++ {
		if block, ok := longest[r]; ok && y > top && y+block > top+fits {
			out = append(out, r)
			top, fits = y, room-title
		}
		if h := s.height(r); y+h > top+fits && y > top {
			top, fits = y, room-title
		}
		y += s.height(r)
	}
	return out
}

// height is row r's height in points: Excel's default past the rows.
func (s Sheet) height(r int) float64 {
	if r >= 1 && r <= len(s.Rows) {
		return s.Rows[r-1]
	}
	return 15
}

// FirstPage is how many columns from A the first printed page of s holds:
// all of them when it is fitted to the page's width.
func FirstPage(s Sheet) int {
	fit := Decide(s)
	if fit.Fit {
		return len(s.Widths)
	}
	usable, _ := Printable()
	room := usable / fit.Scale / 0.75 // pixels at 100 %
	n, used := 0, 0.0
	for i := range s.Widths {
		if used += columnPixels(s.Widths[i]); used > room {
			break
		}
		n++
	}
	return max(1, n)
}

// printTitles is the name Excel and LibreOffice read the repeated rows and
// columns of a sheet from.
const printTitles = "_xlnm.Print_Titles"

// Apply sets up s for printing in f: layout, margins, footer, print
// titles and page breaks. It must run before the sheet's rows are
// streamed, on a sheet without manual page breaks (excelize cannot list
// them to take them out): the stream writer keeps the setup it finds.
func Apply(f *excelize.File, s Sheet) error {
	fit := Decide(s)
	landscape, order := "landscape", "overThenDown"
	layout := &excelize.PageLayoutOptions{Orientation: &landscape, PageOrder: &order}
	wide, tall := 1, 0
	scale := uint(math.Round(fit.Scale * 100))
	if fit.Fit {
		layout.FitToWidth, layout.FitToHeight = &wide, &tall
	} else {
		layout.AdjustTo = &scale
	}
	if err := f.SetSheetProps(s.Name, &excelize.SheetPropsOptions{FitToPage: &fit.Fit}); err != nil {
		return err
	}
	if err := f.SetPageLayout(s.Name, layout); err != nil {
		return err
	}
	side, top, hf := sideMargin, topMargin, hfMargin
	if err := f.SetPageMargins(s.Name, &excelize.PageLayoutMarginsOptions{Left: &side, Right: &side, Top: &top, Bottom: &top, Header: &hf, Footer: &hf}); err != nil {
		return err
	}
	// The sheet's name on the left of every page's foot, the page and the
	// count on the right, in 8 points.
	heading := &excelize.HeaderFooterOptions{OddFooter: "&L&8&A&R&8page &P of &N"}
	area := ""
	if !fit.Fit && s.Heading != "" && s.HeadingRows > 0 {
		heading.OddHeader = "&L&9" + strings.ReplaceAll(s.Heading, "&", "&&")
		area = s.Ref + "!$" + strconv.Itoa(s.HeadingRows+1) + ":$" + strconv.Itoa(excelize.TotalRows)
	}
	if err := f.SetHeaderFooter(s.Name, heading); err != nil {
		return err
	}
	// A sheet without a heading is the user's to print as they set it.
	if s.Heading != "" {
		if err := setName(f, s.Name, printArea, area); err != nil {
			return err
		}
	}
	for _, row := range fit.Breaks {
		if err := f.InsertPageBreak(s.Name, "A"+strconv.Itoa(row)); err != nil {
			return err
		}
	}
	return setName(f, s.Name, printTitles, fit.Titles)
}

// printArea is the name a spreadsheet reads the rows and columns it prints
// of a sheet from.
const printArea = "_xlnm.Print_Area"

// setName points the sheet's name (print titles or area) at refersTo (""
// for none), leaving the name as it is when it already does.
func setName(f *excelize.File, sheet, name, refersTo string) error {
	for _, dn := range f.GetDefinedName() {
		if dn.Name != name || dn.Scope != sheet {
			continue
		}
		if dn.RefersTo == refersTo {
			return nil
		}
		if err := f.DeleteDefinedName(&excelize.DefinedName{Name: name, Scope: sheet}); err != nil {
			return err
		}
	}
	if refersTo == "" {
		return nil
	}
	err := f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: refersTo, Scope: sheet})
	if errors.Is(err, excelize.ErrDefinedNameDuplicate) {
		return errors.New("the " + name + " of " + sheet + " is defined twice")
	}
	return err
}

// column is the letters of a 1-based column.
func column(n int) string {
	name, _ := excelize.ColumnNumberToName(n)
	return name
}
