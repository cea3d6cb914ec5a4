package grid

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// every is a sheet of every kind of cell planner writes, and a few it
// could: numbers of every size and sign, text that needs escaping, spaces
// kept, control characters, formulas over each kind of value, days, styled
// empty cells, rows with heights, gaps between rows and merged text.
func every() *Grid {
	g := NewOwned("Every", 1, 1, 12, 30, 14)
	g.Line(1, Headers("Item", "Text", "Value")...)
	numbers := []float64{0, 1, -1, 42, -1234.5, 0.1, 1.0 / 3, 2e-9, 1.234e-20, -5e-300, 6.02e23, 1.5e300,
		12345678901234567, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, math.Copysign(0, -1), math.NaN(), math.Inf(1)}
	row := 2
	for _, v := range numbers {
		raw := Cell{value: v, style: StyleResult} // not rounded as Number rounds
		if math.IsNaN(v) || math.IsInf(v, 0) {
			raw = Number(v, StyleResult) // text: excelize would write "NaN"
		}
		g.Line(row, Number(v, StyleResult), raw, Number(v, WithFormat(StyleInput, "0.0%")))
		row++
	}
	texts := []string{"", "plain", `a&b<c>d"e'f`, " leading", "trailing ", "\ttab", "line\nbreak\n", "cr\rlf\r\n", "\x01\x08\x1f control",
		"ünïcødé € 漢字 🙂", "bad \xff byte", "\uFFFE\uFFFF", "&#xA; and &amp;", "x0041_ and _y", strings.Repeat("long ", 2000)}
	for _, s := range texts {
		g.Line(row, Text(s, StyleLabel), Linked(Text(s, StyleNote), `IF(A1<2,"a&b",`+"\"\n\")"), Cell{value: s, style: StyleWrapNote})
		row++
	}
	g.Line(row, Linked(Number(2, StyleResult), "SUM(C2:C5)"), Cell{value: true, style: StyleResult, formula: "TRUE()"}, Cell{value: false, style: StyleResult})
	g.Line(row+1, Cell{value: 7, style: StyleResult}, Cell{value: -3, style: StyleResult, formula: "-3"}, Cell{style: StyleResult, formula: "A1"})
	g.Line(row+2, Date(time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), WithFormat(StyleInput, "yyyy-mm-dd")),
		Date(time.Date(1900, 2, 28, 12, 0, 0, 0, time.UTC), WithFormat(StyleInput, "yyyy-mm-dd")),
		Linked(Date(time.Date(2026, 12, 2, 18, 30, 0, 0, time.FixedZone("CET", 3600)), WithFormat(StyleInput, "yyyy-mm-dd")), "TODAY()"))
	g.Line(row+3, Blank(StyleInput), Cell{}, Blank(StyleHeader))
	g.Set(3, row+5, Cell{}) // a row of nothing written
	g.Set(2, row+7, Text("after a gap", StyleLabel))
	g.Note(2, row+8, "A note long enough to wrap over several lines of its column, so its row is made taller for it.")
	g.Sentence(1, row+10, 3, "A sentence merged across three columns.", StyleNote)
	long := "IF(A1>0," + strings.Repeat(`IF(B2<"ü&<>\"",C3,`, 20) + "0" + strings.Repeat(")", 20) + ",1)" // held packed
	g.Line(row+11, Linked(Number(1, StyleResult), long), Number(2, StyleResult), Linked(Text("x", StyleNote), "\x00A1"))
	g.Link(2, row+11, strings.Replace(long, "A1", "A2", 1))
	g.heights = make([]float64, row+12)
	g.heights[1], g.heights[row+6] = 22.75, 409
	return g
}

// part is the named part of f, as excelize saves it.
func part(t *testing.T, f *excelize.File, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// both writes the grid build makes through excelize's stream writer
// (Write) and with WriteRows (WriteForPacking), into new workbooks set up
// by setup, and gives the sheet parts: the first with its rows, the
// second with the rows WriteRows wrote put after <sheetData>; and those
// rows. The two workbooks' styles must be the same.
func both(t *testing.T, build func() *Grid, setup func(*excelize.File)) (want, got, rows []byte) {
	t.Helper()
	var styles [2][]byte
	for i, packing := range []bool{false, true} {
		f := excelize.NewFile()
		defer f.Close()
		if setup != nil {
			setup(f)
		}
		g := build()
		if _, _, _, err := write(f, slices.Values([]*Grid{g}), packing); err != nil {
			t.Fatal(err)
		}
		sheet := part(t, f, "xl/worksheets/sheet2.xml") // after excelize's Sheet1
		styles[i] = part(t, f, "xl/styles.xml")
		var buf bytes.Buffer
		if err := g.WriteRows(&buf); err != nil {
			t.Fatal(err)
		}
		if !packing {
			if buf.Len() != 0 {
				t.Fatalf("WriteRows after Write wrote %.100q", buf.String())
			}
			want = sheet
			continue
		}
		rows = buf.Bytes()
		head, tail, ok := bytes.Cut(sheet, []byte("<sheetData>"))
		if !ok {
			t.Fatalf("no <sheetData> in %s", sheet)
		}
		if len(rows) > 0 && !bytes.HasPrefix(tail, []byte("</sheetData>")) {
			t.Fatalf("the rows were written twice: %.200s", tail)
		}
		got = bytes.Join([][]byte{head, []byte("<sheetData>"), rows, tail}, nil)
	}
	if !bytes.Equal(styles[0], styles[1]) {
		t.Errorf("the styles differ:\n%s\n%s", styles[0], styles[1])
	}
	return want, got, rows
}

// WriteRows writes the bytes excelize's StreamWriter.SetRow writes for the
// same cells, so a sheet packed with its rows streamed is the sheet
// excelize would have written, byte for byte, where no row holds formulas
// filled right (shared_test.go has those).
func TestWriteRowsAsSetRow(t *testing.T) {
	date1904 := func(f *excelize.File) {
		yes := true
		if err := f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &yes}); err != nil {
			t.Fatal(err)
		}
	}
	// A day before 1904 is text in a 1904 workbook: leave it out there.
	after1904 := func() *Grid {
		g := every()
		for r := 1; r <= g.LastRow(); r++ {
			for c := 1; c <= 3; c++ {
				if d, ok := g.At(c, r).value.(time.Time); ok && d.Year() < 1904 {
					g.Set(c, r, Date(d.AddDate(200, 0, 0), WithFormat(StyleInput, "yyyy-mm-dd")))
				}
			}
		}
		return g
	}
	for name, c := range map[string]struct {
		build func() *Grid
		setup func(*excelize.File)
		from  int // freezeFrom: written from the cells, or frozen first
	}{
		"1900":        {every, nil, freezeFrom},
		"1904":        {after1904, date1904, freezeFrom},
		"1900 frozen": {every, nil, 1},
		"1904 frozen": {after1904, date1904, 1},
	} {
		defer func(was int) { freezeFrom = was }(freezeFrom)
		freezeFrom = c.from
		want, got, rows := both(t, c.build, c.setup)
		if len(rows) == 0 {
			t.Fatalf("%s: WriteRows wrote nothing: the sheet went to excelize", name)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the sheet differs from excelize's at byte %d:\n got %.300s\nwant %.300s", name, firstDiff(got, want), got[firstDiff(got, want):], want[firstDiff(got, want):])
		}
		for _, s := range []string{`t="inlineStr"`, `xml:space="preserve"`, `t="str"`, `t="b"`, `ht="409" customHeight="1"`, "&amp;", "&#x9;", "\uFFFD"} {
			if !bytes.Contains(rows, []byte(s)) {
				t.Errorf("%s: the rows hold no %q: the test no longer covers it", name, s)
			}
		}
	}
}

// A cell whose bytes only excelize knows sends its whole sheet to
// excelize's stream writer, as Write writes it.
func TestWriteRowsLeavesToExcelize(t *testing.T) {
	for name, c := range map[string]Cell{
		"NaN":           {value: math.NaN(), style: StyleResult},
		"infinity":      {value: math.Inf(-1), style: StyleResult},
		"escaped text":  {value: "item_x0041_", style: StyleLabel},
		"unstyled":      {value: 1.0},
		"before 1900":   {value: time.Date(1899, 1, 1, 0, 0, 0, 0, time.UTC), style: StyleInput},
		"other value":   {value: int64(3), style: StyleResult},
		"text too long": {value: strings.Repeat("n", excelize.TotalCellChars+1), style: StyleLabel},
	} {
		build := func() *Grid {
			g := every()
			g.Set(2, 3, c)
			return g
		}
		want, got, rows := both(t, build, nil)
		if len(rows) != 0 {
			t.Errorf("%s: WriteRows wrote the rows", name)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the sheet differs from excelize's at byte %d", name, firstDiff(got, want))
		}
	}
}

// WriteForPacking lets each large grid's cells go before it lays out the
// next, and WriteRows writes the rows once, frozen or not: the sheets are
// never all held as cells, nor a packed sheet beside its part.
func TestWritingForPackingLetsEachGridGo(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	large := func(sheet string) *Grid {
		g := every()
		g.sheet = sheet
		from := g.Next()
		for r := from; r < from+freezeFrom/3; r++ {
			g.Line(r, Number(float64(r), StyleResult), Text("row", StyleLabel), Number(0.5, StyleResult))
		}
		return g
	}
	first, second, small := large("First"), large("Second"), every()
	var rowsHeld []int
	grids := func(yield func(*Grid) bool) {
		for _, g := range []*Grid{first, second, small} {
			if !yield(g) {
				return
			}
			rowsHeld = append(rowsHeld, g.LastRow())
		}
	}
	written, _, _, err := WriteForPacking(f, grids)
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 3 || written[0] != first || written[1] != second || written[2] != small {
		t.Fatalf("WriteForPacking returned %v", written)
	}
	if want := []int{0, 0, every().LastRow()}; !slices.Equal(rowsHeld, want) {
		t.Errorf("rows held once each grid was written: %v, want %v", rowsHeld, want)
	}
	for _, g := range written {
		var once, again bytes.Buffer
		if err := g.WriteRows(&once); err != nil || !bytes.HasPrefix(once.Bytes(), []byte(`<row r="1"`)) {
			t.Fatalf("%s: WriteRows wrote %.60q (%v)", g.Sheet(), once.String(), err)
		}
		if err := g.WriteRows(&again); err != nil || again.Len() != 0 || g.LastRow() != 0 {
			t.Errorf("%s: a second WriteRows wrote %q (%v), %d rows held", g.Sheet(), again.String(), err, g.LastRow())
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// escape writes every string as xml.EscapeText does, line breaks kept
// where asked, whether it takes the way for ASCII or the general one: each
// of the characters XML escapes or refuses, alone, among others and at
// either end, and every two-byte string of ASCII.
func TestEscapeIsXMLsEscape(t *testing.T) {
	cases := []string{"", "plain", `"Results"!B7`, "'Cash flow'!C3&\"x\"", "<a>&b</a>", "tab\there", "line\nbreak\r\n",
		"\x00\x01\x1f\x7f", "é & ü", "mixed \x01 é", "\xff bad", "&#xA;", "\n", "'", "\"" + strings.Repeat("a'", 100) + "\""}
	for a := range 128 {
		for b := range 128 {
			cases = append(cases, string([]byte{byte(a), byte(b)}))
		}
	}
	for _, s := range cases {
		for _, lines := range []bool{false, true} {
			var want bytes.Buffer
			_ = xml.EscapeText(&want, []byte(s))
			w := want.String()
			if lines {
				w = strings.ReplaceAll(w, "&#xA;", "\n")
			}
			var got bytes.Buffer
			bw := bufio.NewWriter(&got)
			escape(bw, s, lines)
			bw.Flush()
			if got.String() != w {
				t.Errorf("escape(%q, lines %v) = %q, want %q", s, lines, got.String(), w)
			}
		}
	}
}
