package grid

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// reopened is f saved and read back, as a spreadsheet program would find it.
func reopened(t *testing.T, f *excelize.File) *excelize.File {
	t.Helper()
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { back.Close() })
	return back
}

// A small grid written into a fresh workbook reads back cell by cell:
// values, formulas, styles and number formats, names, merged sentences and
// frozen panes.
func TestWriteReadsBack(t *testing.T) {
	g := NewOwned("Costs", 1, 1, 12, 14, 14)
	g.Line(1, Headers("Item", "Per month", "Share")...)
	g.Line(2, Text("Power", StyleLabel), Number(1234.5, WithFormat(StyleResult, "#,##0.00")), Number(0.25, WithFormat(StyleInput, "0.0%")))
	g.Line(3, Text("Start", StyleLabel), Date(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), WithFormat(StyleInput, "yyyy-mm-dd")))
	g.Link(2, 2, "B3*2")
	g.Name("power", 2, 2)
	g.Sentence(1, 5, 3, "A sentence merged across three columns.", StyleNote)

	f := excelize.NewFile()
	defer f.Close()
	managed, warnings, err := Write(f, []*Grid{g})
	if err != nil || len(warnings) != 0 {
		t.Fatalf("Write: %v %v", err, warnings)
	}
	if !managed["power"] {
		t.Errorf("managed %v, want power", managed)
	}
	back := reopened(t, f)

	for cell, want := range map[string]string{"A1": "Item", "C1": "Share", "A2": "Power", "B2": "1234.5", "C2": "0.25", "B3": "45352"} {
		if got, err := back.GetCellValue("Costs", cell, excelize.Options{RawCellValue: true}); err != nil || got != want {
			t.Errorf("%s = %q (%v), want %q", cell, got, err, want)
		}
	}
	if got, _ := back.GetCellFormula("Costs", "B2"); got != "B3*2" {
		t.Errorf("B2's formula %q, want B3*2", got)
	}
	// 1 March 2024 is day 45352 of Excel's 1900 calendar: 2024-01-01 is
	// 45292, and January and February 2024 have 31 + 29 days.
	for cell, want := range map[string]string{"B2": "#,##0.00", "C2": "0.0%", "B3": "yyyy-mm-dd"} {
		style := styleOf(t, back, cell)
		if style.CustomNumFmt == nil || *style.CustomNumFmt != want {
			t.Errorf("%s's number format %v, want %s", cell, style.CustomNumFmt, want)
		}
	}
	header := styleOf(t, back, "A1")
	if !header.Font.Bold || len(header.Fill.Color) != 1 || header.Fill.Color[0] != "D9D9D9" || !header.Alignment.WrapText {
		t.Errorf("header style %+v %+v", header.Font, header.Fill)
	}
	if input := styleOf(t, back, "C2"); input.Font.Color != "0000FF" || input.Fill.Color[0] != "FFF2CC" {
		t.Errorf("input style %+v %+v", input.Font, input.Fill)
	}

	// The frozen header row is printed atop every page, by the sheet's
	// Print_Titles.
	want := []excelize.DefinedName{
		{Name: "_xlnm.Print_Titles", RefersTo: "Costs!$1:$1", Scope: "Costs"},
		{Name: "power", Comment: NameComment, RefersTo: "Costs!$B$2", Scope: "Workbook"},
	}
	if names := back.GetDefinedName(); len(names) != 2 || names[0] != want[0] || names[1] != want[1] {
		t.Errorf("names %+v, want %+v", names, want)
	}
	merges, err := back.GetMergeCells("Costs")
	if err != nil || len(merges) != 1 || merges[0].GetStartAxis() != "A5" || merges[0].GetEndAxis() != "C5" {
		t.Errorf("merges %v %v, want A5:C5", merges, err)
	}
	panes, err := back.GetPanes("Costs")
	if err != nil || !panes.Freeze || panes.XSplit != 1 || panes.YSplit != 1 || panes.TopLeftCell != "B2" {
		t.Errorf("panes %+v %v", panes, err)
	}
	if used := g.Used(); used != "A1:C5" {
		t.Errorf("Used %s, want A1:C5", used)
	}
}

func styleOf(t *testing.T, f *excelize.File, cell string) *excelize.Style {
	t.Helper()
	id, err := f.GetCellStyle("Costs", cell)
	if err != nil {
		t.Fatal(err)
	}
	s, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A name the user's workbook already defines is left as it is, with a
// warning; planner's own name moves with its cell.
func TestWriteKeepsTheUsersNames(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetDefinedName(&excelize.DefinedName{Name: "Rate", RefersTo: "Sheet1!$A$1"}); err != nil {
		t.Fatal(err)
	}
	g := NewOwned("Results", 0, 0)
	g.Line(1, Number(3, StyleResult))
	g.Name("rate", 1, 1)
	managed, warnings, err := Write(f, []*Grid{g})
	if err != nil {
		t.Fatal(err)
	}
	if managed["rate"] || managed["Rate"] || len(warnings) != 1 || !strings.Contains(warnings[0].Error(), "already defines the name Rate (Sheet1!$A$1)") {
		t.Errorf("managed %v, warnings %v", managed, warnings)
	}
	if names := reopened(t, f).GetDefinedName(); len(names) != 1 || names[0].RefersTo != "Sheet1!$A$1" {
		t.Errorf("names %+v", names)
	}
}

func TestReferences(t *testing.T) {
	for _, c := range []struct{ got, want string }{
		{CellName(1, 1), "A1"},
		{CellName(26, 9), "Z9"},
		{CellName(27, 10), "AA10"},   // 27 = 1*26 + 1
		{CellName(703, 1), "AAA1"},   // 703 = 26 + 26*26 + 1
		{CellName(16384, 3), "XFD3"}, // Excel's last column: 24*676 + 6*26 + 4
		{Absolute("Costs", 3, 5), "Costs!$C$5"},
		{Absolute("Cash flow", 28, 12), "'Cash flow'!$AB$12"},
		{Span("Fleet", 2, 3, 9), "Fleet!$B$3:$B$9"},
		{Quote("Bob's sheet"), "'Bob''s sheet'"},
		{Quote("A1"), "'A1'"},     // reads as a cell
		{Quote("R2C3"), "'R2C3'"}, // reads as a cell in R1C1
		{Quote("1st"), "'1st'"},   // begins with a digit
		{Quote("my_sheet.v2"), "my_sheet.v2"},
		{Fixed("D60"), "$D$60"},
		{Fixed("power"), "power"},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
}

func TestNameProblem(t *testing.T) {
	for name, want := range map[string]string{
		"fleet_cost":             "",
		"XFD1":                   "reads as a cell reference in Excel",
		"r1c1":                   "reads as a cell reference in Excel",
		"C":                      "reads as a cell reference in Excel",
		"sum":                    "is the name of an Excel function",
		"True":                   "is the name of an Excel function", // TRUE() is one
		strings.Repeat("n", 255): "",
		strings.Repeat("n", 256): "is longer than Excel's 255 characters",
	} {
		if got := NameProblem(name); got != want {
			t.Errorf("NameProblem(%.20s) = %q, want %q", name, got, want)
		}
	}
}
