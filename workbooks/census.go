package workbooks

import (
	"maps"
	"slices"

	"planner/diag"
	"planner/domain"
	"planner/workbooks/internal/schema"
)

// watched are the input sheets that figures only planner computes (the
// cheapest mix, Monte Carlo's close calls) are computed from; the what-if
// sheets' tables are not flagged.
var watched = []schema.Sheet{schema.Assumptions, schema.Scenarios, schema.Cloud, schema.FX, schema.APIs,
	schema.GPUs, schema.Models, schema.Deployments, schema.Benchmarks, schema.Correlations, schema.Formulas}

// fleetOnly are the watched sheets only the deployments' figures read.
var fleetOnly = []string{schema.Models.Name, schema.Deployments.Name, schema.Benchmarks.Name, schema.APIs.Name}

// noteWords remembers which of a table's columns hold words, not figures.
func (r *reader) noteWords(sheet string, s schema.Sheet, cols map[string]int) {
	if r.words == nil {
		r.words = map[string]map[int]bool{}
	}
	words := map[int]bool{}
	for _, c := range s.Columns {
		if col, ok := cols[c.Key]; ok && c.Commentary() {
			words[col] = true
		}
	}
	r.words[sheet] = words
}

// census is what planner read of each watched sheet: its cells with
// content outside the columns of words, and how many cells with content
// each column held, up to one past the widest row, so that a scenario or
// a column added to the right shows too.
func (r *reader) census() []domain.SheetRead {
	var out []domain.SheetRead
	for _, s := range watched {
		sheet := r.in.Of(s.Name)
		rows, ok := r.read[sheet]
		if !ok {
			continue
		}
		words := r.words[sheet]
		read := domain.SheetRead{Sheet: sheet, Rows: r.size[sheet], FleetOnly: slices.Contains(fleetOnly, s.Name)}
		filled := map[int]int{}
		width := 0
		for i, row := range rows {
			width = max(width, len(row))
			for c, v := range row {
				if v == "" || words[c+1] {
					continue
				}
				read.Cells = append(read.Cells, domain.CellRead{At: diag.Origin{File: r.file, Sheet: sheet, Row: i + 1, Col: c + 1}, Stored: v})
				filled[c+1]++
			}
		}
		for col := 1; col <= width+1; col++ {
			if !words[col] {
				filled[col] += 0
			}
		}
		for _, col := range slices.Sorted(maps.Keys(filled)) {
			read.Columns = append(read.Columns, domain.ColumnCount{Col: col, Filled: filled[col]})
		}
		out = append(out, read)
	}
	return out
}
