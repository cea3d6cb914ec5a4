package pagesetup

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// Letter is 11 inches wide and A4 8.27 inches high; half-inch side margins
// and three-quarter-inch top and bottom ones leave 720 by 487.44 points.
const (
	usableWidth  = 720.0
	usableHeight = 8.27*72 - 108
)

func repeat(w float64, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = w
	}
	return out
}

func TestPrintable(t *testing.T) {
	w, h := Printable()
	if w != usableWidth || h != usableHeight {
		t.Errorf("Printable() = %v, %v; want %v, %v", w, h, usableWidth, usableHeight)
	}
}

func TestNarrowSheetFitsOnePageWide(t *testing.T) {
	// Two columns of 10 characters: 74 pixels each, 111 points.
	s := Sheet{Name: "S", Ref: "S", Widths: []float64{10, 10}, HeaderRow: 4, KeepCols: 1}
	if got := s.Width(); got != 111 {
		t.Errorf("Width() = %v, want 111", got)
	}
	got := Decide(s)
	want := Fit{Fit: true, Scale: 1, Titles: "S!$4:$4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Decide = %+v, want %+v", got, want)
	}
}

// A sheet fits when its scale would be at least MinScale: 720 points at
// 60 % are 1,200 points, 1,600 pixels.
func TestFitStopsAtMinScale(t *testing.T) {
	at := Sheet{Name: "S", Ref: "S", Widths: repeat(100/7.4, 16), KeepCols: 1} // 16 columns of 100 pixels
	if got := Decide(at); !got.Fit || got.Scale != 0.6 || got.Titles != "" {
		t.Errorf("1,600 pixels wide: %+v, want fitted at 60 %% with no titles", got)
	}
	past := Sheet{Name: "S", Ref: "S", Widths: append(repeat(100/7.4, 16), 1/7.4), KeepCols: 2, HeaderRow: 1}
	want := Fit{Fit: false, Scale: 0.7, Titles: "S!$A:$B,S!$1:$1"}
	if got := Decide(past); !reflect.DeepEqual(got, want) {
		t.Errorf("1,601 pixels wide: %+v, want %+v", got, want)
	}
}

func TestChartsWidenTheSheet(t *testing.T) {
	// A chart anchored in column B reaches 74 + 2,000 pixels from A's edge.
	s := Sheet{Widths: []float64{10, 10}, Charts: []Chart{{Col: 2, Width: 2000}}}
	if got, want := s.Width(), (74+2000)*0.75; got != want {
		t.Errorf("Width() = %v, want %v", got, want)
	}
}

func TestFirstPage(t *testing.T) {
	if got := FirstPage(Sheet{Widths: []float64{10, 10}}); got != 2 {
		t.Errorf("a fitted sheet's first page holds %d columns, want 2", got)
	}
	// At 70 %, 720 points hold 1,028.6 points of the sheet: 1,371.4
	// pixels, 13 columns of 100 pixels.
	if got := FirstPage(Sheet{Widths: repeat(100/7.4, 40)}); got != 13 {
		t.Errorf("a sheet printed across pages: the first holds %d columns, want 13", got)
	}
}

func TestBreaksKeepBlocksTogether(t *testing.T) {
	// At 100 %, a page holds 92 % of 487.44 points: 448.44, 29 rows of 15.
	s := Sheet{Rows: repeat(15, 80), Keep: [][2]int{{20, 35}, {40, 50}, {60, 62}}}
	// Rows 20-35 (240 points) would end at 525: a break before 20. That
	// page runs from 285 to 733.44: rows 40-50 would end at 750, a break
	// before 40. That page, from 585, holds rows 60-62.
	if got, want := s.breaks(1), []int{20, 40}; !reflect.DeepEqual(got, want) {
		t.Errorf("breaks = %v, want %v", got, want)
	}
	// A block taller than a page is left to the spreadsheet; so is one
	// that starts a page.
	tall := Sheet{Rows: repeat(15, 80), Keep: [][2]int{{1, 10}, {5, 40}}}
	if got := tall.breaks(1); len(got) != 0 {
		t.Errorf("breaks = %v, want none", got)
	}
	// Of blocks from one row, the longest that fits counts: rows 28-30
	// would end at 450.
	two := Sheet{Rows: repeat(15, 80), Keep: [][2]int{{28, 75}, {28, 30}}}
	if got, want := two.breaks(1), []int{28}; !reflect.DeepEqual(got, want) {
		t.Errorf("breaks = %v, want %v", got, want)
	}
	// Printed at half size, a page holds twice the rows.
	if got := s.breaks(0.5); !reflect.DeepEqual(got, []int{60}) {
		t.Errorf("at 50 %%: breaks = %v, want [60]", got)
	}
}

// Apply writes the page setup into the sheet, and points the sheet's print
// titles where they belong, changing the name only when they move.
func TestApply(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Goal seek"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewSheet("Other"); err != nil {
		t.Fatal(err)
	}
	wide := Sheet{Name: "Goal seek", Ref: "'Goal seek'", Widths: repeat(20, 20), HeaderRow: 4, KeepCols: 1,
		Rows: repeat(15, 60), Keep: [][2]int{{35, 50}}}
	if err := Apply(f, wide); err != nil {
		t.Fatal(err)
	}
	sheet, names := parts(t, f, "xl/worksheets/sheet1.xml")
	for _, want := range []string{
		`<pageMargins left="0.5" right="0.5" top="0.75" bottom="0.75" header="0.3" footer="0.3"`,
		`<pageSetup orientation="landscape" pageOrder="overThenDown" scale="70"`,
		`<oddFooter>&amp;L&amp;8&amp;A&amp;R&amp;8page &amp;P of &amp;N</oddFooter>`,
		// At 70 %, a page holds 640.6 points, 625.6 below the header row:
		// rows 35-50 would end at 750.
		`<rowBreaks count="1" manualBreakCount="1"><brk id="34" max="16383" man="true">`,
	} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the sheet has no %s:\n%s", want, sheet)
		}
	}
	if want := `<definedName localSheetId="0" name="_xlnm.Print_Titles">&#39;Goal seek&#39;!$A:$A,&#39;Goal seek&#39;!$4:$4</definedName>`; !strings.Contains(names, want) {
		t.Errorf("no %s in\n%s", want, names)
	}
	narrow := Sheet{Name: "Goal seek", Ref: "'Goal seek'", Widths: []float64{20}, HeaderRow: 4, KeepCols: 1}
	if err := Apply(f, narrow); err != nil {
		t.Fatal(err)
	}
	sheet, names = parts(t, f, "xl/worksheets/sheet1.xml")
	if want := `<pageSetup fitToHeight="0" fitToWidth="1" orientation="landscape" pageOrder="overThenDown" scale="70"`; !strings.Contains(sheet, want) {
		t.Errorf("the sheet has no %s:\n%s", want, sheet)
	}
	if !strings.Contains(sheet, `<pageSetUpPr fitToPage="true"`) {
		t.Errorf("the sheet is not fitted to its page:\n%s", sheet)
	}
	if want := `<definedName localSheetId="0" name="_xlnm.Print_Titles">&#39;Goal seek&#39;!$4:$4</definedName>`; strings.Count(names, "Print_Titles") != 1 || !strings.Contains(names, want) {
		t.Errorf("want one name %s in\n%s", want, names)
	}
	if err := Apply(f, Sheet{Name: "Goal seek", Ref: "'Goal seek'", Widths: []float64{20}}); err != nil {
		t.Fatal(err)
	}
	if _, names = parts(t, f, "xl/worksheets/sheet1.xml"); strings.Contains(names, "Print_Titles") {
		t.Errorf("a sheet without a header row keeps print titles:\n%s", names)
	}
}

// parts saves f and returns a sheet's XML and the workbook's.
func parts(t *testing.T, f *excelize.File, sheet string) (string, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ws, _ := g.Pkg.Load(sheet)
	wb, _ := g.Pkg.Load("xl/workbook.xml")
	return string(ws.([]byte)), string(wb.([]byte))
}

// A sheet printed across pages whose last rows would spill onto a page
// of their own at 70 % prints smaller, at the largest whole percentage
// that holds them, where that is 60 % or more; rows that fill pages
// anyway keep 70 %.
func TestAcrossPagesSavesASliverOfAPage(t *testing.T) {
	wide := repeat(100/7.4, 20) // 2,000 pixels: across pages
	// At 70 % a page holds 487.44 ÷ 0.7 × 0.92 = 640.6 points of rows:
	// ten rows of 60 points, not eleven.
	eleven := Sheet{Name: "S", Ref: "S", Widths: wide, Rows: repeat(60, 11)}
	want := math.Floor(100*usableHeight*slack/(11*60)) / 100 // 67 %
	if got := Decide(eleven); got.Fit || got.Scale != want {
		t.Errorf("eleven rows of 60 points: %+v, want across pages at %v", got, want)
	}
	if want < MinScale || want >= 0.7 {
		t.Fatalf("the case is not one of a sliver: %v", want)
	}
	// Twenty rows take two pages at 70 % and at 60 %.
	twenty := Sheet{Name: "S", Ref: "S", Widths: wide, Rows: repeat(60, 20)}
	if got := Decide(twenty); got.Scale != 0.7 {
		t.Errorf("twenty rows of 60 points: %+v, want 70 %%", got)
	}
	// Eleven and a header repeated: the second page saved only when the
	// rows with the header fit too.
	headed := Sheet{Name: "S", Ref: "S", Widths: wide, Rows: repeat(60, 12), HeaderRow: 1}
	want = math.Floor(100*usableHeight*slack/(12*60)) / 100
	if got := Decide(headed); got.Scale != want {
		t.Errorf("a header and eleven rows: %+v, want %v", got, want)
	}
}

// A sheet printed across pages prints its heading as every page's header
// and its rows from below the heading's, which would print cut to the
// first column on every page but the first; a sheet fitted to the page
// prints its rows as they are.
func TestHeadingAcrossPages(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	if _, err := f.NewSheet("Wide costs"); err != nil {
		t.Fatal(err)
	}
	wide := Sheet{Name: "Wide costs", Ref: "'Wide costs'", Widths: repeat(100/7.4, 20), HeaderRow: 4, KeepCols: 1,
		Heading: "Costs & more · planner test · inputs 0123456789ab", HeadingRows: 2}
	if err := Apply(f, wide); err != nil {
		t.Fatal(err)
	}
	hf, err := f.GetHeaderFooter("Wide costs")
	if err != nil {
		t.Fatal(err)
	}
	if want := "&L&9Costs && more · planner test · inputs 0123456789ab"; hf.OddHeader != want {
		t.Errorf("header %q, want %q", hf.OddHeader, want)
	}
	names := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Scope == "Wide costs" {
			names[dn.Name] = dn.RefersTo
		}
	}
	if names["_xlnm.Print_Area"] != "'Wide costs'!$3:$1048576" || names["_xlnm.Print_Titles"] != "'Wide costs'!$A:$A,'Wide costs'!$4:$4" {
		t.Errorf("names %v", names)
	}
	narrow := wide
	narrow.Widths = repeat(10, 3)
	if err := Apply(f, narrow); err != nil {
		t.Fatal(err)
	}
	hf, _ = f.GetHeaderFooter("Wide costs")
	for _, dn := range f.GetDefinedName() {
		if dn.Scope == "Wide costs" && dn.Name == "_xlnm.Print_Area" {
			t.Errorf("a sheet fitted to the page keeps a print area %s", dn.RefersTo)
		}
	}
	if hf.OddHeader != "" {
		t.Errorf("a sheet fitted to the page has the header %q", hf.OddHeader)
	}
}
