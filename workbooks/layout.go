package workbooks

import (
	"strings"
	"unicode"
)

// Sheets planner knows by name. Assumptions, Cloud and Formulas are the
// user's: init writes them once and planner only reads them afterwards.
// Results is planner's own: eval rewrites it on every run.
const (
	SheetAssumptions = "Assumptions"
	SheetCloud       = "Cloud"
	SheetFormulas    = "Formulas"
	SheetResults     = "Results"
)

// InputSheets are the sheets init creates for the user to edit.
var InputSheets = []string{SheetAssumptions, SheetCloud, SheetFormulas}

// OwnedSheets are the sheets eval writes; planner marks each as its own.
var OwnedSheets = []string{SheetResults}

// ownerPrefix starts cell A2 of every sheet planner owns (see ownerMark). A
// sheet called Results without it was made by someone else and is never
// overwritten.
const ownerPrefix = "planner "

// Rows of an owned sheet: a title, the provenance line, a blank row, then the
// table header (frozen) and the table.
const (
	titleRow      = 1
	provenanceRow = 2
	headerRow     = 4
)

// column describes a column of an input sheet: the key planner uses and the
// header texts it accepts, compared without case, spaces or punctuation.
type column struct {
	key      string
	headers  []string
	required bool
}

var assumptionColumns = []column{
	{key: "name", headers: []string{"name"}, required: true},
	{key: "value", headers: []string{"value"}, required: true},
	{key: "unit", headers: []string{"unit", "units"}},
	{key: "low", headers: []string{"low", "min"}},
	{key: "high", headers: []string{"high", "max"}},
	{key: "notes", headers: []string{"sourcenotes", "source", "notes", "sources"}},
}

var cloudColumns = []column{
	{key: "provider", headers: []string{"provider"}, required: true},
	{key: "offer", headers: []string{"offer"}, required: true},
	{key: "gpu", headers: []string{"gpu"}, required: true},
	{key: "price", headers: []string{"gpuhour", "pergpuhour", "pricepergpuhour", "price"}, required: true},
	{key: "asof", headers: []string{"asof", "date"}},
	{key: "source", headers: []string{"source"}},
	{key: "notes", headers: []string{"notes"}},
}

var formulaColumns = []column{
	{key: "name", headers: []string{"name"}, required: true},
	{key: "expression", headers: []string{"expression", "formula"}, required: true},
	{key: "unit", headers: []string{"unit", "units"}},
	{key: "description", headers: []string{"description", "notes"}},
}

// headerKey reduces a header text to letters and digits, lower case:
// "$/GPU-hour" -> "gpuhour", "source / notes" -> "sourcenotes".
func headerKey(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func headerNames(cols []column) string {
	var names []string
	for _, c := range cols {
		names = append(names, c.key)
	}
	return strings.Join(names, ", ")
}
