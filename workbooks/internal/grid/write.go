package grid

import (
	"iter"
	"slices"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/pagesetup"
)

// NameComment marks the defined names planner writes. LibreOffice drops
// the comment when it saves, so a name is also planner's when it points into
// planner's own sheet under a name planner writes there now.
const NameComment = "written by planner eval"

// Write writes each grid into f and points its defined names at it. It
// returns the names it manages; every other name is the user's (or one init
// made for an input) and is never changed or removed. Excel compares names
// without case, so planner does too.
func Write(f *excelize.File, grids []*Grid) (managed map[string]bool, warnings diag.Diagnostics, err error) {
	_, managed, warnings, err = write(f, slices.Values(grids), false)
	return managed, warnings, err
}

// WriteForPacking is Write for a package ooxml packs, of the grids as they
// come, which it returns: each grid's rows are left out of its sheet's part,
// written as XML and held compressed for the packing to stream them into
// the zip (see WriteRows and ooxml.Sheet.Rows), and its cells let go
// before the next grid is taken. A grid with a cell only excelize can
// write goes into the part as Write puts it.
func WriteForPacking(f *excelize.File, grids iter.Seq[*Grid]) (written []*Grid, managed map[string]bool, warnings diag.Diagnostics, err error) {
	return write(f, grids, true)
}

func write(f *excelize.File, grids iter.Seq[*Grid], packing bool) (written []*Grid, managed map[string]bool, warnings diag.Diagnostics, err error) {
	st := newStyles(f)
	for g := range grids {
		if err := g.write(f, st, packing); err != nil {
			return nil, nil, nil, ooxml.Unlaid("its "+g.sheet+" sheet", err)
		}
		written = append(written, g)
	}
	managed, warnings, err = nameAll(f, written)
	if err != nil {
		return nil, nil, nil, err
	}
	return written, managed, warnings, nil
}

// nameAll points the names the grids define at their cells and returns
// the names planner manages (see Write).
func nameAll(f *excelize.File, grids []*Grid) (managed map[string]bool, warnings diag.Diagnostics, err error) {
	wanted, order, warnings := wantedNames(grids)
	managed = map[string]bool{}
	existing := map[string]excelize.DefinedName{}
	for _, dn := range f.GetDefinedName() {
		if dn.Scope != "Workbook" {
			continue
		}
		key := strings.ToLower(dn.Name)
		existing[key] = dn
		w, isWanted := wanted[key]
		switch {
		case ours(dn, isWanted, grids):
			managed[dn.Name] = true
			if w.ref != dn.RefersTo || w.name != dn.Name {
				if err := f.DeleteDefinedName(&excelize.DefinedName{Name: dn.Name}); err != nil {
					return nil, nil, ooxml.Unlaid("the name "+dn.Name, err)
				}
				delete(existing, key)
			}
		case !isWanted && intoGrids(dn.RefersTo, grids):
			warnings = append(warnings, diag.Warningf(diag.Origin{}, "", "the name %s points into planner's sheet (%s), whose rows planner rewrites; it may no longer point at what it meant: check it, or delete it if planner made it",
				dn.Name, dn.RefersTo))
		}
	}
	var adding []excelize.DefinedName
	for _, key := range order {
		w := wanted[key]
		if dn, ok := existing[key]; ok {
			if !managed[dn.Name] {
				warnings = append(warnings, diag.Warningf(diag.Origin{}, "", "the workbook already defines the name %s (%s); planner left it and did not point it at %s", dn.Name, dn.RefersTo, w.ref))
			}
			continue
		}
		managed[w.name] = true
		adding = append(adding, excelize.DefinedName{Name: w.name, RefersTo: w.ref, Comment: w.comment})
	}
	if err := addNames(f, adding); err != nil {
		return nil, nil, err
	}
	return managed, warnings, nil
}

// addNames defines the workbook-scoped names, in order, after the
// workbook's own, as SetDefinedName defines them one by one. That compares
// each name with every name defined before it, so a sheet of thousands of
// names would cost their square: each is set here alone in the workbook
// instead, after the same check against the names it already has.
func addNames(f *excelize.File, names []excelize.DefinedName) error {
	taken := map[string]bool{} // the names SetDefinedName finds in a new name's scope
	for _, dn := range f.GetDefinedName() {
		if dn.Scope == "Workbook" || dn.Scope == "" {
			taken[dn.Name] = true
		}
	}
	wb := f.WorkBook // GetDefinedName read it
	defined := wb.DefinedNames
	defer func() { wb.DefinedNames = defined }()
	for _, dn := range names {
		if taken[dn.Name] {
			return ooxml.Unlaid("the name "+dn.Name, excelize.ErrDefinedNameDuplicate)
		}
		taken[dn.Name] = true
		wb.DefinedNames = nil
		if err := f.SetDefinedName(&dn); err != nil {
			return ooxml.Unlaid("the name "+dn.Name, err)
		}
		if defined == nil {
			defined = wb.DefinedNames
		} else {
			defined.DefinedName = append(defined.DefinedName, wb.DefinedNames.DefinedName...)
		}
	}
	return nil
}

type wantedName struct{ name, ref, comment string }

// wantedNames are the names the grids define, keyed by their lower-case
// spelling, in order. Two cells wanting one name (two offers whose labels
// make the same name, or names that differ only in case) keep it for the
// first, with a warning.
func wantedNames(grids []*Grid) (map[string]wantedName, []string, diag.Diagnostics) {
	wanted := map[string]wantedName{}
	var order []string
	var warnings diag.Diagnostics
	for _, g := range grids {
		for _, n := range g.names {
			w := wantedName{name: n.name, ref: Absolute(g.sheet, n.col, n.row)}
			if g.owned {
				w.comment = NameComment
			}
			key := strings.ToLower(n.name)
			if first, dup := wanted[key]; dup {
				warnings = append(warnings, diag.Warningf(diag.Origin{}, "", "both %s and %s would be named %s (Excel ignores case); the first keeps the name, the second is left without one: rename one of them",
					first.ref, w.ref, n.name))
				continue
			}
			wanted[key] = w
			order = append(order, key)
		}
	}
	return wanted, order, warnings
}

// ours reports whether planner wrote the defined name dn: it says so in its
// comment, or (LibreOffice drops comments) it is a name planner writes now
// and points into one of planner's sheets.
func ours(dn excelize.DefinedName, wanted bool, grids []*Grid) bool {
	return dn.Comment == NameComment || wanted && intoGrids(dn.RefersTo, grids)
}

func intoGrids(ref string, grids []*Grid) bool {
	for _, g := range grids {
		if g.owned && strings.HasPrefix(ref, Quote(g.sheet)+"!") {
			return true
		}
	}
	return false
}

// write streams the grid into its sheet, creating the sheet when needed.
// An existing sheet keeps its place and part name; its cells, data
// validations and panes are replaced. With packing, its rows are held for
// WriteRows where it can write them.
func (g *Grid) write(f *excelize.File, st *styles, packing bool) error {
	g.held = nil
	if len(g.rows) > excelize.TotalRows {
		return excelize.ErrMaxRows
	}
	if idx, _ := f.GetSheetIndex(g.sheet); idx < 0 {
		if _, err := f.NewSheet(g.sheet); err != nil {
			return err
		}
	} else if err := f.DeleteDataValidation(g.sheet); err != nil {
		return err
	}
	for _, dv := range g.validations {
		if err := f.AddDataValidation(g.sheet, dv); err != nil {
			return err
		}
	}
	if err := pagesetup.Apply(f, g.pages()); err != nil {
		return err
	}
	if err := g.shade(f, st); err != nil {
		return err
	}
	// The widths go into the sheet's part when it is packed (ooxml.Pack):
	// excelize takes the cube of the columns to set them.
	if len(g.widths) > excelize.MaxColumns {
		return excelize.ErrColumnNumber
	}
	for _, w := range g.widths {
		if w > excelize.MaxColumnWidth {
			return excelize.ErrColumnWidth
		}
	}
	merges, heights := g.settled()
	sw, err := f.NewStreamWriter(g.sheet)
	if err != nil {
		return err
	}
	if g.freezeRows > 0 || g.freezeCols > 0 {
		if err := sw.SetPanes(freeze(g.freezeCols, g.freezeRows)); err != nil {
			return err
		}
	}
	kept := false
	if packing {
		if kept, err = g.hold(f, st, heights); err != nil {
			return err
		}
	}
	if !kept {
		if err := g.setRows(sw, st, heights); err != nil {
			return err
		}
	}
	for _, m := range merges {
		if err := sw.MergeCell(m[0], m[1]); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	if kept && g.large() {
		return g.freeze(heights)
	}
	return nil
}

// setRows gives the stream writer the grid's rows, from row 1.
func (g *Grid) setRows(sw *excelize.StreamWriter, st *styles, heights map[int]float64) error {
	for i, r := range g.rows {
		if len(r) == 0 {
			continue
		}
		values := make([]any, len(r))
		for j, c := range r {
			if !written(c) {
				continue
			}
			id, err := st.id(c.style)
			if err != nil {
				return err
			}
			values[j] = excelize.Cell{StyleID: id, Value: c.value, Formula: c.Formula()}
		}
		var opts []excelize.RowOpts
		if h, ok := heights[i+1]; ok {
			opts = append(opts, excelize.RowOpts{Height: h})
		}
		if err := sw.SetRow(CellName(1, i+1), values, opts...); err != nil {
			return err
		}
	}
	return nil
}

func freeze(cols, rows int) *excelize.Panes {
	pane := "bottomLeft"
	if cols > 0 {
		pane = "bottomRight"
	}
	return &excelize.Panes{Freeze: true, XSplit: cols, YSplit: rows,
		TopLeftCell: CellName(cols+1, rows+1), ActivePane: pane,
		Selection: []excelize.Selection{{SQRef: CellName(cols+1, rows+1), ActiveCell: CellName(cols+1, rows+1), Pane: pane}}}
}
