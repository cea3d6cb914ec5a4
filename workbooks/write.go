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
	for s := range b.foreign {
		if !opts.Force {
			return nil, fmt.Errorf("%s: the sheet %s was not made by planner, and planner writes its results there; rename your sheet, or pass --force to let planner replace it",
				b.Path, s)
		}
	}
	f, err := open(b.Path, b.data, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	grids := []*grid{resultsGrid(out)}
	warnings, err := writeGrids(f, grids)
	if err != nil {
		return nil, fmt.Errorf("%s: writing %s: %w", b.Path, SheetResults, err)
	}
	b.Warnings = append(b.Warnings, warnings...)
	data, err := finish(b.Path, f)
	if err != nil {
		return nil, err
	}
	owned := map[string]bool{}
	for _, g := range grids {
		owned[g.sheet] = true
	}
	if err := verify(b.Path, b.data, data, owned); err != nil {
		return nil, err
	}
	return data, nil
}

// writeGrids writes each grid and points its defined names at it. A name
// the user defined elsewhere in the workbook is left alone, with a warning.
func writeGrids(f *excelize.File, grids []*grid) ([]string, error) {
	st := newStyles(f)
	var warnings []string
	for _, g := range grids {
		if err := g.write(f, st); err != nil {
			return nil, err
		}
	}
	existing := map[string]excelize.DefinedName{}
	for _, dn := range f.GetDefinedName() {
		if dn.Scope == "Workbook" {
			existing[dn.Name] = dn
		}
	}
	for _, g := range grids {
		// Names that point into this sheet and are no longer wanted go.
		wanted := map[string]bool{}
		for _, n := range g.names {
			wanted[n.name] = true
		}
		for _, dn := range f.GetDefinedName() {
			if dn.Scope == "Workbook" && !wanted[dn.Name] && pointsInto(dn.RefersTo, g.sheet) {
				if err := f.DeleteDefinedName(&excelize.DefinedName{Name: dn.Name}); err != nil {
					return nil, err
				}
			}
		}
		for _, n := range g.names {
			ref := absolute(g.sheet, n.col, n.row)
			dn, ok := existing[n.name]
			switch {
			case ok && dn.RefersTo == ref:
				continue
			case ok && !pointsInto(dn.RefersTo, g.sheet):
				warnings = append(warnings, fmt.Sprintf("the workbook already defines the name %s (%s); planner did not point it at %s", n.name, dn.RefersTo, ref))
				continue
			case ok:
				if err := f.DeleteDefinedName(&excelize.DefinedName{Name: n.name}); err != nil {
					return nil, err
				}
			}
			if err := f.SetDefinedName(&excelize.DefinedName{Name: n.name, RefersTo: ref}); err != nil {
				return nil, fmt.Errorf("defining the name %s: %w", n.name, err)
			}
		}
	}
	return warnings, nil
}

func pointsInto(refersTo, sheet string) bool {
	return strings.HasPrefix(refersTo, quoteSheet(sheet)+"!")
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
