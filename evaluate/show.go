package evaluate

import (
	"slices"

	"planner/diag"
	"planner/facts"
	"planner/workbooks"
)

// Shown is a workbook as show prints it: its facts, sorted, and every
// result recomputed from them, or why none could be.
type Shown struct {
	File     string
	Warnings diag.Diagnostics // the workbook's, and its stale prices
	Facts    []facts.Fact
	Results  []facts.Result
	Broken   string // why there are no results: the formulas do not build or evaluate
	Inputs   string // the inputs' fingerprint
	Stored   string // the inputs the Results sheet was computed from; "" without one
}

// Show reads the workbook at path and recomputes its results; only a
// workbook that cannot be read is an error.
func Show(path string, age PriceAge) (*Shown, error) {
	book, err := workbooks.Read(path)
	if err != nil {
		return nil, err
	}
	s := &Shown{File: path, Warnings: slices.Concat(book.Warnings, age.Warnings(book)), Facts: facts.Of(book.Model),
		Inputs: facts.Fingerprint(book.Model), Stored: book.Computed[workbooks.SheetResults]}
	plan, err := Build(book.Model)
	if err == nil {
		results, err2 := plan.EvalAll(nil)
		if err = err2; err == nil {
			s.Results = facts.Results(plan, results)
		}
	}
	if err != nil {
		s.Broken = err.Error()
	}
	return s, nil
}
