package cols

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

const sheetPart = "xl/worksheets/sheet1.xml"

// withCols is a workbook whose one sheet has the <cols> given (none when
// empty), as a user's or an earlier run's file would have it.
func withCols(t *testing.T, cols string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	zr := packed(t, f)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, e := range zr.File {
		content := read(t, e)
		if e.Name == sheetPart {
			content = bytes.Replace(content, []byte("<sheetData"), []byte(cols+"<sheetData"), 1)
		}
		w, err := zw.Create(e.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(content); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// packed is the workbook as excelize saves it, opened as a zip.
func packed(t *testing.T, f *excelize.File) *zip.Reader {
	t.Helper()
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

func read(t *testing.T, e *zip.File) []byte {
	t.Helper()
	rc, err := e.Open()
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

// streamed is the sheet part excelize's stream writer writes over the
// workbook data, given the widths one column at a time when set is true.
func streamed(t *testing.T, data []byte, widths []float64, set bool) []byte {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range widths {
		if set {
			if err := sw.SetColWidth(i+1, i+1, w); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := sw.SetRow("A1", []any{"a", 1.5}); err != nil {
		t.Fatal(err)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, e := range packed(t, f).File {
		if e.Name == sheetPart {
			return read(t, e)
		}
	}
	t.Fatal("no sheet part")
	return nil
}

func TestSpliceIsWhatExcelizeWrites(t *testing.T) {
	many := make([]float64, 300)
	for i := range many {
		many[i] = 14
	}
	many[0], many[299] = 42, 8.43
	cases := []struct {
		name   string
		cols   string
		widths []float64
	}{
		{"a new sheet", "", []float64{22, 14, 10.5, 14}},
		{"a new sheet, many columns", "", many},
		{"no widths", `<cols><col min="1" max="3" width="9" customWidth="1"/></cols>`, nil},
		{"an earlier run's columns", `<cols><col min="3" max="3" width="10" customWidth="1"/><col min="2" max="2" width="12" customWidth="1"/><col min="1" max="1" width="30" customWidth="1"/></cols>`, []float64{22, 14, 10}},
		{"more old columns than new", `<cols><col min="6" max="6" width="10" customWidth="1"/><col min="5" max="5" width="12" customWidth="1"/><col min="1" max="4" width="30" customWidth="1"/></cols>`, []float64{22, 14}},
		{"ranges, styles, hidden and outlines", `<cols><col min="1" max="2" width="8.43" customWidth="1" style="3"/><col min="4" max="9" hidden="1" outlineLevel="2"/><col min="12" max="1024" width="11.5" style="1"/></cols>`, []float64{20, 20, 7, 9.25, 9.25}},
		{"overlapping elements", `<cols><col min="2" max="6" width="9" style="2"/><col min="4" max="8" width="15" hidden="1"/><col min="7" max="7" style="4"/></cols>`, []float64{5, 6, 7, 8, 9}},
		{"empty cols", `<cols></cols>`, []float64{5}},
		{"columns past Excel's last", `<cols><col min="16380" max="16384" width="3" customWidth="1"/></cols>`, []float64{1, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := withCols(t, c.cols)
			want := streamed(t, data, c.widths, true)
			got, err := Splice(streamed(t, data, c.widths, false), c.widths)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Splice gave\n%s\nexcelize wrote\n%s", cutCols(got), cutCols(want))
			}
		})
	}
}

func cutCols(part []byte) string {
	s := string(part)
	from, to := strings.Index(s, "<cols>"), strings.Index(s, "</cols>")
	if from < 0 || to < 0 {
		return "no <cols> in " + s
	}
	return s[from : to+len("</cols>")]
}

func TestSetGivesEachColumnItsWidth(t *testing.T) {
	widths := []float64{22, 14, 14, 14, 10, 14}
	f := excelize.NewFile()
	defer f.Close()
	if err := Set(f, "Sheet1", widths); err != nil {
		t.Fatal(err)
	}
	for i, want := range widths {
		name, _ := excelize.ColumnNumberToName(i + 1)
		if got, err := f.GetColWidth("Sheet1", name); err != nil || got != want {
			t.Errorf("column %s is %v wide (%v), want %v", name, got, err, want)
		}
	}
	if got, _ := f.GetColWidth("Sheet1", "G"); got != 9.140625 {
		t.Errorf("column G is %v wide, want excelize's default 9.140625", got)
	}
}
