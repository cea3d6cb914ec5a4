package workbooks

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"planner/workbooks/internal/ooxml"
)

// withQuotes adds the user's own sheet Quotes, holding quote in B2 after
// padding rows (to make it large), and makes capex (Assumptions!B6) a
// reference to it whose saved value, 285000, is stale.
func withQuotes(t *testing.T, quote string, padding int) []byte {
	t.Helper()
	var rows strings.Builder
	for r := 3; r < 3+padding; r++ {
		fmt.Fprintf(&rows, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>an old quote, kept for the record</t></is></c></row>`, r, r)
	}
	return rezip(t, planBytes(t), func(ps map[string][]byte) {
		ps["xl/worksheets/sheet99.xml"] = []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>` +
			`<row r="2"><c r="B2"><v>` + quote + `</v></c></row>` + rows.String() + `</sheetData></worksheet>`)
		ps[ooxml.WorkbookPart] = bytes.Replace(ps[ooxml.WorkbookPart], []byte("</sheets>"), []byte(`<sheet name="Quotes" sheetId="99" r:id="rId99"/></sheets>`), 1)
		ps[ooxml.WorkbookRels] = bytes.Replace(ps[ooxml.WorkbookRels], []byte("</Relationships>"),
			[]byte(`<Relationship Id="rId99" Type="`+relWorksheet+`" Target="worksheets/sheet99.xml"/></Relationships>`), 1)
		ps[ooxml.ContentTypes] = bytes.Replace(ps[ooxml.ContentTypes], []byte("</Types>"),
			[]byte(`<Override PartName="/xl/worksheets/sheet99.xml" ContentType="`+worksheetContent+`"/></Types>`), 1)
		ps["xl/worksheets/sheet1.xml"] = regexp.MustCompile(`<c r="B6"([^>]*)><v>285000</v></c>`).
			ReplaceAll(ps["xl/worksheets/sheet1.xml"], []byte(`<c r="B6"$1><f>Quotes!B2</f><v>285000</v></c>`))
	})
}

// The read handle holds only the sheets planner reads. A cell of theirs
// that refers to a sheet of the user's is still followed to what that cell
// holds now, through a handle opened for that sheet; a sheet too large to
// parse is not opened, and the value saved with the formula stands.
func TestReferencesIntoTheUsersSheets(t *testing.T) {
	for _, tc := range []struct {
		name    string
		padding int
		want    float64
	}{
		{"a small sheet", 0, 300000},
		{"a sheet past 8 MB", 8 << 20 / 100, 285000},
	} {
		path := filepath.Join(t.TempDir(), "quotes.xlsx")
		if err := os.WriteFile(path, withQuotes(t, "300000", tc.padding), 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Read(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, in := range b.Model.Inputs {
			if in.Name == "capex" && in.Value.Num != tc.want {
				t.Errorf("%s: capex = %g, want %g", tc.name, in.Value.Num, tc.want)
			}
		}
	}
}

// The read handle holds only the first rows of planner's own sheets, cut
// out of the part as it is written, prefixes and all: the provenance line
// in A2 still says planner wrote the sheet and from which inputs, whatever
// follows it.
func TestPlannersSheetsAreReadToTheirProvenance(t *testing.T) {
	var rows strings.Builder
	for r := 4; r < 3000; r++ {
		fmt.Fprintf(&rows, `<x:row r="%d"><x:c r="B%d"><x:v>%d</x:v></x:c></x:row>`, r, r, r)
	}
	for _, tc := range []struct{ name, rows, after string }{
		{"rows after it", `<x:row r="3"/>` + rows.String(), `<x:mergeCells count="1"><x:mergeCell ref="A1:C1"/></x:mergeCells>`},
		{"nothing after it", "", ""},
	} {
		data := rezip(t, planBytes(t), func(ps map[string][]byte) {
			ps["xl/worksheets/sheet99.xml"] = []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
				`<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>` +
				`<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Results</x:t></x:is></x:c></x:row>` +
				`<x:row r="2"><x:c r="A2" t="inlineStr"><x:is><x:t>planner v9.9.9 · inputs 0123456789ab · made by hand</x:t></x:is></x:c></x:row>` +
				tc.rows + `</x:sheetData>` + tc.after + `</x:worksheet>`)
			ps[ooxml.WorkbookPart] = bytes.Replace(ps[ooxml.WorkbookPart], []byte("</sheets>"), []byte(`<sheet name="Results" sheetId="99" r:id="rId99"/></sheets>`), 1)
			ps[ooxml.WorkbookRels] = bytes.Replace(ps[ooxml.WorkbookRels], []byte("</Relationships>"),
				[]byte(`<Relationship Id="rId99" Type="`+relWorksheet+`" Target="worksheets/sheet99.xml"/></Relationships>`), 1)
			ps[ooxml.ContentTypes] = bytes.Replace(ps[ooxml.ContentTypes], []byte("</Types>"),
				[]byte(`<Override PartName="/xl/worksheets/sheet99.xml" ContentType="`+worksheetContent+`"/></Types>`), 1)
		})
		path := filepath.Join(t.TempDir(), "results.xlsx")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		b, err := Read(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !b.owned[SheetResults] || b.Computed[SheetResults] != "0123456789ab" {
			t.Errorf("%s: Results owned %v, computed from %q; want planner's, from 0123456789ab", tc.name, b.owned[SheetResults], b.Computed[SheetResults])
		}
	}
}
