package ooxml

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// cutRows leaves out the content of a sheet's <sheetData> and keeps every
// other byte, however the rows are written: markup that looks like the end
// of the rows in comments, CDATA and processing instructions, elements of
// the same name inside, a prefix, a self-closing <sheetData/>, and a part
// read a byte at a time.
func TestCutRowsKeepsAllButTheRows(t *testing.T) {
	const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetPr><pageSetUpPr fitToPage="1"/></sheetPr><dimension ref="A1:C3"/><cols><col min="1" max="1" width="12"/></cols>`
	const tail = `</sheetData><mergeCells count="1"><mergeCell ref="A1:C1"/></mergeCells><pageMargins left="0.5"/></worksheet>`
	rows := `<row r="1"><c r="A1" t="inlineStr"><is><t>a &lt;/sheetData&gt; b</t></is></c></row>` +
		`<!-- </sheetData> --><![CDATA[</sheetData>]]><?pi </sheetData>?>` +
		`<sheetData x="1"><row/></sheetData><sheetData/>` +
		`<row r="2"><c r="B2"><f>IF(A1&gt;0,"&lt;x&gt;",1)</f><v>1</v></c></row>` +
		strings.Repeat(`<row r="3"><c r="C3"><v>3</v></c></row>`, 20000)
	for name, c := range map[string]struct{ part, want string }{
		"rows": {head + "<sheetData>" + rows + tail, head + "<sheetData>" + tail},
		"prefixed": {`<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` + strings.ReplaceAll(rows, "sheetData", "x:sheetData") + `</x:sheetData><x:pageMargins left="0.5"/></x:worksheet>`,
			`<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData></x:sheetData><x:pageMargins left="0.5"/></x:worksheet>`},
		"no rows":   {head + "<sheetData/>" + tail[len("</sheetData>"):], head + "<sheetData/>" + tail[len("</sheetData>"):]},
		"empty":     {head + "<sheetData></sheetData>" + tail[len("</sheetData>"):], head + "<sheetData></sheetData>" + tail[len("</sheetData>"):]},
		"no data":   {head + tail[len("</sheetData>"):], head + tail[len("</sheetData>"):]},
		"attribute": {head + `<sheetData a=">">` + rows + tail, head + `<sheetData a=">">` + tail},
	} {
		for _, oneByte := range []bool{false, true} {
			r := bytes.NewReader([]byte(c.part))
			var got []byte
			var err error
			if oneByte {
				got, err = cutRows(iotest.OneByteReader(r), MaxPartInMemory)
			} else {
				got, err = cutRows(r, MaxPartInMemory)
			}
			if err != nil || string(got) != c.want {
				t.Errorf("%s (a byte at a time: %v): %v\n got %.300q\nwant %.300q", name, oneByte, err, got, c.want)
			}
		}
	}
	if _, err := cutRows(strings.NewReader(head+"<sheetData>"+rows+tail), len(head)+10); !errors.Is(err, errTooLarge) {
		t.Errorf("a head past the limit: %v", err)
	}
	big := head + "<sheetData>" + rows + `</sheetData>` + strings.Repeat(`<ignoredError sqref="A1"/>`, 100) + `</worksheet>`
	if _, err := cutRows(strings.NewReader(big), len(head)+500); !errors.Is(err, errTooLarge) {
		t.Errorf("a tail past the limit: %v", err)
	}
	for name, part := range map[string]string{
		"not XML":        "<worksheet><sheetData><row></sheetData",
		"rows never end": head + "<sheetData>" + rows,
		"broken head":    "<worksheet <sheetData>",
	} {
		if _, err := cutRows(strings.NewReader(part), MaxPartInMemory); !errors.Is(err, errNotXML) {
			t.Errorf("%s: %v, want errNotXML", name, err)
		}
	}
}
