package workbooks

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/ooxml"
)

// A sheet is cleared of formulas only when no element of it is named f,
// whatever its prefix or what follows the name; elements that begin with f
// and the text of cells do not count.
func TestMayBeFormula(t *testing.T) {
	for _, c := range []struct {
		xml  string
		want bool
	}{
		{`<worksheet><sheetData><row r="1"><c r="A1"><v>285000</v></c></row></sheetData></worksheet>`, false},
		{`<worksheet><sheetData><row r="1"><c r="A1"><f>B1*2</f><v>4</v></c></row></sheetData></worksheet>`, true},
		{`<x:worksheet><x:sheetData><x:row><x:c r="A1"><x:f>B1</x:f></x:c></x:row></x:sheetData></x:worksheet>`, true},
		{`<c r="A1"><f t="shared" ref="A1:A9" si="0">B1</f></c>`, true},
		{`<c r="A1"><f/></c>`, true},
		{"<c r=\"A1\"><f\n>B1</f></c>", true},
		{`<headerFooter><firstHeader>f</firstHeader><firstFooter/></headerFooter><c><is><t>&lt;f&gt;</t></is></c>`, false},
		{`<worksheet><cols><col min="1" max="1" width="9"/></cols><sheetData/><filterColumn/></worksheet>`, false},
	} {
		if got := mayBeFormula([]byte(c.xml)); got != c.want {
			t.Errorf("mayBeFormula(%s) = %v, want %v", c.xml, got, c.want)
		}
	}
}

// Every style a sheet names is found once: a cell's and a row's s, a
// column's style, after any white space; the ends of other attributes'
// names (spans, cols) are not styles, and an index that is no number is -1.
func TestStyleIndices(t *testing.T) {
	xml := `<worksheet><cols><col min="1" max="2" style="7" width="9"/></cols><sheetData>` +
		`<row r="1" spans="1:3" s="4" customFormat="1"><c r="A1" s="10" t="s"><v>0</v></c><c r="B1"` + "\n\t" +
		`s="12"><v>1</v></c><c r="C1" s="10"><v>2</v></c><c r="D1" s="x"/></row></sheetData></worksheet>`
	if got, want := styleIndices([]byte(xml)), []int{7, 4, 10, 12, -1}; !slices.Equal(got, want) {
		t.Errorf("styleIndices = %v, want %v", got, want)
	}
}

// TestStringCellsAgreeWithExcelize holds the scan that says which cells
// are typed as text to excelize's GetCellType, cell by cell, for every
// sheet of the default workbook and of every corpus workbook it can tell
// of: not a cell more, not a cell fewer.
func TestStringCellsAgreeWithExcelize(t *testing.T) {
	slow(t, "reads every sheet of the corpus cell by cell")
	files := []string{}
	for _, folder := range corpusFolders {
		found, _ := filepath.Glob(filepath.Join(corpusDir, "..", folder, "*.xls[xm]"))
		files = append(files, found...)
	}
	if len(files) == 0 {
		t.Fatal("no corpus workbooks at " + corpusDir)
	}
	told, sheetsSeen, compared, asText := 0, 0, 0, 0
	check := func(name string, data []byte) {
		p, err := ooxml.ReadPackage(data)
		if err != nil {
			return
		}
		f, err := excelize.OpenReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		defer f.Close()
		for sheet, part := range ooxml.SheetParts(p.Part) {
			x := p.Part(part)
			if x == nil || len(x) > 4<<20 {
				continue
			}
			sheetsSeen++
			texts, ok := stringCells(x)
			if !ok {
				continue
			}
			told++
			rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
			if err != nil {
				continue
			}
			// The cells textCell asks of: those whose value reads as a
			// number.
			for r, row := range rows {
				for c, raw := range row {
					if _, err := strconv.ParseFloat(strings.TrimSpace(raw), 64); err != nil {
						continue
					}
					ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
					typ, err := f.GetCellType(sheet, ref)
					want := err == nil && (typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString)
					if texts[ref] != want {
						t.Errorf("%s, %s!%s (%q): the scan says text %v, excelize %v", name, sheet, ref, raw, texts[ref], want)
					}
					compared++
					if want {
						asText++
					}
				}
			}
		}
	}
	check("the default workbook", planBytes(t))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err == nil {
			check(filepath.Base(file), data)
		}
	}
	t.Logf("%d of %d sheets told by the scan, %d cells compared, %d of them numbers typed as text", told, sheetsSeen, compared, asText)
	if asText == 0 {
		t.Error("no number typed as text among the cells compared: the comparison proves nothing of them")
	}
	if told < sheetsSeen/2 {
		t.Errorf("the scan told of only %d of %d sheets", told, sheetsSeen)
	}
}

// The scan names the cells typed as text, whatever the prefix, quotes or
// order of attributes, and gives up where excelize would answer otherwise
// or it cannot read every cell.
func TestStringCells(t *testing.T) {
	for _, c := range []struct {
		xml  string
		want []string // nil: cannot tell
	}{
		{`<sheetData><row r="6"><c r="A6" t="s"><v>0</v></c><c r="B6"><v>285000</v></c><c t='inlineStr' r='C6'><is><t>7</t></is></c></row></sheetData>`, []string{"A6", "C6"}},
		{`<x:sheetData><x:row r="1"><x:c r="A1" s="3" t="s"><x:v>1</x:v></x:c><x:c r="B1" t="str"><x:f>A1</x:f><x:v>1</x:v></x:c></x:row></x:sheetData>`, []string{"A1"}},
		{`<cols><col min="1" max="2" width="9"/></cols><sheetData><row r="2"><c r="B2" t="n"><v>1</v></c></row></sheetData>`, []string{}},
		{`<sheetData><row><c t="s"><v>0</v></c></row></sheetData>`, nil},
		{`<sheetData><row r="1"><c r="a1" t="s"><v>0</v></c></row></sheetData>`, nil},
		{`<sheetData><row r="1"><c r="A1" t=s><v>0</v></c></row></sheetData>`, nil},
		{`<sheetData><!-- <c r="A1" t="s"> --><row r="1"><c r="B1"><v>1</v></c></row></sheetData>`, nil},
		{`<sheetData><row r="1"><c r="B1"><v>1</v></c></row></sheetData><mergeCells count="1"><mergeCell ref="A1:B1"/></mergeCells>`, nil},
	} {
		got, ok := stringCells([]byte(c.xml))
		if ok != (c.want != nil) {
			t.Errorf("%s: ok %v, want %v", c.xml, ok, c.want != nil)
			continue
		}
		names := slices.Sorted(maps.Keys(got))
		if ok && !slices.Equal(names, c.want) && !(len(names) == 0 && len(c.want) == 0) {
			t.Errorf("%s: %v, want %v", c.xml, names, c.want)
		}
	}
}
