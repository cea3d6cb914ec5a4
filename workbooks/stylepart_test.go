package workbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/units"
	"planner/workbooks/internal/ooxml"
)

// bareSheet is the one sheet of bareWorkbook: a text and a number.
var bareSheet = bareSheetWith(`<c r="A1" t="inlineStr"><is><t>cost</t></is></c><c r="B1"><v>42</v></c>`)

const (
	worksheetContent = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"
	relWorksheet     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
)

// bareWorkbook is the smallest package a program writes: one sheet, Data,
// with a text and a number, and no style part. edit changes its parts.
func bareWorkbook(t *testing.T, edit func(map[string][]byte)) []byte {
	t.Helper()
	ps := map[string][]byte{
		"[Content_Types].xml": []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/>` +
			`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
			`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="` + worksheetContent + `"/></Types>`),
		"_rels/.rels": []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`),
		"xl/workbook.xml": []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
			`<sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`),
		ooxml.WorkbookRels: []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="` + relWorksheet + `" Target="worksheets/sheet1.xml"/></Relationships>`),
		"xl/worksheets/sheet1.xml": []byte(bareSheet),
	}
	if edit != nil {
		edit(ps)
	}
	return zipWith(t, ps, "", 0, 0)
}

// withStyles links a style part with the given content into a bare
// workbook, as a program that writes one would.
func withStyles(content string) func(map[string][]byte) {
	return func(ps map[string][]byte) {
		ps[ooxml.StylesPart] = []byte(content)
		linkStyles(ps, "styles.xml")
	}
}

func linkStyles(ps map[string][]byte, target string) {
	ps[ooxml.WorkbookRels] = bytes.Replace(ps[ooxml.WorkbookRels], []byte(`</Relationships>`),
		[]byte(`<Relationship Id="rId2" Type="`+ooxml.RelStyles+`" Target="`+target+`"/></Relationships>`), 1)
	ps[ooxml.ContentTypes] = bytes.Replace(ps[ooxml.ContentTypes], []byte(`</Types>`),
		[]byte(`<Override PartName="/xl/`+target+`" ContentType="`+ooxml.StylesContent+`"/></Types>`), 1)
}

// Programs that write no formatting may leave the style part out, empty,
// or without its lists; excelize then panicked in NewStyle when init added
// planner's styles. planner gives such a workbook the default styles, with
// their relationship and content type, and the user's cells stay as they
// were.
func TestWorkbooksWithoutStyles(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(map[string][]byte)
	}{
		{"no style part", nil},
		{"a relationship to a style part that is missing", func(ps map[string][]byte) { linkStyles(ps, "styles.xml") }},
		{"an empty style part", withStyles("")},
		{"a style part with only a declaration", withStyles(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")},
		{"a style sheet without lists", withStyles(`<?xml version="1.0"?><styleSheet xmlns="` + ooxml.MainNamespace + `"></styleSheet>`)},
		{"an empty style sheet element", withStyles(`<styleSheet xmlns="` + ooxml.MainNamespace + `"/>`)},
		{"empty lists under a prefix", withStyles(`<x:styleSheet xmlns:x="` + ooxml.MainNamespace + `"><x:numFmts count="0"/>` +
			`<x:fonts count="0"/><x:fills></x:fills><x:cellXfs count="0"></x:cellXfs><x:dxfs count="0"/></x:styleSheet>`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "bare.xlsx")
			original := bareWorkbook(t, tc.edit)
			if err := os.WriteFile(path, original, 0o644); err != nil {
				t.Fatal(err)
			}
			in, err := Init(path, units.USD)
			data, was := in.Data, in.Original
			if err != nil {
				t.Fatal(err)
			}
			ps := zipParts(t, data)
			if !bytes.Equal(ps["xl/worksheets/sheet1.xml"], []byte(bareSheet)) {
				t.Error("the user's sheet changed")
			}
			if what := ooxml.PlannersStyles(ps[ooxml.StylesPart]); what != "" {
				t.Errorf("the style part: %s", what)
			}
			if n := strings.Count(string(ps[ooxml.WorkbookRels]), ooxml.RelStyles+`"`); n != 1 {
				t.Errorf("%d relationships to the style part:\n%s", n, ps[ooxml.WorkbookRels])
			}
			if n := strings.Count(string(ps[ooxml.ContentTypes]), `PartName="/xl/styles.xml" ContentType="`+ooxml.StylesContent+`"`); n != 1 {
				t.Errorf("%d content types for the style part:\n%s", n, ps[ooxml.ContentTypes])
			}
			if err := Save(path, data, was); err != nil {
				t.Fatal(err)
			}
			_, out := evaluate(t, path)
			f, err := excelize.OpenReader(bytes.NewReader(out))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for cell, want := range map[string]string{"A1": "cost", "B1": "42"} {
				got, err := f.GetCellValue("Data", cell)
				if err != nil || got != want {
					t.Errorf("Data!%s = %q, %v; want %q", cell, got, err, want)
				}
				if style, err := f.GetCellStyle("Data", cell); err != nil || style != 0 {
					t.Errorf("Data!%s has style %d, %v; want the default, 0", cell, style, err)
				}
			}
			sameOnRerun(t, path, out)
		})
	}
}

// A style part planner cannot add to without changing how the user's cells
// look, or without leaving them in a part no program reads, is refused with
// what to do, and the file is left alone.
func TestStylesPlannerCannotAddTo(t *testing.T) {
	const resave = "open it in Excel or LibreOffice, save it as .xlsx, then run planner again"
	for _, tc := range []struct {
		name string
		edit func(map[string][]byte)
		want string // after "path: "
	}{
		{"styles in another part", func(ps map[string][]byte) {
			ps["xl/looks.xml"] = ooxml.MinimalStyles()
			linkStyles(ps, "looks.xml")
		}, "keeps its styles in xl/looks.xml instead of xl/styles.xml, and planner could not add its own there without damage; " + resave},
		{"a style part the workbook does not use", func(ps map[string][]byte) { ps[ooxml.StylesPart] = ooxml.MinimalStyles() },
			"has a styles part (xl/styles.xml) that its workbook does not use, and planner's styles would bring it into use, changing how your cells look; " + resave},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "odd.xlsx")
			original := bareWorkbook(t, tc.edit)
			if err := os.WriteFile(path, original, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := Init(path, units.USD)
			if err == nil || err.Error() != path+": "+tc.want {
				t.Errorf("got %v\nwant %s: %s", err, path, tc.want)
			}
		})
	}
}

// eval of a workbook that lost its style part (planner's input sheets, saved
// by a program that writes none) gets the default styles too, instead of
// excelize's panic caught as an error.
func TestEvalOfAWorkbookWithoutStyles(t *testing.T) {
	path := newPlan(t)
	original, _ := os.ReadFile(path)
	data := rezip(t, original, func(ps map[string][]byte) {
		delete(ps, ooxml.StylesPart)
		ps[ooxml.WorkbookRels] = []byte(strings.Replace(string(ps[ooxml.WorkbookRels]), `<Relationship Id="rId2" Target="styles.xml" Type="`+ooxml.RelStyles+`"></Relationship>`, "", 1))
	})
	if bytes.Contains(zipParts(t, data)[ooxml.WorkbookRels], []byte(ooxml.RelStyles)) {
		t.Fatal("the test did not take the style relationship out")
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := evaluate(t, path)
	if what := ooxml.PlannersStyles(zipParts(t, out)[ooxml.StylesPart]); what != "" {
		t.Error(what)
	}
}
