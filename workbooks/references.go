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
// across sheets; a sheet too large to ask), the saved value stands. A
// circle of references has no value a spreadsheet could compute, and the
// value saved in each of its cells is another member's: it is refused.

// plainReference is a formula that is nothing but a reference to one cell:
// Assumptions!$D$6, 'Price guide'!C3, D6.
var plainReference = regexp.MustCompile(`^(?:(?:'((?:[^']|'')+)'|([^\s!'"()&+\-*/^=<>,;\[\]]+))!)?\$?([A-Za-z]{1,3})\$?([0-9]{1,7})$`)

// plainName is a formula that is nothing but a name (=capex).
var plainName = regexp.MustCompile(`^[A-Za-z_\\][A-Za-z0-9_.]*$`)

// maxHops is how many references planner follows from one input cell to
// the cell that holds its value. A chain longer than that is refused at
// its first cell, rather than read at a cell in its middle.
const maxHops = 32

// reference is where a followed formula led.
type reference struct {
	first string // the cell the formula names, "Assumptions!D6"; "" when not followed
	last  string // the cell whose value was read, at the end of a chain
	// refused: the chain is a circle, too long, or leads into a sheet
	// planner writes; the problem has been reported at the first cell.
	refused bool
}

// followedCell is what following a cell's references gave, kept so that a
// cell read twice is reported once.
type followedCell struct {
	raw string
	ref reference
}

// followed reads a cell that holds a plain reference (or a defined name
// for one cell) as the cell at the end of the chain holds it now, with
// where it led. Any other cell reads as raw, with no reference. name is
// the input or row the cell belongs to, for messages.
func (r *reader) followed(at diag.Origin, name, raw string) (string, reference) {
	key := cellKey(at.Sheet, at.Cell())
	if done, ok := r.follows[key]; ok {
		if done.ref == (reference{}) {
			return raw, done.ref
		}
		return done.raw, done.ref
	}
	got, ref := r.follow(at, name, raw)
	if r.follows == nil {
		r.follows = map[string]followedCell{}
	}
	r.follows[key] = followedCell{got, ref}
	return got, ref
}

// follow walks the chain of references from at, one cell at a time: every
// cell visited, the first included, is remembered, so that a circle is
// refused naming its cells in order instead of reading whichever member
// the walk stopped at.
func (r *reader) follow(at diag.Origin, name, raw string) (string, reference) {
	sheet, cell := at.Sheet, at.Cell()
	path := []string{sheet + "!" + cell}
	visited := map[string]int{cellKey(sheet, cell): 0}
	var ref reference
	for hop := 0; ; hop++ {
		f := r.sheet(sheet)
		if f == nil || !r.mayHoldFormulas(sheet) {
			return raw, ref // a sheet too large to ask, or a value typed in: it stands
		}
		if r.sharedFormula(sheet, cell) {
			return raw, ref // a formula filled across cells: the saved value stands
		}
		formula, err := f.GetCellFormula(sheet, cell)
		target, ok := r.target(f, sheet, strings.TrimPrefix(formula, "="))
		if err != nil || !ok {
			return raw, ref
		}
		sheet, cell = target[0], target[1]
		if i, circle := visited[cellKey(sheet, cell)]; circle {
			r.refuseCircle(at, name, append(path[i:], path[i]), i > 0)
			return "", reference{refused: true}
		}
		if hop == maxHops {
			r.fail(at, name, "refers through a chain of more than %d cells (%s -> …), more than planner follows; type the number in %s in place of its formula, or here",
				maxHops, strings.Join(path, " -> "), path[len(path)-1])
			return "", reference{refused: true}
		}
		visited[cellKey(sheet, cell)] = len(path)
		path = append(path, sheet+"!"+cell)
		if owned(sheet) {
			r.fail(at, name, "refers to %s!%s, a sheet planner rewrites on every eval, so the input would change with every run; type the number, or refer to a sheet of yours", sheet, cell)
			return "", reference{refused: true}
		}
		g := r.sheet(sheet)
		if g == nil {
			return raw, ref // a sheet the workbook lacks, or too large to ask: the saved value stands
		}
		v, err := r.cellValue(g, sheet, cell)
		if err != nil {
			return raw, ref
		}
		if ref.first == "" {
			ref.first = sheet + "!" + cell
		}
		ref.last, raw = sheet+"!"+cell, strings.TrimSpace(v)
		if r.mayMerge(sheet) && covered(g, sheet, cell) {
			// Under a merged range's first cell: a spreadsheet reads it
			// empty, whatever excelize says it holds.
			raw = ""
			return raw, ref
		}
	}
}

// cellValue is the cell's raw value, as excelize's GetCellValue gives it:
// from the rows already read of a sheet planner read as a table (an input
// cell in Scenarios names one in Assumptions), which asking excelize of one
// cell would parse whole again.
func (r *reader) cellValue(g *excelize.File, sheet, cell string) (string, error) {
	for name, rows := range r.read {
		if !strings.EqualFold(name, sheet) {
			continue
		}
		col, row, err := excelize.CellNameToCoordinates(cell)
		if err != nil {
			break
		}
		if row > len(rows) || col > len(rows[row-1]) {
			return "", nil // past the last cell read of its row: empty, or blank
		}
		return rows[row-1][col-1], nil
	}
	return g.GetCellValue(sheet, cell, rawOpts)
}

// refuseCircle reports a chain of references that comes back to a cell it
// passed: no spreadsheet can compute it, and the value saved in any of its
// cells is another cell's. circle lists the cells in order, the first
// again at the end; into says the input cell leads into the circle rather
// than lying on it. A cell on the circle is told to hold its own number:
// each input cell of the circle is told so, and the advice to all of them
// together breaks it with every input's own value.
func (r *reader) refuseCircle(at diag.Origin, name string, circle []string, into bool) {
	cells := strings.Join(circle, " -> ")
	if into {
		r.fail(at, name, "leads into a circle of references, which no spreadsheet can compute: %s; type the number here, or in one of those cells in place of its formula", cells)
		return
	}
	r.fail(at, name, "lies on a circle of references, which no spreadsheet can compute: %s; type the number here in place of the formula", cells)
}

// cellKey identifies a cell as Excel does, sheet names without case.
func cellKey(sheet, cell string) string { return strings.ToLower(sheet) + "!" + cell }

// splitCell is the sheet and cell of "Sheet!A1"; a sheet's name may hold
// a "!" of its own.
func splitCell(ref string) (sheet, cell string) {
	i := strings.LastIndex(ref, "!")
	return ref[:i], ref[i+1:]
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
		if x := r.sheetXML(sheet); mayShareFormulas(x) {
			for _, m := range sharedCells.FindAllSubmatch(x, -1) {
				cells[string(m[1])] = true
			}
		}
		r.shared[key] = cells
	}
	return cells[cell]
}

// sheetXML is a sheet's part as the workbook holds it, for what excelize
// does not tell; nil for a sheet too large to ask or not there. A sheet the
// read handle holds is taken from it, where it is stored as read; any other
// from the workbook.
func (r *reader) sheetXML(sheet string) []byte {
	if r.xml == nil {
		r.xml = map[string][]byte{}
		r.heldParts.data, r.fileParts.data = r.view, r.others.data
	}
	key := strings.ToLower(sheet)
	if x, ok := r.xml[key]; ok {
		return x
	}
	var x []byte
	if r.bytes[key] <= maxParsedSheet {
		if r.inView[key] && r.view != nil {
			x = r.heldParts.sheet(key)
		} else {
			x = r.fileParts.sheet(key)
		}
	}
	r.xml[key] = x
	return x
}

// sheetParts are a package's sheets' parts, opened when first asked for.
type sheetParts struct {
	data   []byte
	parts  *ooxml.Package
	partOf map[string]string // each sheet's part, by lower-case name
}

// sheet is the part of the sheet of lower-case name key, or nil.
func (s *sheetParts) sheet(key string) []byte {
	if s.partOf == nil {
		s.partOf = map[string]string{}
		if p, err := ooxml.ReadPackage(s.data); err == nil {
			s.parts = p
			for name, part := range ooxml.SheetParts(p.Part) {
				s.partOf[strings.ToLower(name)] = part
			}
		}
	}
	if part, ok := s.partOf[key]; ok {
		return s.parts.Part(part)
	}
	return nil
}

// fromCell says where a value a message is about came from, when the cell
// refers elsewhere: " (in Budget!C10, which this cell refers to)".
func fromCell(ref reference) string {
	if ref.last == "" {
		return ""
	}
	return fmt.Sprintf(" (in %s, which this cell refers to)", ref.last)
}
