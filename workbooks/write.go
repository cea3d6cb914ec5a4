package workbooks

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// WriteOptions change how eval writes.
type WriteOptions struct {
	// Force lets planner replace a sheet that has the name of one of its own
	// (Results) but was not made by planner.
	Force bool
}

// Write returns the workbook with planner's sheets rewritten from out. The
// user's sheets are never parsed by the handle that writes, and the result
// is verified against the original before it is returned.
func (b *Book) Write(out Output, opts WriteOptions) ([]byte, error) {
	grids := []*grid{resultsGrid(out)}
	if len(out.Sizing) > 0 || b.owned[SheetSizing] {
		grids = append(grids, sizingGrid(out))
	}
	if len(out.Deployments) > 0 || b.owned[SheetCosts] {
		grids = append(grids, costsGrid(out))
	}
	if len(out.MonteCarlo) > 0 {
		grids = append(grids, montecarloGrid(out))
	}
	if w := out.WhatIfs; w != nil {
		grids = append(grids, sensitivityGrid(out), dataTablesGrid(out))
		if w.Curve != nil {
			grids = append(grids, breakevenGrid(out))
		}
		grids = append(grids, goalSeekGrid(out))
	}
	for _, g := range grids {
		for s := range b.foreign {
			if strings.EqualFold(s, g.sheet) && !opts.Force {
				return nil, fmt.Errorf("%s: the sheet %s was not made by planner, and planner writes its results there; rename your sheet, or pass --force to let planner replace it",
					b.Path, s)
			}
		}
	}
	var sheets []string
	for _, g := range grids {
		sheets = append(sheets, g.sheet)
	}
	stripped, err := stripDrawings(b.data, sheets)
	if err != nil {
		return nil, fmt.Errorf("%s: taking out planner's old charts: %w", b.Path, err)
	}
	if stripped, err = fixStyleCounts(stripped); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Path, err)
	}
	f, err := open(b.Path, stripped, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	managed, warnings, err := writeGrids(f, grids)
	if err != nil {
		return nil, fmt.Errorf("%s: writing planner's sheets: %w", b.Path, err)
	}
	b.Warnings = append(b.Warnings, warnings...)
	data, err := finish(b.Path, f)
	if err != nil {
		return nil, err
	}
	if data, err = drawCharts(data, grids); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Path, err)
	}
	if data, err = pruneCalcChain(data, sheets); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Path, err)
	}
	owned := map[string]bool{}
	for _, g := range grids {
		owned[g.sheet] = true
	}
	if err := verify(b.Path, b.data, data, owned, managed); err != nil {
		return nil, err
	}
	b.Written = nil
	for _, g := range grids {
		b.Written = append(b.Written, g.sheet)
	}
	return data, nil
}

// nameComment marks the defined names planner writes. LibreOffice drops
// the comment when it saves, so a name is also planner's when it points into
// planner's own sheet under a name planner writes there now.
const nameComment = "written by planner eval"

// writeGrids writes each grid and points its defined names at it. It
// returns the names it manages; every other name is the user's (or one init
// made for an input) and is never changed or removed.
func writeGrids(f *excelize.File, grids []*grid) (managed map[string]bool, warnings []string, err error) {
	st := newStyles(f)
	for _, g := range grids {
		if err := g.write(f, st); err != nil {
			return nil, nil, err
		}
	}
	wanted, order := wantedNames(grids)
	managed = map[string]bool{}
	existing := map[string]excelize.DefinedName{}
	for _, dn := range f.GetDefinedName() {
		if dn.Scope != "Workbook" {
			continue
		}
		existing[dn.Name] = dn
		if ours(dn, wanted, grids) {
			managed[dn.Name] = true
			if wanted[dn.Name].ref != dn.RefersTo {
				if err := f.DeleteDefinedName(&excelize.DefinedName{Name: dn.Name}); err != nil {
					return nil, nil, err
				}
				delete(existing, dn.Name)
			}
		}
	}
	for _, name := range order {
		w := wanted[name]
		if dn, ok := existing[name]; ok {
			if !managed[name] {
				warnings = append(warnings, fmt.Sprintf("the workbook already defines the name %s (%s); planner left it and did not point it at %s", name, dn.RefersTo, w.ref))
			}
			continue
		}
		managed[name] = true
		if err := f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: w.ref, Comment: w.comment}); err != nil {
			return nil, nil, fmt.Errorf("defining the name %s: %w", name, err)
		}
	}
	return managed, warnings, nil
}

type wantedName struct{ ref, comment string }

func wantedNames(grids []*grid) (map[string]wantedName, []string) {
	wanted := map[string]wantedName{}
	var order []string
	for _, g := range grids {
		for _, n := range g.names {
			w := wantedName{ref: absolute(g.sheet, n.col, n.row)}
			if g.owned {
				w.comment = nameComment
			}
			wanted[n.name] = w
			order = append(order, n.name)
		}
	}
	return wanted, order
}

// ours reports whether planner wrote the defined name dn.
func ours(dn excelize.DefinedName, wanted map[string]wantedName, grids []*grid) bool {
	if dn.Comment == nameComment {
		return true
	}
	if _, ok := wanted[dn.Name]; !ok {
		return false
	}
	for _, g := range grids {
		if g.owned && strings.HasPrefix(dn.RefersTo, quoteSheet(g.sheet)+"!") {
			return true
		}
	}
	return false
}

// finish serialises f with its zip entries in a fixed order.
func finish(path string, f *excelize.File) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
	}
	data, err := repack(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
	}
	return data, nil
}
