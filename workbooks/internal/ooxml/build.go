package ooxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"slices"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/cols"
)

// Job is what Build writes into a package: planner's sheets, written by
// Write on excelize's handle on a view of the package.
type Job struct {
	Sheets []Sheet // planner's sheets, in the order Write writes them
	Adding int     // how many of them the package does not have yet
	// Check, when not nil, runs on excelize's handle before anything is
	// written; its error is Build's.
	Check func(*excelize.File) error
	// Write writes the sheets and returns the defined names planner
	// manages, which it may change; every other name is the user's.
	Write func(*excelize.File) (managed map[string]bool, err error)
}

// Sheet is one of planner's sheets, with the charts drawn on it afresh. A
// chart's size is in pixels, its anchor in cells: the sheet's column widths
// (which Pack writes) and row heights (points) say where its corners fall.
type Sheet struct {
	Name    string
	Charts  []Chart
	Widths  []float64
	Heights map[int]float64
	Used    string // the range its cells take ("A1:K145"), for its <dimension>; "" leaves that as written
}

// Build writes the job's sheets into the workbook data, read from path,
// and returns the package to save, verified against data (see Verify), with
// what it changed of the user's package besides planner's sheets, in words
// for the user: that a Strict package is Transitional now, or which parts
// stored as UTF-16 are UTF-8 (see normal.go).
func Build(path string, data []byte, job Job) ([]byte, []string, error) {
	n, err := normalise(path, data)
	if err != nil {
		return nil, nil, err
	}
	out, err := build(path, n.data, job)
	if err != nil {
		return nil, nil, err
	}
	return n.restore(path, out)
}

// build is Build on a package in planner's form. excelize sees only a view
// of it (see view.go).
func build(path string, data []byte, job Job) ([]byte, error) {
	var sheets []string
	for _, s := range job.Sheets {
		sheets = append(sheets, s.Name)
	}
	v, err := makeView(path, data, sheets)
	if err != nil {
		return nil, err
	}
	if v.data, err = stripDrawings(v.data, sheets); err != nil {
		return nil, fmt.Errorf("%s: taking out planner's old charts: %w", path, err)
	}
	if v.data, err = prepare(path, v.data); err != nil {
		return nil, err
	}
	if err := moveAside(v, data, job.Adding); err != nil {
		return nil, fmt.Errorf("%s: making room for planner's sheets: %w", path, err)
	}
	f, err := Open(path, v.data, false)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if job.Check != nil {
		if err := job.Check(f.File); err != nil {
			return nil, err
		}
	}
	managed, err := job.Write(f.File)
	if err != nil {
		return nil, fmt.Errorf("%s: writing planner's sheets: %w", path, err)
	}
	out, err := Pack(path, f.File, job.Sheets)
	if err != nil {
		return nil, err
	}
	if out, err = mergeBack(path, data, out, v, job.Sheets); err != nil {
		var d *damaged
		if errors.As(err, &d) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
	}
	owned := map[string]bool{}
	for _, s := range sheets {
		owned[s] = true
	}
	if err := Verify(path, data, out, owned, managed); err != nil {
		return nil, err
	}
	return out, nil
}

// mergeBack turns out, what excelize wrote from the view v, into the
// package to save: the user's styles and protection as they wrote them,
// planner's sheets off the names of the user's parts, the charts drawn,
// the calculation chain pruned, and every part the view did not hold
// copied from data.
func mergeBack(path string, data, out []byte, v *view, sheets []Sheet) ([]byte, error) {
	var names []string
	for _, s := range sheets {
		names = append(names, s.Name)
	}
	out, err := keepStyles(v.data, out)
	if err != nil {
		return nil, err
	}
	if out, err = keepProtection(v.data, out); err != nil {
		return nil, err
	}
	if out, err = relocate(path, v, data, out); err != nil {
		return nil, err
	}
	if out, err = drawCharts(out, sheets, v.outside); err != nil {
		return nil, err
	}
	out, put, drop, err := pruneCalcChain(path, out, data, names)
	if err != nil {
		return nil, err
	}
	return merge(path, data, out, v, put, drop)
}

// Pack serialises f with its zip entries in a fixed order (see rewrite),
// the sheets given their column widths (see cols.Splice).
func Pack(path string, f *excelize.File, sheets []Sheet) ([]byte, error) {
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, Unlaid("its sheets", err))
	}
	ps, err := openParts(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
	}
	// Each sheet is inflated, given its widths and used range, and deflated
	// as rewrite reaches it, so that no two large sheets are in memory at
	// once.
	e, where := edits{make: map[string]func() ([]byte, error){}}, SheetParts(ps.get)
	var failed error // a sheet's own error, told as it is
	for _, s := range sheets {
		if len(s.Widths) == 0 && s.Used == "" {
			continue
		}
		p := where[s.Name]
		e.make[p] = func() ([]byte, error) {
			part := ps.read(p)
			if len(s.Widths) > 0 {
				if part, failed = cols.Splice(part, s.Widths); failed != nil {
					failed = fmt.Errorf("%s: %s: %w", path, s.Name, failed)
					return nil, failed
				}
			}
			if s.Used != "" {
				part = withDimension(part, s.Used)
			}
			return part, nil
		}
	}
	data, err := rewrite(buf.Bytes(), e)
	if failed != nil {
		return nil, failed
	}
	if err != nil {
		return nil, fmt.Errorf("%s: building the workbook: %w", path, err)
	}
	return data, nil
}

// withDimension gives a sheet part the used range its cells take, which
// readers that stream a sheet trust to know how far to read. It replaces
// the <dimension> excelize's stream writer wrote before the sheet's data
// (A1 for a sheet of its own, or what the sheet said before it was
// rewritten), reading no further.
func withDimension(part []byte, used string) []byte {
	from, to := -1, -1
	_ = walk(bytes.NewReader(part), func(tok xml.Token, at, end, depth int) error {
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 1 && t.Name.Local == "sheetData" {
				return errStop
			}
			if depth == 1 && t.Name.Local == "dimension" {
				from = at
			}
		case xml.EndElement:
			if depth == 1 && from >= 0 {
				to = end
				return errStop
			}
		}
		return nil
	})
	if to < 0 {
		return part
	}
	return slices.Concat(part[:from], []byte(`<dimension ref="`+used+`"></dimension>`), part[to:])
}
