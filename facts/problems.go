package facts

import (
	"strconv"

	"planner/diag"
)

// KindProblem is a fact about a workbook planner cannot evaluate: a cell
// it cannot read. Problems come first, before what the workbook says.
const KindProblem = "problem"

// Problems are a workbook's problems as facts, keyed by the cell (or the
// sheet) each belongs to, and saying it without the file's name: git's
// text conversion reads an old revision from a file of another name, and
// the line must not change with it. Two problems in one place are told
// apart by their order there.
func Problems(problems diag.Diagnostics) []Fact {
	var out []Fact
	seen := map[string]int{}
	sorted, _ := problems.Err().(diag.Diagnostics)
	for _, err := range sorted {
		key, text := "workbook", err.Error()
		if d, ok := err.(*diag.Diagnostic); ok {
			text = d.Text()
			if where := d.Origin.Where(); d.Origin.Sheet != "" {
				key = where
			}
		}
		if seen[key]++; seen[key] > 1 {
			key += " (" + strconv.Itoa(seen[key]) + ")"
		}
		out = append(out, Fact{Kind: KindProblem, Key: key, Value: text})
	}
	return out
}
