package workbooks

import (
	"archive/zip"
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/units"
	"planner/workbooks/internal/ooxml"
)

// Workbooks Excel and LibreOffice open that planner once refused: Strict
// Open XML, XML stored as UTF-16, a workbook part outside xl/. planner
// keeps each, and says what it changed besides its sheets.

// transitionalToStrict are the namespaces and relationship types of a bare
// workbook as Excel's Strict Open XML Spreadsheet names them.
var transitionalToStrict = strings.NewReplacer(
	`xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`, `xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main"`,
	`xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`, `xmlns:r="http://purl.oclc.org/ooxml/officeDocument/relationships"`,
	`xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"`, `xmlns="http://purl.oclc.org/ooxml/officeDocument/extendedProperties"`,
	`xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"`, `xmlns:vt="http://purl.oclc.org/ooxml/officeDocument/docPropsVTypes"`,
	`Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties"`, `Type="http://purl.oclc.org/ooxml/officeDocument/relationships/extendedProperties"`,
	`Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/`, `Type="http://purl.oclc.org/ooxml/officeDocument/relationships/`,
)

// strictSheet holds a text that spells Strict's namespace: a cell's text
// is not a namespace, and stays as it is.
var strictSheet = bareSheetWith(`<c r="A1" t="inlineStr"><is><t>http://purl.oclc.org/ooxml/spreadsheetml/main</t></is></c><c r="B1"><v>42</v></c>`)

// appProperties are document properties as Excel writes them.
const appProperties = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
	`<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` +
	`<Application>Microsoft Excel</Application><TitlesOfParts><vt:vector size="1" baseType="lpstr"><vt:lpstr>Data</vt:lpstr></vt:vector></TitlesOfParts></Properties>`

// transitionalWorkbook is the bare workbook with styles, document
// properties and strictSheet, as Transitional names them: what planner
// must make of strictWorkbook.
func transitionalWorkbook(t *testing.T) map[string][]byte {
	t.Helper()
	ps := zipParts(t, bareWorkbook(t, withStyles(string(ooxml.MinimalStyles()))))
	ps["xl/worksheets/sheet1.xml"] = []byte(strictSheet)
	ps["docProps/app.xml"] = []byte(appProperties)
	ps["_rels/.rels"] = bytes.Replace(ps["_rels/.rels"], []byte(`</Relationships>`),
		[]byte(`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/></Relationships>`), 1)
	ps[ooxml.ContentTypes] = bytes.Replace(ps[ooxml.ContentTypes], []byte(`</Types>`),
		[]byte(`<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/></Types>`), 1)
	return ps
}

// strictWorkbook is transitionalWorkbook saved as Strict Open XML.
func strictWorkbook(t *testing.T) []byte {
	t.Helper()
	ps := transitionalWorkbook(t)
	for name, content := range ps {
		ps[name] = []byte(transitionalToStrict.Replace(string(content)))
	}
	ps[ooxml.WorkbookPart] = bytes.Replace(ps[ooxml.WorkbookPart], []byte(`xmlns:r=`), []byte(`conformance="strict" xmlns:r=`), 1)
	return zipWith(t, ps, "", 0, 0)
}

// strictLeft finds what only Strict says: a Strict namespace declared, a
// Strict relationship type, the workbook's conformance.
var strictLeft = regexp.MustCompile(`xmlns(:\w+)?="http://purl\.oclc\.org|Type="http://purl\.oclc\.org|conformance=`)

func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A Strict workbook (Excel's Strict Open XML Spreadsheet) is kept, written
// back as Transitional throughout (a package of both is one Excel
// refuses), every part of the user's that planner does not rewrite exactly
// the Transitional form of what it was, and a warning says so.
func TestStrictWorkbookComesBackTransitional(t *testing.T) {
	path := writeFile(t, "strict.xlsx", strictWorkbook(t))
	in, err := Init(path, units.USD)
	data, warnings := in.Data, in.Warnings
	if err != nil {
		t.Fatal(err)
	}
	want := path + `: was saved as Strict Open XML; planner saved it as Transitional Open XML, the usual form of an .xlsx, which Excel and LibreOffice open as before: ` +
		`_rels/.rels, docProps/app.xml, xl/_rels/workbook.xml.rels, xl/styles.xml, xl/workbook.xml and xl/worksheets/sheet1.xml now name their namespaces and relationship types the Transitional way, ` +
		`and the workbook no longer says conformance="strict"; nothing else of yours changed`
	if len(warnings) != 1 || warnings[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", warnings, want)
	}
	if err := Save(path, data, in.Original); err != nil {
		t.Fatal(err)
	}
	b, evaluated := evaluate(t, path)
	transitional := transitionalWorkbook(t)
	for _, out := range [][]byte{data, evaluated} {
		for name, content := range zipParts(t, out) {
			if m := strictLeft.Find(content); m != nil {
				t.Errorf("%s still says %s", name, m)
			}
		}
		for _, name := range []string{"xl/worksheets/sheet1.xml", "docProps/app.xml"} {
			if got := zipParts(t, out)[name]; !bytes.Equal(got, transitional[name]) {
				t.Errorf("%s is\n%s\nwant the Transitional form of the user's part\n%s", name, got, transitional[name])
			}
		}
	}
	// (excelize reads a text that spells a Strict namespace as the
	// Transitional one: the sheet's part, compared above, holds it as the
	// user typed it.)
	f := openBytes(t, evaluated)
	if v, _ := f.GetCellValue("Data", "B1"); v != "42" {
		t.Errorf("Data!B1 reads %q", v)
	}
	if err := Save(path, evaluated, b.Original()); err != nil {
		t.Fatal(err)
	}
	if _, again := evaluate(t, path); !bytes.Equal(again, evaluated) {
		t.Error("a second eval changed the workbook")
	}
}

// A Strict namespace planner does not know the Transitional form of is
// refused, naming the part and the namespace: converting the rest would
// leave a package of both.
func TestStrictNamespaceUnknown(t *testing.T) {
	ps := zipParts(t, strictWorkbook(t))
	ps["xl/worksheets/sheet1.xml"] = bytes.Replace(ps["xl/worksheets/sheet1.xml"], []byte(`<worksheet `),
		[]byte(`<worksheet xmlns:f="http://purl.oclc.org/ooxml/spreadsheetml/future" `), 1)
	path := writeFile(t, "future.xlsx", zipWith(t, ps, "", 0, 0))
	want := path + ": is saved as Strict Open XML, which planner writes back as Transitional, and its part xl/worksheets/sheet1.xml cannot be: " +
		"it uses the Strict namespace http://purl.oclc.org/ooxml/spreadsheetml/future, which planner does not know the Transitional form of; " +
		"in Excel use File > Save As > Excel Workbook (.xlsx), then run planner again"
	if _, err := Init(path, units.USD); err == nil || err.Error() != want {
		t.Errorf("init: got %v\nwant %s", err, want)
	}
}

// planner holds the Transitional form of a Strict workbook's XML in
// memory: past 256 MB of it, the workbook is refused, saying so, before
// planner holds more.
func TestStrictWorkbookTooLargeToConvert(t *testing.T) {
	slow(t, "inflates 260 MB of Strict XML")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range zipParts(t, strictWorkbook(t)) {
		w, _ := zw.Create(name)
		w.Write(content)
	}
	spaces := bytes.Repeat([]byte(" "), 1<<20)
	for i := 2; i <= 6; i++ { // sheets no relationship names: planner converts them all the same
		w, _ := zw.Create(fmt.Sprintf("xl/worksheets/sheet%d.xml", i))
		w.Write([]byte(`<worksheet xmlns="http://purl.oclc.org/ooxml/spreadsheetml/main">`))
		for range 52 {
			w.Write(spaces)
		}
		w.Write([]byte(`<sheetData/></worksheet>`))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := writeFile(t, "large.xlsx", buf.Bytes())
	want := path + ": is saved as Strict Open XML, which planner writes back as Transitional, and its XML unpacks to more than the 256 MB planner converts, " +
		"so planner cannot work on this workbook: open it in Excel or LibreOffice, save it as .xlsx (Excel Workbook), then run planner again"
	if _, err := Init(path, units.USD); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// inUTF16 stores a part as UTF-16, its declaration saying so.
func inUTF16(part []byte, bom bool) []byte {
	return utf16Encoded(strings.Replace(string(part), `encoding="UTF-8"`, `encoding="UTF-16"`, 1), bom)
}

// Excel Mobile and some libraries store a workbook's XML as UTF-16, which
// planner refused. It is kept: planner reads it, rewrites the parts it
// must in UTF-8 and says which, and every other part (here the user's
// sheet, in UTF-16) goes back byte for byte.
func TestUTF16Workbook(t *testing.T) {
	var sheet []byte
	data := bareWorkbook(t, func(ps map[string][]byte) {
		ps[ooxml.WorkbookPart] = inUTF16(ps[ooxml.WorkbookPart], true)
		ps[ooxml.ContentTypes] = inUTF16(ps[ooxml.ContentTypes], false)
		ps["xl/worksheets/sheet1.xml"] = inUTF16(ps["xl/worksheets/sheet1.xml"], true)
		sheet = ps["xl/worksheets/sheet1.xml"]
	})
	path := writeFile(t, "utf16.xlsx", data)
	in, err := Init(path, units.USD)
	out, warnings := in.Data, in.Warnings
	if err != nil {
		t.Fatal(err)
	}
	want := path + ": stored [Content_Types].xml and xl/workbook.xml as UTF-16; planner rewrote them in UTF-8, the encoding Excel writes, their XML declarations saying so; " +
		"the other part stored as UTF-16 is byte for byte as it was"
	if len(warnings) != 1 || warnings[0].Error() != want {
		t.Errorf("warnings %v\nwant %s", warnings, want)
	}
	if err := Save(path, out, in.Original); err != nil {
		t.Fatal(err)
	}
	_, evaluated := evaluate(t, path)
	for _, got := range [][]byte{out, evaluated} {
		ps := zipParts(t, got)
		if !bytes.Equal(ps["xl/worksheets/sheet1.xml"], sheet) {
			t.Error("the user's sheet, stored as UTF-16, changed")
		}
		if wb := ps[ooxml.WorkbookPart]; !bytes.HasPrefix(wb, []byte(`<?xml version="1.0" encoding="UTF-8"`)) || !bytes.Contains(wb, []byte(`<sheet name="Data"`)) {
			t.Errorf("the workbook part is not the user's in UTF-8:\n%q", wb)
		}
		normal, _, _, err := ooxml.Normalised(path, got)
		if err != nil {
			t.Fatal(err)
		}
		f := openBytes(t, normal)
		if a, b := cellValue(f, "Data", "A1"), cellValue(f, "Data", "B1"); a != "cost" || b != "42" {
			t.Errorf("Data reads %q, %q; want cost, 42", a, b)
		}
	}
}

func cellValue(f *excelize.File, sheet, cell string) string {
	v, _ := f.GetCellValue(sheet, cell)
	return v
}

// A part stored as UTF-16 that does not decode to the text it was (half a
// surrogate pair) is refused, naming it: read as it stands, it would say
// U+FFFD where the user wrote something else.
func TestUTF16PartThatDoesNotDecode(t *testing.T) {
	data := bareWorkbook(t, func(ps map[string][]byte) {
		sheet := inUTF16(ps["xl/worksheets/sheet1.xml"], true)
		at := bytes.Index(sheet, utf16Encoded("cost", true)[2:])
		ps["xl/worksheets/sheet1.xml"] = append(append(append([]byte{}, sheet[:at]...), 0x00, 0xD8), sheet[at:]...)
	})
	path := writeFile(t, "surrogate.xlsx", data)
	want := path + ": its part xl/worksheets/sheet1.xml is stored as UTF-16, but it is not whole UTF-16 text, " +
		"so planner cannot work on this workbook: open it in Excel or LibreOffice, save it as .xlsx (Excel Workbook), then run planner again"
	if _, err := Read(path); err == nil || err.Error() != want {
		t.Errorf("read: got %v\nwant %s", err, want)
	}
	if _, err := Init(path, units.USD); err == nil || err.Error() != want {
		t.Errorf("init: got %v\nwant %s", err, want)
	}
}

// elsewhere is the bare workbook with its workbook part at main and the
// rest of its parts in main's folder, its package's relationship and
// content types saying so.
func elsewhere(t *testing.T, main string) []byte {
	t.Helper()
	folder := strings.TrimPrefix(filepath.Dir(main)+"/", "./")
	ps := map[string][]byte{}
	for name, content := range zipParts(t, bareWorkbook(t, nil)) {
		switch name {
		case ooxml.ContentTypes:
			content = bytes.ReplaceAll(content, []byte(`PartName="/xl/workbook.xml"`), []byte(`PartName="/`+main+`"`))
			content = bytes.ReplaceAll(content, []byte(`PartName="/xl/`), []byte(`PartName="/`+folder))
		case "_rels/.rels":
			content = bytes.Replace(content, []byte(`Target="xl/workbook.xml"`), []byte(`Target="`+main+`"`), 1)
		case ooxml.WorkbookPart:
			name = main
		case ooxml.WorkbookRels:
			name = folder + "_rels/" + filepath.Base(main) + ".rels"
		default:
			name = folder + strings.TrimPrefix(name, "xl/")
		}
		ps[name] = content
	}
	return zipWith(t, ps, "", 0, 0)
}

// A workbook part outside xl/ (or under another name), which the package's
// relationships name, is kept: every part of the user's under its name,
// the user's sheet byte for byte, and planner's sheets beside the
// workbook's own.
func TestWorkbookPartElsewhere(t *testing.T) {
	for _, main := range []string{"wtf/workbook.xml", "workbook.xml", "xl/book.xml"} {
		t.Run(main, func(t *testing.T) {
			original := elsewhere(t, main)
			path := writeFile(t, "elsewhere.xlsx", original)
			in, err := Init(path, units.USD)
			out, warnings := in.Data, in.Warnings
			if err != nil {
				t.Fatal(err)
			}
			if len(warnings) > 0 {
				t.Errorf("warnings: %v", warnings)
			}
			if err := Save(path, out, in.Original); err != nil {
				t.Fatal(err)
			}
			_, evaluated := evaluate(t, path)
			folder := strings.TrimPrefix(filepath.Dir(main)+"/", "./")
			before := zipParts(t, original)
			for _, got := range [][]byte{out, evaluated} {
				after := zipParts(t, got)
				for name := range before {
					if after[name] == nil {
						t.Errorf("%s is gone", name)
					}
				}
				if sheet := folder + "worksheets/sheet1.xml"; !bytes.Equal(after[sheet], before[sheet]) {
					t.Errorf("the user's sheet %s changed", sheet)
				}
				if !bytes.Contains(after["_rels/.rels"], []byte(`Target="`+main+`"`)) {
					t.Errorf("_rels/.rels no longer names %s:\n%s", main, after["_rels/.rels"])
				}
				for name := range after {
					if _, ok := before[name]; !ok && name != ooxml.ContentTypes && !strings.HasPrefix(name, folder) {
						t.Errorf("planner added %s outside the workbook's folder %q", name, folder)
					}
				}
			}
			b, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(b.Sheets[:2], []string{"Data", "Assumptions"}) {
				t.Errorf("sheets %v", b.Sheets)
			}
		})
	}
}

// A relationship that names its target by an absolute path into the
// workbook's folder could not point right while planner works on the
// workbook under xl/: such a workbook is refused, saying which.
func TestWorkbookPartElsewhereWithAnAbsoluteTarget(t *testing.T) {
	ps := zipParts(t, elsewhere(t, "wtf/workbook.xml"))
	ps["wtf/_rels/workbook.xml.rels"] = bytes.Replace(ps["wtf/_rels/workbook.xml.rels"], []byte(`Target="worksheets/sheet1.xml"`), []byte(`Target="/wtf/worksheets/sheet1.xml"`), 1)
	path := writeFile(t, "absolute.xlsx", zipWith(t, ps, "", 0, 0))
	want := path + ": keeps its workbook in wtf/workbook.xml, and the relationship rId1 in wtf/_rels/workbook.xml.rels points at wtf/worksheets/sheet1.xml in a way planner cannot keep while it adds its sheets (by an absolute path, or from outside the workbook's folder), " +
		"so planner cannot work on this workbook: open it in Excel or LibreOffice, save it as .xlsx (Excel Workbook), then run planner again"
	if _, err := Init(path, units.USD); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// What a zip that is no workbook is, said as it is: a Word document, a
// package whose part names use backslashes.
func TestNotAWorkbookSaysWhatItIs(t *testing.T) {
	docx := rezip(t, bareWorkbook(t, nil), func(ps map[string][]byte) {
		ps[ooxml.ContentTypes] = bytes.Replace(ps[ooxml.ContentTypes], []byte("spreadsheetml.sheet.main+xml"), []byte("wordprocessingml.document.main+xml"), 1)
	})
	backslashes := map[string][]byte{}
	for name, content := range zipParts(t, bareWorkbook(t, nil)) {
		backslashes[strings.ReplaceAll(name, "/", `\`)] = content
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"report.xlsx", docx, "is a Word document (.docx), not a workbook"},
		{"backslashes.xlsx", zipWith(t, backslashes, "", 0, 0), `is a zip archive whose part names use backslashes (_rels\.rels), which an xlsx package may not, so planner cannot read it as a workbook; if a spreadsheet program opens it, save it from there as .xlsx`},
	} {
		path := writeFile(t, tc.name, tc.data)
		if _, err := Read(path); err == nil || err.Error() != path+": "+tc.want {
			t.Errorf("got %v\nwant %s: %s", err, path, tc.want)
		}
	}
}

// LibreOffice opens what planner makes of a Strict workbook, of one stored
// as UTF-16 and of one kept outside xl/, and reads the user's cells as it
// read them before.
func TestKeptFormsOpenInLibreOffice(t *testing.T) {
	if _, err := exec.LookPath("soffice"); err != nil {
		t.Skip("no soffice: install libreoffice-calc-nogui")
	}
	slow(t, "opens workbooks in LibreOffice")
	dir := t.TempDir()
	utf16 := bareWorkbook(t, func(ps map[string][]byte) {
		for name, content := range ps {
			ps[name] = inUTF16(content, true)
		}
	})
	for name, original := range map[string][]byte{"strict": strictWorkbook(t), "utf16": utf16, "elsewhere": elsewhere(t, "wtf/workbook.xml")} {
		before := filepath.Join(dir, "before", name+".xlsx")
		after := filepath.Join(dir, "after", name+".xlsx")
		for _, p := range []string{before, after} {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(before, original, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(after, original, 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := Init(after, units.USD)
		data := in.Data
		if err != nil {
			t.Fatal(err)
		}
		if err := Save(after, data, in.Original); err != nil {
			t.Fatal(err)
		}
		b, evaluated := evaluate(t, after)
		if err := Save(after, evaluated, b.Original()); err != nil {
			t.Fatal(err)
		}
	}
	profile := "file://" + filepath.Join(dir, "profile")
	for _, folder := range []string{"before", "after"} {
		books, _ := filepath.Glob(filepath.Join(dir, folder, "*.xlsx"))
		args := append([]string{"-env:UserInstallation=" + profile, "--headless", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
			"--outdir", filepath.Join(dir, folder)}, books...)
		if out, err := exec.Command("soffice", args...).CombinedOutput(); err != nil {
			t.Fatalf("soffice: %v\n%s", err, out)
		}
	}
	for _, name := range []string{"strict", "utf16", "elsewhere"} {
		want := readCSV(t, filepath.Join(dir, "before", name+"-Data.csv"))
		if !reflect.DeepEqual(want, [][]string{{want[0][0], "42"}}) || (want[0][0] != "cost" && want[0][0] != "http://purl.oclc.org/ooxml/spreadsheetml/main") {
			t.Fatalf("%s: LibreOffice read the user's sheet before as %q", name, want)
		}
		if got := readCSV(t, filepath.Join(dir, "after", name+"-Data.csv")); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: LibreOffice reads the user's sheet as %q, before %q", name, got, want)
		}
		results := readCSV(t, filepath.Join(dir, "after", name+"-Results.csv"))
		if len(results) < 3 || !strings.HasPrefix(results[1][0], "planner test · inputs ") {
			t.Errorf("%s: LibreOffice reads Results as %q", name, results[:min(len(results), 3)])
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
