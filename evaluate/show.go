package evaluate

import (
	"fmt"
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
	Problems diag.Diagnostics // what stops it being evaluated: the cells planner cannot read
	Facts    []facts.Fact     // the problems first, then what it says
	Results  []facts.Result
	Broken   string // why there are no results: the formulas do not build or evaluate
	Inputs   string // the inputs' fingerprint
	Stored   string // the inputs the Results sheet was computed from; "" without one
}

// Show reads the workbook at path and recomputes its results; only a
// file that is not a workbook is an error. A cell planner cannot read is
// a problem among the facts, and the results are not computed: what the
// workbook says is still shown.
func Show(path string, age PriceAge) (*Shown, error) {
	book, err := workbooks.ReadAsIs(path)
	if err != nil {
		return nil, err
	}
	s := &Shown{File: path, Warnings: slices.Concat(book.Warnings, age.Warnings(book)), Problems: book.Problems,
		Facts:  slices.Concat(facts.Problems(book.Problems), facts.Of(book.Model)),
		Inputs: facts.Fingerprint(book.Model), Stored: book.Computed[workbooks.SheetResults]}
	if len(book.Problems) > 0 {
		s.Broken = NotRead(book.Problems)
		return s, nil
	}
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

// NotRead says why a workbook with problems has no results: the first
// problem, where it is, and how many more there are.
func NotRead(problems diag.Diagnostics) string {
	first := facts.Problems(problems)[0]
	more := ""
	if n := len(problems) - 1; n == 1 {
		more = " (and 1 more problem)"
	} else if n > 1 {
		more = fmt.Sprintf(" (and %d more problems)", n)
	}
	where := first.Key
	if where == "workbook" {
		where = "the workbook"
	}
	return fmt.Sprintf("planner cannot read %s: %s%s", where, first.Value, more)
}
