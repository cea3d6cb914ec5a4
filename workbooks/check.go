package workbooks

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/sheets"
)

// maxStaleCells is how many differing cells Stale names per sheet before
// it counts the rest.
const maxStaleCells = 5

// Stale compares planner's sheets in the workbook with a fresh evaluation
// of its inputs (fresh: what Write returned) and says what is out of date,
// cell by cell, then the charts of each sheet and the defined names planner
// writes: nothing when the workbook is up to date. Cells are compared by
// value, so a workbook that another program saved without changing a
// number is still up to date.
func (b *Book) Stale(fresh []byte) ([]string, error) {
	now, err := openSheets(b.Path, fresh, sheets.OwnedNames())
	if err != nil {
		return nil, err
	}
	defer now.Close()
	was, err := openSheets(b.Path, b.data, sheets.OwnedNames())
	if err != nil {
		return nil, err
	}
	defer was.Close()
	charts, err := chartsOf(b.data, fresh)
	if err != nil {
		return nil, err
	}
	var out []string
	wantInputs, _ := sheets.Computed(cellText(now.File, sheets.Results, 1, sheets.ProvenanceRow))
	switch stored, ok := b.Computed[sheets.Results]; {
	case !ok:
		out = append(out, fmt.Sprintf("%s: has no Results sheet written by planner; run %s", b.Path, Command("eval", b.Path)))
	case stored != wantInputs:
		out = append(out, fmt.Sprintf("%s: Results was computed from inputs %s, but the inputs are now %s: someone changed the workbook without running %s",
			b.Path, stored, wantInputs, Command("eval", b.Path)))
	}
	for _, sheet := range now.GetSheetList() {
		if !isOwned(sheet) {
			continue
		}
		if _, ok := b.Computed[sheet]; !ok {
			if b.Computed[sheets.Results] != "" {
				out = append(out, fmt.Sprintf("%s: has no sheet %s; planner eval writes it", b.Path, sheet))
			}
			continue
		}
		out = append(out, staleCells(b.Path, sheet, was.File, now.File)...)
		if had, want := charts[0][sheet], charts[1][sheet]; had != want {
			out = append(out, fmt.Sprintf("%s: %s: charts: %d in the file, %d in a fresh evaluation", b.Path, sheet, had, want))
		}
	}
	if b.Computed[sheets.Results] == "" {
		return out, nil // never evaluated: the first line says all
	}
	return append(out, staleNames(b.Path, was.File, now.File)...), nil
}

// chartsOf counts the charts on planner's sheets in the workbook and in
// the fresh one.
func chartsOf(data, fresh []byte) ([2]map[string]int, error) {
	had, err := ooxml.ChartCounts(data, sheets.OwnedNames())
	if err != nil {
		return [2]map[string]int{}, err
	}
	want, err := ooxml.ChartCounts(fresh, sheets.OwnedNames())
	return [2]map[string]int{had, want}, err
}

// staleNames lists the workbook's defined names that differ from a fresh
// evaluation's: one planner points elsewhere, one it defines that the file
// lacks, one the file has that planner would remove. Write keeps every other
// name as it is, so any difference is one of planner's names; a spreadsheet
// computing through it would read another cell. Names are compared without
// case, as Excel does.
func staleNames(path string, was, now *excelize.File) []string {
	had, want := workbookNames(was), workbookNames(now)
	keys := slices.Collect(maps.Keys(want))
	for k := range had {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		a, inFile := had[k]
		b, inFresh := want[k]
		switch {
		case !inFile:
			out = append(out, fmt.Sprintf("%s: the name %s is missing; a fresh evaluation defines it as %s", path, b.Name, b.RefersTo))
		case !inFresh:
			out = append(out, fmt.Sprintf("%s: the name %s points at %s in the file; a fresh evaluation removes it", path, a.Name, a.RefersTo))
		case a.RefersTo != b.RefersTo:
			out = append(out, fmt.Sprintf("%s: the name %s points at %s in the file, at %s in a fresh evaluation", path, b.Name, a.RefersTo, b.RefersTo))
		}
	}
	return out
}

// workbookNames are the workbook-scoped defined names, by their lower-case
// spelling.
func workbookNames(f *excelize.File) map[string]excelize.DefinedName {
	out := map[string]excelize.DefinedName{}
	for _, dn := range f.GetDefinedName() {
		if dn.Scope == "Workbook" {
			out[strings.ToLower(dn.Name)] = dn
		}
	}
	return out
}

// openSheets opens the named sheets of a workbook for reading, and what
// reading them needs, not the rest (see ooxml.ReadView).
func openSheets(path string, data []byte, names []string) (*ooxml.Handle, error) {
	f, _, err := openView(path, data, names)
	return f, err
}

func isOwned(sheet string) bool {
	for _, s := range sheets.OwnedNames() {
		if s == sheet {
			return true
		}
	}
	return false
}

// staleCells lists the cells of sheet whose stored value differs from the
// fresh one, skipping the provenance line (its hash is reported above).
func staleCells(path, sheet string, was, now *excelize.File) []string {
	old, _ := was.GetRows(sheet, rawOpts)
	fresh, _ := now.GetRows(sheet, rawOpts)
	var out []string
	extra := 0
	for r := 0; r < max(len(old), len(fresh)); r++ {
		if r+1 == sheets.ProvenanceRow {
			continue
		}
		a, b := rowAt(old, r), rowAt(fresh, r)
		for c := 0; c < max(len(a), len(b)); c++ {
			what := differs(was, now, sheet, c+1, r+1, cellAt(a, c), cellAt(b, c))
			if what == "" {
				continue
			}
			if len(out) >= maxStaleCells {
				extra++
				continue
			}
			out = append(out, fmt.Sprintf("%s: %s!%s%s: %s", path, grid.Quote(sheet), cellName(c+1, r+1), label(fresh, r, c), what))
		}
	}
	if extra > 0 {
		out = append(out, fmt.Sprintf("%s: %s: and %d more cells", path, sheet, extra))
	}
	return out
}

// differs says how a stored cell differs from the fresh one: its value
// (for a formula, its cached value) or its formula; "" when it does not.
func differs(was, now *excelize.File, sheet string, col, row int, x, y string) string {
	if !sameValue(x, y) {
		return fmt.Sprintf("%s in the file, %s in a fresh evaluation", shown(x), shown(y))
	}
	fx, _ := was.GetCellFormula(sheet, cellName(col, row))
	fy, _ := now.GetCellFormula(sheet, cellName(col, row))
	if fx != fy {
		return fmt.Sprintf("the formula %s in the file, %s in a fresh evaluation", formulaShown(fx), formulaShown(fy))
	}
	return ""
}

func formulaShown(f string) string {
	if f == "" {
		return "none"
	}
	return "=" + f
}

// sameValue compares two stored values, numbers to the 12 significant
// digits planner writes (another program may store 0.69 as
// 0.6899999999999999).
func sameValue(a, b string) bool {
	if a == b {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && strconv.FormatFloat(x, 'g', 12, 64) == strconv.FormatFloat(y, 'g', 12, 64)
}

// label names a cell by its row's first cell and its column's header, as a
// reader finds it: " (cost_per_gpu_hour, base)".
func label(rows [][]string, r, c int) string {
	var parts []string
	if name := cellAt(rowAt(rows, r), 0); c > 0 && name != "" {
		parts = append(parts, name)
	}
	if head := cellAt(rowAt(rows, sheets.HeaderRow-1), c); c > 0 && r >= sheets.HeaderRow && head != "" {
		parts = append(parts, head)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + diag.List(parts) + ")"
}

func rowAt(rows [][]string, i int) []string {
	if i < len(rows) {
		return rows[i]
	}
	return nil
}

func cellAt(row []string, i int) string {
	if i < len(row) {
		return row[i]
	}
	return ""
}

func shown(v string) string {
	if v == "" {
		return "empty"
	}
	return fmt.Sprintf("%q", v)
}

func cellText(f *excelize.File, sheet string, col, row int) string {
	v, _ := f.GetCellValue(sheet, cellName(col, row))
	return v
}
