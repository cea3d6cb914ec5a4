package sheets

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"planner/domain"
	"planner/workbooks/internal/grid"
)

// Stale and UpToDate are what a live flag beside figures only planner
// computes (the cheapest mix, Monte Carlo's close calls) says: whether an
// input they read has changed since planner eval computed them.
const (
	Stale    = "inputs changed since planner eval: run it again"
	UpToDate = "up to date: the inputs are as planner eval read them"
)

// checkRow is one row of a sheet's checks: what it reads, and the
// comparisons of its cells with the values planner eval read.
type checkRow struct {
	what   string
	checks []string
}

// maxChecks is the most comparisons one check cell holds and
// maxCheckChars the most characters they take, so that its formula stays
// within Excel's 255 arguments of AND and 8,192 characters.
const maxChecks, maxCheckChars = 40, 8000

// writeChecks writes rows of checks from row under a title, each what it
// reads across columns 1 to last-1 and in column last a cell that is 1
// while every cell it compares holds what eval read and 0 once one does
// not (a long row split over rows of at most maxChecks); it returns the
// range of the check cells, "" when there are none.
func writeChecks(g *grid.Grid, title string, last, row int, rows []checkRow) string {
	first := row + 1
	for _, r := range rows {
		for part := r.checks; len(part) > 0; {
			n, chars := 0, 0
			for n < len(part) && n < maxChecks && chars+len(part[n]) < maxCheckChars {
				chars += len(part[n]) + 1
				n++
			}
			if n == 0 { // one comparison longer than a formula may be: left out
				part = part[1:]
				continue
			}
			if row < first { // the title, once there is a row to head
				g.Line(first-1, grid.Text(title, grid.StyleSection))
				g.Table(first-1, first-1, first-1)
			}
			row++
			g.Sentence(1, row, last-1, r.what, grid.StyleLabel)
			g.Set(last, row, grid.Linked(grid.Number(1, grid.WithFormat(grid.StyleResult, "0")), "IF(AND("+strings.Join(part[:n], ",")+"),1,0)"))
			row += g.Fit(row)
			part = part[n:]
		}
	}
	if row < first {
		return ""
	}
	return grid.CellName(last, first) + ":" + grid.CellName(last, row)
}

// staleFlag is the flag's formula over a range of checks.
func staleFlag(checks string) string {
	return fmt.Sprintf("IF(COUNTIF(%s,0)>0,%s,%s)", checks, excelString(Stale), excelString(UpToDate))
}

// flagAt writes the flag at (col, row) across to last, shaded red when
// stale, green when up to date.
func flagAt(g *grid.Grid, col, row, last int, checks string) {
	g.Sentence(col, row, last, UpToDate, grid.StyleLabel)
	g.Link(col, row, staleFlag(checks))
	at := grid.Fixed(grid.CellName(col, row))
	g.ShadeByFormula(grid.CellName(col, row), at+"="+excelString(UpToDate), at+"="+excelString(Stale))
}

// inputChecks compare every input's cells planner read (its value, its
// range and its distribution) and every scenario's with what it read.
func inputChecks(m domain.Model) []checkRow {
	var rows []checkRow
	for _, in := range m.Inputs {
		var checks []string
		if in.Origin.Sheet != "" && !in.Defaulted {
			checks = append(checks, valueCheck(cellRef(in.Origin), in.Value, in.TextCell))
		}
		if in.HasRange && in.LowAt.Sheet != "" {
			checks = append(checks, nearCell(cellRef(in.LowAt), in.Low))
		}
		if in.HasRange && in.HighAt.Sheet != "" {
			checks = append(checks, nearCell(cellRef(in.HighAt), in.High))
		}
		if in.DistAt.Sheet != "" {
			checks = append(checks, fmt.Sprintf("TRIM(%s&\"\")=%s", cellRef(in.DistAt), excelString(in.DistText)))
		}
		if len(checks) > 0 {
			rows = append(rows, checkRow{what: "input " + in.Name + " in " + in.Origin.Sheet, checks: checks})
		}
	}
	for _, s := range m.Scenarios {
		var checks []string
		for _, name := range slices.Sorted(maps.Keys(s.Where)) {
			if at := s.Where[name]; at.Sheet != "" {
				if v, ok := s.Set[name]; ok && s.Links[name] == "" {
					checks = append(checks, valueCheck(cellRef(at), v, false))
				}
			}
		}
		if len(checks) > 0 {
			rows = append(rows, checkRow{what: "scenario " + s.Name + " in Scenarios", checks: checks})
		}
	}
	return rows
}

// valueCheck compares a cell with a value planner read: text as it
// trims it, a number as typed or, typed as text, as VALUE reads it.
func valueCheck(ref string, v domain.Value, text bool) string {
	switch {
	case v.IsText:
		return fmt.Sprintf("TRIM(%s&\"\")=%s", ref, excelString(v.Text))
	case text:
		return nearCell("VALUE("+ref+")", v.Num)
	}
	return nearCell("N("+ref+")", v.Num)
}

// censusChecks compare every cell planner read of each watched input
// sheet with what it held, and count each column's cells with content, so
// that a row, a scenario or a value added turns the flag stale as surely
// as one changed. Without fleet, the sheets only the deployments read
// are left out.
func censusChecks(reads []domain.SheetRead, fleet bool) []checkRow {
	var rows []checkRow
	for _, read := range reads {
		if read.FleetOnly && !fleet {
			continue
		}
		var checks []string
		for _, c := range read.Cells {
			checks = append(checks, storedCheck(cellRef(c.At), c.Stored))
		}
		last := read.Rows + censusMargin
		for _, c := range read.Columns {
			span := grid.Span(read.Sheet, c.Col, 1, last)
			checks = append(checks, fmt.Sprintf("SUMPRODUCT(--(LEN(%s)>0))=%d", span, c.Filled))
		}
		if len(checks) > 0 {
			rows = append(rows, checkRow{what: "sheet " + read.Sheet + ": every cell planner read, and none added", checks: checks})
		}
	}
	return rows
}

// censusMargin is how far below the rows planner read the counts look for
// rows added.
const censusMargin = 1000

// storedCheck compares a cell with what it held when planner read it: a
// number as near as the other checks allow (typed as a number or as
// text), anything else as the same text (Excel's = ignores case, as
// planner does in names).
func storedCheck(ref, stored string) string {
	if v, err := strconv.ParseFloat(stored, 64); err == nil && !math.IsInf(v, 0) && !math.IsNaN(v) {
		return nearCell(fmt.Sprintf("IF(ISNUMBER(%s),%s,VALUE(TRIM(%s&\"\")))", ref, ref, ref), v)
	}
	return fmt.Sprintf("%s&\"\"=%s", ref, excelString(stored))
}
