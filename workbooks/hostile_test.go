package workbooks

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"planner/diag"
	"planner/units"
	"planner/workbooks/internal/ooxml"
)

// readHostile writes data to a file and reads it, returning the error, how
// much memory the process took from the system meanwhile, and the time.
func readHostile(t *testing.T, name string, data []byte) (error, uint64, time.Duration) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := Read(path)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
		t.Errorf("%s: reading changed the file", name)
	}
	grown := uint64(0)
	if after.Sys > before.Sys {
		grown = after.Sys - before.Sys
	}
	return err, grown, took
}

// planBytes is planner's default workbook.
func planBytes(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile(newPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// zipWith builds a zip of parts, with a raw entry whose header says it
// inflates to declared bytes while its data is a deflate stream of zeros.
func zipWith(t *testing.T, parts map[string][]byte, raw string, zeros int, declared uint64) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range parts {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(content)
	}
	if raw != "" {
		var stream bytes.Buffer
		fw, _ := flate.NewWriter(&stream, flate.BestCompression)
		fw.Write(make([]byte, zeros))
		fw.Close()
		h := &zip.FileHeader{Name: raw, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(make([]byte, zeros)),
			CompressedSize64: uint64(stream.Len()), UncompressedSize64: declared}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(stream.Bytes())
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestHostileWorkbooks(t *testing.T) {
	plan := planBytes(t)
	parts := zipParts(t, plan)
	billionLaughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">` +
		`<!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>` +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t></is></c></row></sheetData></worksheet>`
	for _, tc := range []struct {
		name string
		data []byte
		want string // the start of the message after "path: "
	}{
		{"truncated.xlsx", plan[:len(plan)/2], "is a damaged zip archive (zip: not a valid zip file); it may have been cut short while copying"},
		{"bomb.xlsx", zipWith(t, parts, "xl/media/image9.png", 1<<20, 4<<30), "inflates to more than 1024 MB (a zip bomb, or not a workbook planner should open); planner reads workbooks up to that"},
		{"lying.xlsx", zipWith(t, map[string][]byte{"[Content_Types].xml": parts["[Content_Types].xml"], "xl/workbook.xml": parts["xl/workbook.xml"],
			"xl/_rels/workbook.xml.rels": parts["xl/_rels/workbook.xml.rels"]}, "xl/worksheets/sheet1.xml", 64<<20, 1000),
			"its part xl/worksheets/sheet1.xml cannot be read (zip: not a valid zip file); the workbook is damaged: open it in Excel or LibreOffice and save it again"},
		{"types.xlsx", rezip(t, plan, func(ps map[string][]byte) {
			ct := ps["[Content_Types].xml"]
			ps["[Content_Types].xml"] = ct[:len(ct)-5]
		}), "is a damaged zip archive (XML syntax error on line 2: unexpected EOF); it may have been cut short while copying"},
		// excelize reads no DTD and expands no entity: the sheet is just empty.
		{"laughs.xlsx", rezip(t, plan, func(ps map[string][]byte) { ps["xl/worksheets/sheet1.xml"] = []byte(billionLaughs) }), "Assumptions!A1: the header row has no \"name\" column"},
		{"opendocument.xlsx", zipWith(t, map[string][]byte{"mimetype": []byte("application/vnd.oasis.opendocument.spreadsheet"), "content.xml": []byte("<x/>")}, "", 0, 0),
			"is an OpenDocument file (.ods); save it as .xlsx"},
		{"legacy.xlsx", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 4096)...), "is an Excel 97-2003 workbook (.xls); open it in Excel or LibreOffice and save it as .xlsx"},
	} {
		err, allocated, took := readHostile(t, tc.name, tc.data)
		if err == nil {
			t.Errorf("%s: read without complaint", tc.name)
			continue
		}
		_, msg, _ := strings.Cut(err.Error(), tc.name+": ")
		if !strings.HasPrefix(msg, tc.want) {
			t.Errorf("%s: %v\nwant it to start %q", tc.name, err, tc.want)
		}
		if allocated > 512<<20 || took > 10*time.Second {
			t.Errorf("%s: reading took %v and allocated %d MB", tc.name, took, allocated>>20)
		}
		t.Logf("%s: %v, %d MB, %v", tc.name, took.Round(time.Millisecond), allocated>>20, err)
	}
}

// A sheet formatted down to its millionth row reads in bounded time and
// memory; a sheet with more rows of content than any cost model is refused.
func TestInputSheetsWithAMillionRows(t *testing.T) {
	slow(t, "reads a million rows")
	plan := planBytes(t)
	var empty strings.Builder
	for r := 100; r <= 1_000_000; r++ {
		fmt.Fprintf(&empty, `<row r="%d" s="1" customFormat="1"/>`, r)
	}
	formatted := rezip(t, plan, func(ps map[string][]byte) {
		ps["xl/worksheets/sheet1.xml"] = bytes.Replace(ps["xl/worksheets/sheet1.xml"], []byte("</sheetData>"), []byte(empty.String()+"</sheetData>"), 1)
	})
	err, grown, took := readHostile(t, "formatted.xlsx", formatted)
	if err != nil {
		t.Errorf("a million formatted empty rows: %v", err)
	}
	if grown > 512<<20 || took > time.Minute {
		t.Errorf("a million empty rows took %v and %d MB", took, grown>>20)
	}
	t.Logf("a million empty rows: %v, %d MB more memory", took, grown>>20)

	var filled strings.Builder
	for r := 100; r <= 100+maxInputRows; r++ {
		fmt.Fprintf(&filled, `<row r="%d"><c r="A%d" t="inlineStr"><is><t>x%d</t></is></c><c r="B%d"><v>1</v></c></row>`, r, r, r, r)
	}
	full := rezip(t, plan, func(ps map[string][]byte) {
		ps["xl/worksheets/sheet1.xml"] = bytes.Replace(ps["xl/worksheets/sheet1.xml"], []byte("</sheetData>"), []byte(filled.String()+"</sheetData>"), 1)
	})
	err, _, _ = readHostile(t, "full.xlsx", full)
	if err == nil || !strings.HasSuffix(err.Error(), "full.xlsx: Assumptions: has more than 50000 rows with content; planner reads input sheets up to that: delete what does not belong to the table") {
		t.Errorf("got %v", err)
	}
}

// utf16 encodes s as UTF-16 little-endian, with a byte-order mark when bom
// is true, or big-endian without one.
func utf16Encoded(s string, bom bool) []byte {
	var out []byte
	if bom {
		out = []byte{0xFF, 0xFE}
	}
	for _, r := range s {
		if bom {
			out = append(out, byte(r), byte(r>>8))
		} else {
			out = append(out, byte(r>>8), byte(r))
		}
	}
	return out
}

// truncatedEntry rebuilds a package with one entry's deflated bytes cut in
// half, its header still declaring the whole part.
func truncatedEntry(t *testing.T, data []byte, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for part, content := range zipParts(t, data) {
		if part != name {
			w, _ := zw.Create(part)
			w.Write(content)
			continue
		}
		var stream bytes.Buffer
		fw, _ := flate.NewWriter(&stream, flate.BestCompression)
		fw.Write(content)
		fw.Close()
		half := stream.Bytes()[:stream.Len()/2]
		h := &zip.FileHeader{Name: part, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(content),
			CompressedSize64: uint64(len(half)), UncompressedSize64: uint64(len(content))}
		w, err := zw.CreateRaw(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(half)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// excelize reads a part that ends early without a word and works on what
// it got: half the style part made NewStyle panic, half an input sheet would
// be a model with rows missing. planner reads every part it gives excelize
// to its end first, and refuses one that stops short, naming it.
func TestHalfAPartIsRefused(t *testing.T) {
	plan := planBytes(t)
	for _, tc := range []struct {
		name, part string
		run        func(path string) error
	}{
		{"init", ooxml.StylesPart, func(path string) error { _, err := Init(path, units.USD); return err }},
		{"read", "xl/worksheets/sheet1.xml", func(path string) error { _, err := Read(path); return err }},
	} {
		path := filepath.Join(t.TempDir(), "half.xlsx")
		data := truncatedEntry(t, plan, tc.part)
		if tc.name == "init" {
			data = truncatedEntry(t, bareWorkbook(t, withStyles(string(ooxml.MinimalStyles()))), tc.part)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want := path + ": its part " + tc.part + " cannot be read (unexpected EOF); the workbook is damaged: open it in Excel or LibreOffice and save it again"
		if err := tc.run(path); err == nil || err.Error() != want {
			t.Errorf("%s: got %v\nwant %s", tc.name, err, want)
		}
	}
}

// An input sheet is read out to Excel's last column, XFD, since a Scenarios
// sheet has a column per scenario; what it costs to hold is bounded by its
// span, every row counted out to its last cell with content. Cells
// formatted out to the last column but empty are no content.
func TestInputSheetsWithTooManyColumns(t *testing.T) {
	slow(t, "reads sheets at the column limit")
	plan := planBytes(t)
	withCells := func(cells func(row int) string, rows int) []byte {
		return rezip(t, plan, func(ps map[string][]byte) {
			sheet := string(ps["xl/worksheets/sheet1.xml"])
			at := strings.Index(sheet, `<row r="2"`)
			end := at + strings.Index(sheet[at:], "</row>")
			var more strings.Builder
			for r := 100; r < 100+rows; r++ {
				fmt.Fprintf(&more, `<row r="%d">%s</row>`, r, cells(r))
			}
			sheet = sheet[:end] + cells(2) + sheet[end:]
			ps["xl/worksheets/sheet1.xml"] = []byte(strings.Replace(sheet, "</sheetData>", more.String()+"</sheetData>", 1))
		})
	}
	formatted := func(r int) string { return fmt.Sprintf(`<c r="IW%d" s="1"/><c r="XFD%d" s="1"/>`, r, r) }
	if err, _, _ := readHostile(t, "formatted.xlsx", withCells(formatted, 300)); err != nil {
		t.Errorf("cells formatted out to XFD: %v", err)
	}
	var wide strings.Builder
	for c := 250; c <= 16384; c++ {
		fmt.Fprintf(&wide, `<c r="%s2"><v>%d</v></c>`, diag.ColumnName(c), c)
	}
	if err, _, _ := readHostile(t, "wide.xlsx", withCells(func(r int) string { return strings.ReplaceAll(wide.String(), `2">`, fmt.Sprint(r)+`">`) }, 0)); err != nil {
		t.Errorf("a row of numbers out to XFD: %v", err)
	}
	far := func(r int) string { return fmt.Sprintf(`<c r="XFD%d"><v>1</v></c>`, r) }
	err, grown, took := readHostile(t, "far.xlsx", withCells(far, 300))
	// Row 2 and rows 100 on reach XFD, 16,384 cells each: the refusal names
	// the first of them, and following its advice (every row that reaches
	// that far cut back to the table) leaves a workbook planner reads.
	want := "far.xlsx: Assumptions!XFD2: holds content out to column XFD, first in this row; counting every row from column A to its last cell with content, the sheet passes 2000000 cells, more than planner reads of an input sheet: delete the cells right of the table in every row that reaches that far"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v\nwant …%s", err, want)
	}
	cut := func(int) string { return "" }
	if err, _, _ := readHostile(t, "cut.xlsx", withCells(cut, 300)); err != nil {
		t.Errorf("after the stray cells were cut back to the table: %v", err)
	}
	t.Logf("300 rows out to XFD: %v, %d MB more memory", took, grown>>20)
}

// Rows and columns within bounds can still make a sheet of millions of
// cells: planner reads up to a million with content from one input sheet.
func TestInputSheetsWithTooManyCells(t *testing.T) {
	slow(t, "reads sheets past the cell limit")
	plan := planBytes(t)
	var rows strings.Builder
	for r := 100; r < 100+maxInputCells/200+1; r++ {
		fmt.Fprintf(&rows, `<row r="%d">`, r)
		for c := 50; c < 250; c++ {
			fmt.Fprintf(&rows, `<c r="%s%d"><v>1</v></c>`, diag.ColumnName(c), r)
		}
		rows.WriteString(`</row>`)
	}
	full := rezip(t, plan, func(ps map[string][]byte) {
		ps["xl/worksheets/sheet1.xml"] = bytes.Replace(ps["xl/worksheets/sheet1.xml"], []byte("</sheetData>"), []byte(rows.String()+"</sheetData>"), 1)
	})
	err, grown, took := readHostile(t, "cells.xlsx", full)
	if err == nil || !strings.HasSuffix(err.Error(), "cells.xlsx: Assumptions: has more than 1000000 cells with content; planner reads input sheets up to that: delete what does not belong to the table") {
		t.Errorf("got %v", err)
	}
	t.Logf("a million cells: %v, %d MB more memory", took, grown>>20)
}

// Reading, excelize indexes every shared string, about a hundred bytes
// each: a shared-strings part of ten million strings (170 MB unpacked, 0.4
// MB packed) took 930 MB. planner reads up to four million.
func TestTooManySharedStrings(t *testing.T) {
	slow(t, "reads millions of shared strings")
	data := bareWorkbook(t, func(ps map[string][]byte) {
		ps["xl/sharedStrings.xml"] = []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` + strings.Repeat("<si/>", ooxml.MaxSharedStrings+1) + `</sst>`)
	})
	err, _, _ := readHostile(t, "strings.xlsx", data)
	want := "strings.xlsx: xl/sharedStrings.xml holds 4000001 strings, more than the 4000000 planner reads, so planner cannot read this workbook: keep its sheets in a workbook of their own (planner init plan.xlsx)"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("got %v\nwant …%s", err, want)
	}
}

// excelize parses whole the workbook-wide parts (workbook, styles, ...),
// into a model many times their size: one past 16 MB unpacked is refused,
// naming it, before anything reads it, by init and by every read.
func TestAWorkbookPartTooLarge(t *testing.T) {
	padding := "<!--" + strings.Repeat(" ", ooxml.MaxWorkbookPart) + "-->"
	styles := string(ooxml.MinimalStyles()[:len(ooxml.MinimalStyles())-len("</styleSheet>")]) + padding + "</styleSheet>"
	path := filepath.Join(t.TempDir(), "styles.xlsx")
	if err := os.WriteFile(path, bareWorkbook(t, withStyles(styles)), 0o644); err != nil {
		t.Fatal(err)
	}
	want := path + ": xl/styles.xml unpacks to 17 MB, more than the 16 MB planner reads of such a part, so planner cannot add its sheets to this workbook: keep them in a workbook of their own (planner init plan.xlsx)"
	if _, err := Init(path, units.USD); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	plan := rezip(t, planBytes(t), func(ps map[string][]byte) {
		ps[ooxml.WorkbookPart] = append(ps[ooxml.WorkbookPart], padding...)
	})
	err, _, _ := readHostile(t, "names.xlsx", plan)
	if err == nil || !strings.HasSuffix(err.Error(), "names.xlsx: xl/workbook.xml unpacks to 17 MB, more than the 16 MB planner reads of such a part, so planner cannot read this workbook: keep planner's sheets in a workbook of their own (planner init plan.xlsx)") {
		t.Errorf("got %v", err)
	}
}

// planner's own sheets are rewritten whole, so however large they have
// grown (a Results of 3,000 offers unpacks to 141 MB) eval writes them
// again, as it writes them in the workbook without their old rows.
func TestPlannersLargeSheetIsRewritten(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 65 MB sheet")
	}
	_, once := evaluate(t, newPlan(t))
	results := ""
	for sheet, part := range ooxml.SheetParts(func(name string) []byte { return zipParts(t, once)[name] }) {
		if sheet == "Results" {
			results = part
		}
	}
	var padded []byte
	for _, pad := range []string{"", "<!--" + strings.Repeat("</sheetData> ", ooxml.MaxPartInMemory/13+1) + "-->"} {
		data := rezip(t, once, func(ps map[string][]byte) {
			ps[results] = bytes.Replace(ps[results], []byte("<sheetData>"), []byte("<sheetData>"+pad), 1)
		})
		path := filepath.Join(t.TempDir(), "plan.xlsx")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, again := evaluate(t, path)
		if pad == "" {
			padded = again
		} else if !bytes.Equal(again, padded) {
			t.Errorf("the Results sheet of %d MB was rewritten otherwise than without its old rows", len(pad)>>20)
		}
	}
}
