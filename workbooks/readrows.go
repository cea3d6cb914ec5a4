package workbooks

import (
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
)

// Reading an input sheet's rows, streamed, within bounds; asking excelize
// about single cells only where the sheet is small enough to parse.

// provenanceOf is the provenance cell of a sheet, read by streaming its
// first rows: asking excelize for one cell parses the whole sheet.
func provenanceOf(f *excelize.File, sheet string) string {
	rows, err := f.Rows(sheet)
	if err != nil {
		return ""
	}
	defer rows.Close()
	for n := 1; n <= sheets.ProvenanceRow && rows.Next(); n++ {
		cells, err := rows.Columns(rawOpts)
		if err != nil {
			return ""
		}
		if n == sheets.ProvenanceRow && len(cells) > 0 {
			return cells[0]
		}
	}
	return ""
}

// maxParsedSheet is the largest sheet part planner lets excelize parse
// whole, to tell a cell's type or formula: excelize's model of a sheet takes
// many times its size. Larger sheets are only streamed, and their cells
// taken as stored.
const maxParsedSheet = 8 << 20

// parsable reports whether the sheet is small enough for excelize to parse.
func (r *reader) parsable(sheet string) bool {
	return r.bytes[strings.ToLower(sheet)] <= maxParsedSheet && r.size[sheet] <= 10000
}

// formula is the Excel formula of a cell, or "" (also when the sheet is
// too large to ask).
func (r *reader) formula(at diag.Origin) string {
	if !r.parsable(at.Sheet) || !r.mayHoldFormulas(at.Sheet) {
		return ""
	}
	f, _ := r.f.GetCellFormula(at.Sheet, at.Cell())
	return f
}

// sheet is a handle on which excelize may parse the sheet whole: the read
// handle for a sheet planner reads, of ordinary size; for another sheet a
// cell refers to, a handle opened for it when first asked, if it is of
// ordinary size; nil otherwise (too large, or no such sheet).
func (r *reader) sheet(name string) *excelize.File {
	if r.inView[strings.ToLower(name)] {
		if _, ok := r.bytes[strings.ToLower(name)]; ok && r.parsable(name) {
			return r.f
		}
		return nil
	}
	return r.others.get(name)
}

// otherSheets opens, for the cells that refer to them, the user's sheets
// that the read handle leaves out: one handle on all of them asked so far
// (a new one replaces it when a sheet is added), up to maxOtherSheets.
type otherSheets struct {
	path  string
	data  []byte
	sizes map[string]uint64 // every sheet's part, by lower-case name
	names []string
	h     *ooxml.Handle
	err   error
}

// maxOtherSheets bounds the sheets outside planner's that its input cells
// may refer to and have followed.
const maxOtherSheets = 8

func (o *otherSheets) get(name string) *excelize.File {
	size, ok := o.sizes[strings.ToLower(name)]
	if !ok || size > maxParsedSheet || o.err != nil {
		return nil
	}
	for _, n := range o.names {
		if strings.EqualFold(n, name) {
			return o.h.File
		}
	}
	if len(o.names) == maxOtherSheets {
		return nil
	}
	o.close()
	o.names = append(o.names, name)
	read, _, err := ooxml.ReadView(o.path, o.data, o.names)
	if err == nil {
		o.h, err = ooxml.Open(o.path, read, true)
	}
	if err != nil {
		o.h, o.err = nil, err
		return nil
	}
	return o.h.File
}

func (o *otherSheets) close() {
	if o.h != nil {
		_ = o.h.Close()
		o.h = nil
	}
}

// maxInputRows, maxInputCells and maxInputSpan bound what planner reads
// from one input sheet: a cost model has dozens of rows and a few columns
// (a Scenarios sheet one per scenario, up to Excel's 16,384); a sheet with
// millions of cells is not one. The span counts every row's cells up to its
// last with content, empty ones included, since that is what a row costs to
// hold: it bounds a sheet of sparse rows reaching far to the right.
const (
	maxInputRows  = 50000
	maxInputCells = 1000000
	maxInputSpan  = 2000000
)

// rows reads a sheet's rows as stored values, streaming, so that a sheet
// formatted down to its millionth row costs time, not memory. Rows without
// content count only as the gaps before rows with content.
func (r *reader) rows(sheet string) ([][]string, bool) {
	it, err := r.f.Rows(sheet)
	if err != nil {
		r.fail(diag.Origin{File: r.file, Sheet: sheet}, "", "cannot be read: %v", err)
		return nil, false
	}
	defer it.Close()
	var out [][]string
	filled, gap, cellsRead, span := 0, 0, 0, 0
	var widest diag.Origin // the first row reaching furthest right so far
	for it.Next() {
		cells, err := it.Columns(rawOpts)
		if err != nil {
			r.fail(diag.Origin{File: r.file, Sheet: sheet}, "", "cannot be read: %v", err)
			return nil, false
		}
		if blank(cells) {
			gap++
			continue
		}
		for len(cells) > 0 && strings.TrimSpace(cells[len(cells)-1]) == "" {
			cells = cells[:len(cells)-1]
		}
		if len(cells) > widest.Col {
			widest = diag.Origin{File: r.file, Sheet: sheet, Row: len(out) + gap + 1, Col: len(cells)}
		}
		if span += len(cells); span > maxInputSpan {
			// Named at the first row reaching furthest: the one cell where
			// the count went over would only move down a row once deleted.
			r.fail(widest, "", "holds content out to column %s, first in this row; counting every row from column A to its last cell with content, the sheet passes %d cells, more than planner reads of an input sheet: delete the cells right of the table in every row that reaches that far",
				diag.ColumnName(widest.Col), maxInputSpan)
			return nil, false
		}
		if filled++; filled > maxInputRows {
			r.fail(diag.Origin{File: r.file, Sheet: sheet}, "", "has more than %d rows with content; planner reads input sheets up to that: delete what does not belong to the table", maxInputRows)
			return nil, false
		}
		for _, c := range cells {
			if c != "" {
				cellsRead++
			}
		}
		if cellsRead > maxInputCells {
			r.fail(diag.Origin{File: r.file, Sheet: sheet}, "", "has more than %d cells with content; planner reads input sheets up to that: delete what does not belong to the table", maxInputCells)
			return nil, false
		}
		for ; gap > 0; gap-- {
			out = append(out, nil)
		}
		out = append(out, cells)
	}
	if err := it.Error(); err != nil {
		r.fail(diag.Origin{File: r.file, Sheet: sheet}, "", "cannot be read: %v", err)
		return nil, false
	}
	if r.size == nil {
		r.size = map[string]int{}
	}
	r.size[sheet] = len(out) + gap
	if r.read == nil {
		r.read = map[string][][]string{}
	}
	r.read[sheet] = out
	return out, true
}

// textCell reports whether a cell holding a number holds it as text ("50%",
// or 0.35 typed as text): a spreadsheet formula linked to it sees text. The
// cell's type is asked of excelize only for sheets of ordinary size, since
// asking parses the whole sheet.
func (r *reader) textCell(at diag.Origin, raw string) bool {
	if _, err := strconv.ParseFloat(raw, 64); err != nil {
		return true
	}
	if !r.parsable(at.Sheet) {
		return false
	}
	if texts := r.factsOf(at.Sheet).texts; texts != nil {
		return texts[at.Cell()]
	}
	typ, err := r.f.GetCellType(at.Sheet, at.Cell())
	return err == nil && (typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString)
}
