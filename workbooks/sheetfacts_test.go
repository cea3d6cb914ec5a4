package workbooks

import (
	"slices"
	"testing"
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
