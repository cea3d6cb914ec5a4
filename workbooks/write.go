package workbooks

import (
	"context"
	"fmt"
	"iter"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
)

// WriteOptions change how eval writes.
type WriteOptions struct {
	// Force lets planner replace a sheet that has the name of one of its own
	// (Results) but was not made by planner.
	Force bool
	// Context, when not nil, stops the writing between two sheets once it
	// is done; Write then returns its error.
	Context context.Context
}

// Output is what eval writes back into a workbook.
type Output = sheets.Output

// Written is what Write wrote: the package to save, the sheets it
// rewrote, in order, and what is worth telling the user.
type Written struct {
	Data     []byte
	Sheets   []string
	Warnings diag.Diagnostics
}

// Write returns the workbook with planner's sheets rewritten from out. The
// user's sheets are never parsed by the handle that writes, and the result
// is verified against the original before it is returned.
func (b *Book) Write(out Output, opts WriteOptions) (w Written, err error) {
	// excelize panics on some damaged packages; that is an error here, and
	// nothing is written.
	defer func() {
		if r := recover(); r != nil {
			w, err = Written{}, &panicked{fmt.Sprintf("%s: cannot be written without risk to it (%v); nothing was written: open it in Excel or LibreOffice, save it again, and run planner again", b.Path, r)}
		}
	}()
	layouts := sheets.Owned(out, func(sheet string) bool { return b.owned[sheet] })
	for _, l := range layouts {
		for s := range b.foreign {
			if strings.EqualFold(s, l.Sheet) && !opts.Force {
				return Written{}, fmt.Errorf("%s: the sheet %s was not made by planner, and planner writes its results there; rename your sheet, or pass --force to let planner replace it",
					b.Path, s)
			}
		}
	}
	var adding []string
	for _, l := range layouts {
		w.Sheets = append(w.Sheets, l.Sheet)
		if !b.hasFold(l.Sheet) {
			adding = append(adding, l.Sheet)
		}
	}
	if len(adding) > 0 && ooxml.StructureLocked(b.data) {
		return Written{}, refuseLockedStructure(b.Path, "eval", adding)
	}
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if w.Data, w.Warnings, err = build(b.Path, b.data, w.Sheets, sheets.Laid(ctx, layouts), len(adding), nil); err != nil {
		if ctx.Err() != nil {
			return Written{}, ctx.Err()
		}
		return Written{}, err
	}
	return w, nil
}

// build writes the grids, of the sheets named, into the workbook data,
// read from path, through ooxml.Build, and returns the package to save with
// what is worth telling the user: first what saving it changes of theirs
// besides planner's sheets (a Strict workbook written back as
// Transitional), then what writing the sheets found. The grids are laid
// out as they are written, each let go but for its rows' compressed XML
// (see grid.WriteForPacking). check runs on excelize's handle before
// anything is written; adding is how many of the grids' sheets are new.
func build(path string, data []byte, names []string, grids iter.Seq[*grid.Grid], adding int, check func(*excelize.File) error) ([]byte, diag.Diagnostics, error) {
	job := ooxml.Job{Names: names, Adding: adding, Check: check}
	var written diag.Diagnostics
	job.Write = func(f *excelize.File) ([]ooxml.Sheet, map[string]bool, error) {
		laid, managed, w, err := grid.WriteForPacking(f, grids)
		written = w
		return sheetsOf(laid), managed, err
	}
	out, notes, err := ooxml.Build(path, data, job)
	if err != nil {
		return nil, nil, err
	}
	var warnings diag.Diagnostics
	for _, n := range notes {
		warnings = append(warnings, diag.Warningf(diag.Origin{File: path}, "", "%s", n))
	}
	return out, append(warnings, written...), nil
}

// sheetsOf are the grids' sheets as ooxml draws their charts, sets their
// column widths and packs the rows grid.WriteForPacking left for it.
func sheetsOf(grids []*grid.Grid) []ooxml.Sheet {
	var sheets []ooxml.Sheet
	for _, g := range grids {
		sheets = append(sheets, ooxml.Sheet{Name: g.Sheet(), Charts: g.Charts(), Widths: g.Widths(), Heights: g.Heights(), Used: g.Used(), Rows: g.WriteRows})
	}
	return sheets
}
