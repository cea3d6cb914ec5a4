package workbooks

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
)

// An input cell may hold a formula that is nothing but a reference to
// another cell: init writes the H100 scenarios' capex as =Assumptions!$D$6,
// and users point inputs at a sheet of their own. The value saved with such
// a formula is what the other cell held when a spreadsheet last calculated,
// stale once someone edits that cell with a tool that does not recalculate,
// and missing when the tool drops it. planner reads the cell referred to
// instead, where it can be sure to read what a spreadsheet would; where it
// cannot (a formula filled across cells, which excelize does not shift
// across sheets; a sheet too large to ask), the saved value stands.

// plainReference is a formula that is nothing but a reference to one cell:
// Assumptions!$D$6, 'Price guide'!C3, D6.
var plainReference = regexp.MustCompile(`^(?:(?:'((?:[^']|'')+)'|([^\s!'"()&+\-*/^=<>,;\[\]]+))!)?\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$`)

// plainName is a formula that is nothing but a name (=capex).
var plainName = regexp.MustCompile(`^[A-Za-z_\\][A-Za-z0-9_.]*$`)

// reference is where a followed formula led.
type reference struct {
	first string // the cell the formula names, "Assumptions!D6"; "" when not followed
	last  string // the cell whose value was read, at the end of a chain
}

// followed reads a cell that holds a plain reference (or a defined name
// for one cell) as the cell at the end of the chain holds it now, with
// where it led. Any other cell reads as raw, with no reference.
func (r *reader) followed(at diag.Origin, raw string) (string, reference) {
	sheet, cell := at.Sheet, at.Cell()
	var ref reference
	seen := map[string]bool{}
	for range 8 {
		f := r.sheet(sheet)
		if f == nil || r.sharedFormula(sheet, cell) {
			break
		}
		formula, err := f.GetCellFormula(sheet, cell)
		target, ok := r.target(f, sheet, strings.TrimPrefix(formula, "="))
		if err != nil || !ok {
			break
		}
		sheet, cell = target[0], target[1]
		key := strings.ToLower(sheet) + "!" + cell
		if seen[key] {
			return raw, reference{} // a circle: a spreadsheet shows an error; the saved value stands
		}
		seen[key] = true
		if owned(sheet) {
			r.fail(at, "", "refers to %s!%s, a sheet planner rewrites on every eval, so the input would change with every run; type the number, or refer to a sheet of yours", sheet, cell)
			return raw, reference{}
		}
		g := r.sheet(sheet)
		if g == nil {
			return raw, ref // a sheet the workbook lacks, or too large to ask: the saved value stands
		}
		v, err := g.GetCellValue(sheet, cell, rawOpts)
		if err != nil {
			return raw, ref
		}
		if covered(g, sheet, cell) {
			v = "" // under a merged range's first cell: a spreadsheet reads it empty
		}
		if ref.first == "" {
			ref.first = sheet + "!" + cell
		}
		ref.last, raw = sheet+"!"+cell, strings.TrimSpace(v)
	}
	return raw, ref
}

// target is the sheet and cell a formula refers to, when it is a plain
// reference, or a defined name for one cell, of this workbook.
func (r *reader) target(f *excelize.File, sheet, formula string) ([2]string, bool) {
	if plainName.MatchString(formula) && !plainReference.MatchString(formula) {
		for _, dn := range f.GetDefinedName() {
			if strings.EqualFold(dn.Name, formula) && (dn.Scope == "Workbook" || strings.EqualFold(dn.Scope, sheet)) {
				formula = strings.TrimPrefix(dn.RefersTo, "=")
				break
			}
		}
	}
	m := plainReference.FindStringSubmatch(formula)
	if m == nil {
		return [2]string{}, false
	}
	switch {
	case m[1] != "":
		sheet = strings.ReplaceAll(m[1], "''", "'")
	case m[2] != "":
		sheet = m[2]
	}
	return [2]string{sheet, strings.ToUpper(m[3]) + m[4]}, true
}

// owned reports whether a sheet is one planner writes.
func owned(sheet string) bool {
	for _, s := range sheets.OwnedNames() {
		if strings.EqualFold(s, sheet) {
			return true
		}
	}
	return false
}

// covered reports whether a cell lies under a merged range, other than
// its first cell: excelize reads it as the first cell's value.
func covered(f *excelize.File, sheet, cell string) bool {
	merged, err := f.GetMergeCells(sheet)
	if err != nil {
		return false
	}
	col, row, err := excelize.CellNameToCoordinates(cell)
	if err != nil {
		return false
	}
	for _, m := range merged {
		c1, r1, err1 := excelize.CellNameToCoordinates(m.GetStartAxis())
		c2, r2, err2 := excelize.CellNameToCoordinates(m.GetEndAxis())
		if err1 == nil && err2 == nil && col >= c1 && col <= c2 && row >= r1 && row <= r2 && (col != c1 || row != r1) {
			return true
		}
	}
	return false
}

// sharedCells finds the cells whose formula is shared in a sheet's XML:
// Excel writes a formula filled across cells once, and the others as
// t="shared" pointing at it.
var sharedCells = regexp.MustCompile(`<(?:[\w.-]+:)?c\b[^>]*\br="([A-Za-z]+[0-9]+)"[^>]*>\s*<(?:[\w.-]+:)?f\b[^>]*\bt="shared"`)

// sharedFormula reports whether the cell holds a formula filled across
// cells: excelize shifts only its references without a sheet name, so a
// reference into another sheet would come back as the first cell's. Each
// sheet's XML is searched once for all of them: a search per cell made
// reading a long sheet cost the square of its rows.
func (r *reader) sharedFormula(sheet, cell string) bool {
	key := strings.ToLower(sheet)
	if r.shared == nil {
		r.shared = map[string]map[string]bool{}
	}
	cells, ok := r.shared[key]
	if !ok {
		cells = map[string]bool{}
		for _, m := range sharedCells.FindAllSubmatch(r.sheetXML(sheet), -1) {
			cells[string(m[1])] = true
		}
		r.shared[key] = cells
	}
	return cells[cell]
}

// sheetXML is a sheet's part as the workbook holds it, for what excelize
// does not tell; nil for a sheet too large to ask or not there.
func (r *reader) sheetXML(sheet string) []byte {
	if r.xml == nil {
		r.xml = map[string][]byte{}
		if p, err := ooxml.ReadPackage(r.others.data); err == nil {
			r.parts, r.partOf = p, map[string]string{}
			for name, part := range ooxml.SheetParts(p.Part) {
				r.partOf[strings.ToLower(name)] = part
			}
		}
	}
	key := strings.ToLower(sheet)
	if x, ok := r.xml[key]; ok {
		return x
	}
	var x []byte
	if part, ok := r.partOf[key]; ok && r.bytes[key] <= maxParsedSheet {
		x = r.parts.Part(part)
	}
	r.xml[key] = x
	return x
}

// fromCell says where a value a message is about came from, when the cell
// refers elsewhere: " (in Budget!C10, which this cell refers to)".
func fromCell(ref reference) string {
	if ref.last == "" {
		return ""
	}
	return fmt.Sprintf(" (in %s, which this cell refers to)", ref.last)
}
