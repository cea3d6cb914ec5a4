package ooxml

import (
	"bytes"
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
