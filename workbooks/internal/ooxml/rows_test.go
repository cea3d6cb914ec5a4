package ooxml

import (
	"bytes"
	"io"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

// streamed is a workbook of one sheet, Data, written by excelize's stream
// writer, with its rows or (withRows false) without any.
func streamed(t *testing.T, withRows bool) *excelize.File {
	t.Helper()
	f := excelize.NewFile()
	t.Cleanup(func() { f.Close() })
	if _, err := f.NewSheet("Data"); err != nil {
		t.Fatal(err)
	}
	sw, err := f.NewStreamWriter("Data")
	if err != nil {
		t.Fatal(err)
	}
	if withRows {
		for r := 1; r <= 500; r++ {
			row := []any{excelize.Cell{Value: float64(r) / 7}, excelize.Cell{Value: "text & more", Formula: `"a"&"b"`}}
			if err := sw.SetRow("A"+strconv.Itoa(r), row, excelize.RowOpts{Height: 20}); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := sw.MergeCell("C1", "D1"); err != nil {
		t.Fatal(err)
	}
	if err := sw.Flush(); err != nil {
		t.Fatal(err)
	}
	return f
}

// rowsOf are the rows excelize wrote into a sheet part.
func rowsOf(t *testing.T, part []byte) []byte {
	t.Helper()
	_, rest, ok := bytes.Cut(part, []byte("<sheetData>"))
	rows, _, ok2 := bytes.Cut(rest, []byte("</sheetData>"))
	if !ok || !ok2 || len(rows) == 0 {
		t.Fatalf("no rows in %.300s", part)
	}
	return bytes.Clone(rows)
}

// A sheet whose rows are streamed into its entry (Sheet.Rows) packs to
// the bytes of the same sheet written with its rows, through the short
// way and the long one (captured.odd), its widths and dimension spliced or
// not.
func TestPackStreamsRows(t *testing.T) {
	c, err := capture(streamed(t, true))
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(t, c.part("xl/worksheets/sheet2.xml"))
	for _, odd := range []bool{false, true} {
		for _, s := range []Sheet{{Name: "Data"}, {Name: "Data", Widths: []float64{12, 30}, Used: "A1:D500"}} {
			packed := func(withRows bool) []byte {
				c, err := capture(streamed(t, withRows))
				if err != nil {
					t.Fatal(err)
				}
				c.odd = odd
				s := s
				if !withRows {
					s.Rows = func(w io.Writer) error { _, err := w.Write(rows); return err }
				}
				out, err := packCaptured("test.xlsx", c, []Sheet{s}, nil)
				if err != nil {
					t.Fatal(err)
				}
				return out
			}
			if want, got := packed(true), packed(false); !bytes.Equal(got, want) {
				t.Errorf("odd %v, widths %v: the package differs from excelize's rows packed", odd, s.Widths)
			}
		}
	}
}

// Rows go into the <sheetData> the stream writer wrote even where a
// comment before it holds that text, and a sheet without rows to write
// is left as it is.
func TestSheetPiecesPlacesRows(t *testing.T) {
	part := []byte(`<worksheet><sheetPr><!--<sheetData>--></sheetPr><sheetData></sheetData><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells></worksheet>`)
	want := []byte(`<worksheet><sheetPr><!--<sheetData>--></sheetPr><sheetData><row r="1"></row></sheetData><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells></worksheet>`)
	row := func(w io.Writer) error { _, err := io.WriteString(w, `<row r="1"></row>`); return err }
	none := func(io.Writer) error { return nil }
	for _, c := range []struct {
		sheet Sheet
		want  []byte // nil: the part left as it is
	}{
		{Sheet{Rows: row}, want},
		{Sheet{Rows: row, Used: "A1:B1"}, want},
		{Sheet{Rows: none}, nil},
		{Sheet{Rows: none, Used: "A1:B1"}, part},
	} {
		pieces, err := sheetPieces(part, c.sheet)
		if err != nil {
			t.Fatal(err)
		}
		got, err := joined(pieces)
		if err != nil {
			t.Fatal(err)
		}
		if c.want == nil && pieces != nil || !bytes.Equal(got, c.want) {
			t.Errorf("%+v: got %s, want %s", c.sheet.Used, got, c.want)
		}
	}
	if _, err := sheetPieces([]byte(`<worksheet><sheetData/></worksheet>`), Sheet{Rows: row}); err == nil {
		t.Error("rows put into a <sheetData/> excelize did not write")
	}
}
