package ooxml

import (
	"bytes"
	"io"
	"testing"
)

// The <drawing> goes after the last element the schema puts before it,
// found after the sheet's data, as a search of the whole sheet finds it.
func TestDrawingElementGoesWhereTheWholeSheetSays(t *testing.T) {
	data := `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>pageSetup &lt;pageSetup</t></is></c></row></sheetData>`
	for _, sheet := range []string{
		`<worksheet><dimension ref="A1"/>` + data + `</worksheet>`,
		`<worksheet>` + data + `<pageMargins left="0.7"/><pageSetup orientation="landscape"/><headerFooter><oddFooter>x</oddFooter></headerFooter><tableParts count="0"/></worksheet>`,
		`<worksheet>` + data + `<conditionalFormatting sqref="A1"></conditionalFormatting><pageMargins left="1"/><legacyDrawing r:id="rId1"/></worksheet>`,
		`<worksheet><sheetData/><pageMargins left="1"/><extLst/></worksheet>`,
		`<worksheet><sheetData/></worksheet>`,
		`<worksheet>` + data + `<rowBreaks count="1"></rowBreaks><colBreaks count="1"></colBreaks><ignoredErrors></ignoredErrors></worksheet>`,
	} {
		got, err := addDrawingElement([]byte(sheet), "rId9")
		if err != nil {
			t.Fatalf("%s: %v", sheet, err)
		}
		if want := drawingWholeSheet([]byte(sheet), "rId9"); !bytes.Equal(got, want) {
			t.Errorf("%s\n got  %s\n want %s", sheet, got, want)
		}
	}
}

// drawingWholeSheet is addDrawingElement looking for each element before
// the drawing over the whole sheet.
func drawingWholeSheet(sheet []byte, id string) []byte {
	from := 0
	for _, el := range beforeDrawing {
		from = max(from, bytes.LastIndex(sheet, []byte(el)))
	}
	at := -1
	for _, el := range afterDrawing {
		if i := bytes.Index(sheet[from:], []byte(el)); i >= 0 && (at < 0 || from+i < at) {
			at = from + i
		}
	}
	el := `<drawing xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="` + id + `"/>`
	return append(append(append([]byte(nil), sheet[:at]...), el...), sheet[at:]...)
}

// A sheet's <drawing> put into its pieces as they are packed is where
// addDrawingElement puts it in the whole part: with the rows streamed
// between head and tail, with the rows written into the head, and for a
// part left as it is. Pieces cut so that no piece holds the end of the
// sheet's data are refused, for drawCharts to draw on the whole part.
func TestDrawingIsPlacedInThePiecesAsInTheWholePart(t *testing.T) {
	head := `<worksheet><dimension ref="A1:B2"/><sheetData>`
	rows := `<row r="1"><c r="A1" t="inlineStr"><is><t>pageSetup &lt;/sheetData&gt;</t></is></c></row>`
	tail := `</sheetData><pageMargins left="0.7"/><pageSetup orientation="landscape"/><headerFooter/></worksheet>`
	whole := []byte(head + rows + tail)
	want, err := addDrawingElement(whole, "rId4")
	if err != nil {
		t.Fatal(err)
	}
	streamed := piece{rows: func(w io.Writer) error { _, err := io.WriteString(w, rows); return err }}
	for name, pieces := range map[string][]piece{
		"rows streamed":    {{bytes: []byte(head)}, streamed, {bytes: []byte(tail)}},
		"rows in the head": {{bytes: []byte(head + rows)}, {}, {bytes: []byte(tail)}},
		"part as it is":    nil,
	} {
		drawn, ok := withDrawing(pieces, whole, "rId4")
		if !ok {
			t.Errorf("%s: no drawing placed", name)
			continue
		}
		if got, err := joined(drawn); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %s (%v)\nwant %s", name, got, err, want)
		}
	}
	if _, ok := withDrawing([]piece{{bytes: []byte(head)}, {bytes: []byte(rows + tail)}, streamed}, whole, "rId4"); ok {
		t.Error("pieces ending in rows were given a drawing")
	}
}
