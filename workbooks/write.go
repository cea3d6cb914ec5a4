package workbooks

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/ooxml"
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
func (b *Book) Write(out Output, opts WriteOptions) (data []byte, err error) {
	// excelize panics on some damaged packages; that is an error here, and
	// nothing is written.
	defer func() {
		if r := recover(); r != nil {
			data, err = nil, &panicked{fmt.Sprintf("%s: cannot be written without risk to it (%v); nothing was written: open it in Excel or LibreOffice, save it again, and run planner again", b.Path, r)}
		}
	}()
	results, lay := resultsGrid(out)
	grids := []*grid{results}
	if len(out.Sizing) > 0 || b.owned[SheetSizing] {
		grids = append(grids, sizingGrid(out))
	}
	if len(out.Deployments) > 0 || b.owned[SheetCosts] {
		grids = append(grids, costsGrid(out, lay))
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
	var sheets, adding []string
	for _, g := range grids {
		sheets = append(sheets, g.sheet)
		if !b.hasFold(g.sheet) {
			adding = append(adding, g.sheet)
		}
	}
	if len(adding) > 0 && ooxml.StructureLocked(b.data) {
		return nil, refuseLockedStructure(b.Path, "eval", adding)
	}
	data, warnings, err := build(b.Path, b.data, grids, len(adding), nil)
	if err != nil {
		return nil, err
	}
	b.Warnings = append(b.Warnings, warnings...)
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
// made for an input) and is never changed or removed. Excel compares names
// without case, so planner does too.
func writeGrids(f *excelize.File, grids []*grid) (managed map[string]bool, warnings []string, err error) {
	st := newStyles(f)
	for _, g := range grids {
		if err := g.write(f, st); err != nil {
			return nil, nil, err
		}
	}
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
					return nil, nil, err
				}
				delete(existing, key)
			}
		case !isWanted && intoGrids(dn.RefersTo, grids):
			warnings = append(warnings, fmt.Sprintf("the name %s points into planner's sheet (%s), whose rows planner rewrites; it may no longer point at what it meant: check it, or delete it if planner made it",
				dn.Name, dn.RefersTo))
		}
	}
	for _, key := range order {
		w := wanted[key]
		if dn, ok := existing[key]; ok {
			if !managed[dn.Name] {
				warnings = append(warnings, fmt.Sprintf("the workbook already defines the name %s (%s); planner left it and did not point it at %s", dn.Name, dn.RefersTo, w.ref))
			}
			continue
		}
		managed[w.name] = true
		if err := f.SetDefinedName(&excelize.DefinedName{Name: w.name, RefersTo: w.ref, Comment: w.comment}); err != nil {
			return nil, nil, fmt.Errorf("defining the name %s: %w", w.name, err)
		}
	}
	return managed, warnings, nil
}

type wantedName struct{ name, ref, comment string }

// wantedNames are the names the grids define, keyed by their lower-case
// spelling, in order. Two cells wanting one name (two offers whose labels
// make the same name, or names that differ only in case) keep it for the
// first, with a warning.
func wantedNames(grids []*grid) (map[string]wantedName, []string, []string) {
	wanted := map[string]wantedName{}
	var order, warnings []string
	for _, g := range grids {
		for _, n := range g.names {
			w := wantedName{name: n.name, ref: absolute(g.sheet, n.col, n.row)}
			if g.owned {
				w.comment = nameComment
			}
			key := strings.ToLower(n.name)
			if first, dup := wanted[key]; dup {
				warnings = append(warnings, fmt.Sprintf("both %s and %s would be named %s (Excel ignores case); the first keeps the name, the second is left without one: rename one of them",
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
func ours(dn excelize.DefinedName, wanted bool, grids []*grid) bool {
	return dn.Comment == nameComment || wanted && intoGrids(dn.RefersTo, grids)
}

func intoGrids(ref string, grids []*grid) bool {
	for _, g := range grids {
		if g.owned && strings.HasPrefix(ref, quoteSheet(g.sheet)+"!") {
			return true
		}
	}
	return false
}

// build writes grids into the workbook data, read from path, through
// ooxml.Build, and returns the package to save with what is worth telling
// the user. check runs on excelize's handle before anything is written;
// adding is how many of the grids' sheets are new.
func build(path string, data []byte, grids []*grid, adding int, check func(*excelize.File) error) ([]byte, []string, error) {
	job := ooxml.Job{Adding: adding, Check: check}
	for _, g := range grids {
		job.Sheets = append(job.Sheets, ooxml.Sheet{Name: g.sheet, Charts: g.charts})
	}
	var warnings []string
	job.Write = func(f *excelize.File) (map[string]bool, error) {
		managed, w, err := writeGrids(f, grids)
		warnings = w
		return managed, err
	}
	out, err := ooxml.Build(path, data, job)
	if err != nil {
		return nil, nil, err
	}
	return out, warnings, nil
}
