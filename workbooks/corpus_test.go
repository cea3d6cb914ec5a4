package workbooks

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/units"
	"planner/workbooks/internal/ooxml"
)

// corpusDir holds real workbooks written by other programs, chosen to
// cover features; wild/ beside it holds 200 more from other projects' test
// suites, not chosen for planner. They live beside the project and are
// never committed into it.
const corpusDir = "../../shared/corpus/files"

// corpusFolders are the corpus folders the round trip covers.
var corpusFolders = []string{"files", "wild"}

// refused are the corpus workbooks planner must refuse, by folder and name,
// each with the start of its message after "path: " (it then says what to
// do). Every other workbook of the corpus must be kept. No writer could
// keep these: they are not workbooks, are encrypted, name their parts in a
// way no xlsx package may, or have a structure the user protected against
// new sheets.
var refused = map[string]string{
	"files/poi__60320-protected.xlsx":            "is encrypted with a password",
	"files/phpspreadsheet__form_pass_print.xlsm": "the workbook's structure is protected, which forbids adding sheets",
	"files/phpspreadsheet__issue.3720.xlsx":      "the workbook's structure is protected, which forbids adding sheets",

	"wild/calamine__issue_530.xlsx":           "is a zip archive whose part names use backslashes",
	"wild/exceljs__missing-bits.xlsx":         "is a zip archive but not an Excel workbook",
	"wild/calamine__pass_protected.xlsx":      "is encrypted with a password",
	"wild/roo__type_excel.xlsm":               "is an Excel 97-2003 workbook (.xls)",
	"wild/roo__type_excel.xlsx":               "is an Excel 97-2003 workbook (.xls)",
	"wild/roo__type_openoffice.xlsm":          "is an OpenDocument file (.ods)",
	"wild/roo__type_openoffice.xlsx":          "is an OpenDocument file (.ods)",
	"wild/closedxml__WorkbookProtection.xlsx": "the workbook's structure is protected, which forbids adding sheets",
}

// TestCorpusRoundTrip adds planner's sheets to a copy of every corpus
// workbook with init, evaluates it, and proves that nothing of the user's
// changed: every part excelize does not rewrite is byte-identical, under
// its name, and every user sheet's cells and every defined name read back
// the same; evaluating again changes nothing. (A Strict workbook comes back
// Transitional: its parts are compared as planner reads them.) A refused
// workbook is left as it was, and its message names the file and what is
// in the way, and says what to do.
func TestCorpusRoundTrip(t *testing.T) {
	slow(t, "round-trips the whole corpus")
	var files []string
	for _, folder := range corpusFolders {
		found, _ := filepath.Glob(filepath.Join(corpusDir, "..", folder, "*"))
		files = append(files, found...)
	}
	if len(files) == 0 {
		t.Skipf("no corpus at %s (it lives beside the project, not in it)", filepath.Dir(corpusDir))
	}
	listed := 0
	for _, src := range files {
		key := filepath.Base(filepath.Dir(src)) + "/" + filepath.Base(src)
		want, refuse := refused[key]
		if refuse {
			listed++
		}
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			original, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), filepath.Base(src))
			if err := os.WriteFile(path, original, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := roundTrip(t, path)
			if refuse {
				if err == nil || !strings.HasPrefix(err.Error(), path+": "+want) || !strings.Contains(err.Error(), "; ") {
					t.Fatalf("got %v\nwant a refusal %s: %s…; and what to do", err, path, want)
				}
				if now, _ := os.ReadFile(path); !bytes.Equal(now, original) {
					t.Fatal("a refused workbook changed on disk")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			sameUserContent(t, original, out)
			sameOnRerun(t, path, out)
		})
	}
	if listed != len(refused) {
		t.Errorf("%d of the %d workbooks listed as refused are in the corpus", listed, len(refused))
	}
	t.Logf("%d workbooks: %d kept, %d refused", len(files), len(files)-len(refused), len(refused))
}

// roundTrip runs init and eval on path and returns the final bytes.
func roundTrip(t *testing.T, path string) ([]byte, error) {
	in, err := Init(path, units.USD)
	data, was := in.Data, in.Original
	if err != nil {
		return nil, err
	}
	if err := Save(path, data, was); err != nil {
		return nil, err
	}
	b, err := Read(path)
	if err != nil {
		return nil, err
	}
	_, out := evaluateBook(t, b)
	return out, nil
}

// sameOnRerun evaluates the evaluated workbook again: eval(eval(x)) must
// equal eval(x) byte for byte, charts included.
func sameOnRerun(t *testing.T, path string, out []byte) {
	t.Helper()
	if err := saveOver(t, path, out); err != nil {
		t.Fatal(err)
	}
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	_, again := evaluateBook(t, b)
	if bytes.Equal(again, out) {
		return
	}
	before, after := zipParts(t, out), zipParts(t, again)
	for name := range after {
		if !bytes.Equal(before[name], after[name]) {
			t.Errorf("a second eval changed %s", name)
		}
	}
	for name := range before {
		if after[name] == nil {
			t.Errorf("a second eval dropped %s", name)
		}
	}
}

// sameUserContent compares the user's parts of a workbook before and after
// as planner reads them (see ooxml.Normalised): a workbook whose parts are
// stored as UTF-16, or kept outside xl/, reads as any other. Every part
// comes back under its name, and, but in a Strict workbook (Transitional
// now), every part planner does not rewrite byte for byte as it was.
func sameUserContent(t *testing.T, original, final []byte) {
	t.Helper()
	normal, names, strict, err := ooxml.Normalised("original", original)
	if err != nil {
		t.Fatal(err)
	}
	normalFinal, _, _, err := ooxml.Normalised("final", final)
	if err != nil {
		t.Fatal(err)
	}
	now := zipParts(t, final)
	for name, content := range zipParts(t, original) {
		as := name
		if n, ok := names[name]; ok {
			as = n
		}
		switch {
		case now[name] == nil && as != ooxml.CalcChainPart:
			t.Errorf("part %s is gone, or under another name", name)
		case !strict && !ooxml.Rewritten(as) && !bytes.Equal(content, now[name]):
			t.Errorf("part %s changed", name)
		}
	}
	original, final = normal, normalFinal
	before, after := zipParts(t, original), zipParts(t, final)
	styled := false
	for name, content := range before {
		if ooxml.Canonical(name) == ooxml.StylesPart {
			styled = hasCellFormats(content)
		}
		if ooxml.Rewritten(name) {
			continue
		}
		if !bytes.Equal(content, after[name]) {
			t.Errorf("part %s changed", name)
		}
	}
	a, err := excelize.OpenReader(bytes.NewReader(original), excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := excelize.OpenReader(bytes.NewReader(final), excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// A workbook without cell formats (styled is false) gets the default
	// ones, which its cells then have; before, excelize knew of none to
	// tell.
	for _, sheet := range a.GetSheetList() {
		ra, errA := a.GetRows(sheet)
		rb, errB := b.GetRows(sheet)
		if (errA == nil) != (errB == nil) || !reflect.DeepEqual(ra, rb) {
			t.Errorf("sheet %s reads back differently", sheet)
		}
		sameSheetFeatures(t, a, b, sheet, ra, styled)
	}
	kept := map[string]bool{}
	for _, n := range definedNames(b) {
		kept[n] = true
	}
	for _, n := range definedNames(a) {
		if !kept[n] {
			t.Errorf("defined name %s was lost", n)
		}
	}
}

// hasCellFormats reports whether a style part lists cell formats: without
// them planner gives the workbook the default ones.
func hasCellFormats(part []byte) bool {
	root, err := ooxml.Locate(part, 2)
	if err != nil || ooxml.BlankXML(part) {
		return false
	}
	xfs := root.Child("cellXfs")
	return xfs != nil && len(xfs.Kids) > 0
}

// sameSheetFeatures compares what a user sheet holds besides its values:
// merged cells, data validations, conditional formats, and every cell's
// formula, hyperlink and style (by index and by what the style says).
func sameSheetFeatures(t *testing.T, a, b *excelize.File, sheet string, rows [][]string, styled bool) {
	t.Helper()
	same := func(what string, x, y any, errX, errY error) {
		if (errX == nil) != (errY == nil) || !reflect.DeepEqual(x, y) {
			t.Errorf("sheet %s: its %s read back differently", sheet, what)
		}
	}
	if len(rows) > 2000 {
		// excelize parses a large sheet into its model for each of these,
		// taking seconds; its part was compared byte for byte above.
		return
	}
	ma, errA := a.GetMergeCells(sheet)
	mb, errB := b.GetMergeCells(sheet)
	same("merged cells", ma, mb, errA, errB)
	va, errA := a.GetDataValidations(sheet)
	vb, errB := b.GetDataValidations(sheet)
	same("data validations", va, vb, errA, errB)
	ca, errA := a.GetConditionalFormats(sheet)
	cb, errB := b.GetConditionalFormats(sheet)
	same("conditional formats", ca, cb, errA, errB)
	checked := 0
	for r, row := range rows {
		for c := range row {
			if checked++; checked > 1500 {
				return // a sample is enough: the sheet's part is compared byte for byte above
			}
			cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
			fa, errA := a.GetCellFormula(sheet, cell)
			fb, errB := b.GetCellFormula(sheet, cell)
			same(cell+" formula", fa, fb, errA, errB)
			la, ta, errA := a.GetCellHyperLink(sheet, cell)
			lb, tb, errB := b.GetCellHyperLink(sheet, cell)
			same(cell+" hyperlink", [2]any{la, ta}, [2]any{lb, tb}, errA, errB)
			sa, errA := a.GetCellStyle(sheet, cell)
			sb, errB := b.GetCellStyle(sheet, cell)
			same(cell+" style index", sa, sb, errA, errB)
			if errA == nil && errB == nil && styled {
				xa, errA := a.GetStyle(sa)
				xb, errB := b.GetStyle(sb)
				same(cell+" style", xa, xb, errA, errB)
			}
		}
	}
}

// definedNames lists a workbook's defined names as name, scope and
// reference.
func definedNames(f *excelize.File) []string {
	var out []string
	for _, dn := range f.GetDefinedName() {
		out = append(out, dn.Name+" "+dn.Scope+" "+dn.RefersTo)
	}
	return out
}

// TestHostileCorpus reads every workbook excelize cannot open or panics on:
// each gets an error naming the file, and none crashes planner.
func TestHostileCorpus(t *testing.T) {
	slow(t, "reads the whole hostile corpus")
	files, _ := filepath.Glob(filepath.Join(corpusDir, "..", "hostile", "*"))
	if len(files) == 0 {
		t.Skip("no hostile corpus at ../../shared/corpus/hostile (it lives beside the project, not in it)")
	}
	for _, path := range files {
		_, err := Read(path)
		if err == nil {
			t.Errorf("%s: read without complaint", path)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, "; ") {
			t.Errorf("%s: the error does not name the file and say what to do: %s", path, msg)
		}
	}
}

// TestRefusalsAreTheSameEveryRun adds planner's sheets to every hostile
// workbook several times: where planner refuses, it names the same part
// each time, however Go orders the package's parts.
func TestRefusalsAreTheSameEveryRun(t *testing.T) {
	slow(t, "reads the hostile corpus twice")
	files, _ := filepath.Glob(filepath.Join(corpusDir, "..", "hostile", "*"))
	if len(files) == 0 {
		t.Skip("no hostile corpus at ../../shared/corpus/hostile (it lives beside the project, not in it)")
	}
	for _, path := range files {
		_, first := Init(path, units.USD)
		if first == nil {
			continue
		}
		for range 5 {
			if _, err := Init(path, units.USD); err == nil || err.Error() != first.Error() {
				t.Fatalf("%s: refused first with\n%v\nthen with\n%v", path, first, err)
			}
		}
	}
}
