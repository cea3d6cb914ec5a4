package workbooks

import (
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/workbooks/internal/schema"
)

// A workbook may have a sheet of its own with the name of one of planner's
// input sheets (a Formulas sheet of the user's formulas). init then adopts
// it, when it has planner's header row and planner's other sheets need
// nothing from it, or names planner's sheet otherwise, "Formulas
// (planner)", with a defined name (schema.CarriedName) that tells eval
// where it is. eval reads each input sheet where that name points, else
// from the sheet of its own name.

// referredTo are the input sheets whose entries planner's other sheets
// name (the inputs, the offers, the APIs, the GPUs and the models): a sheet
// of the user's in the place of one would leave those names unknown, so
// it is never adopted.
var referredTo = map[string]bool{schema.Assumptions.Name: true, schema.Cloud.Name: true, schema.APIs.Name: true, schema.GPUs.Name: true, schema.Models.Name: true}

// inputPlan is how init lays out the input sheets in a workbook: the name
// of each, which of the user's sheets it adopts, and what it tells the
// user about them.
type inputPlan struct {
	names   schema.Names
	adopted map[string]bool // by input sheet
	notes   []string
}

// planInputs decides the names of the input sheets init writes into a
// workbook, whose sheets f lists and holds (those of the input sheets'
// names at least).
func planInputs(f *excelize.File) inputPlan {
	have := f.GetSheetList()
	p := inputPlan{names: schema.Names{}, adopted: map[string]bool{}}
	for _, input := range schema.InputNames() {
		theirs := sheetFold(have, input)
		if theirs == "" {
			continue
		}
		header, ok := plannersHeader(f, theirs, input)
		switch {
		case ok && !referredTo[input]:
			p.names[input], p.adopted[input] = theirs, true
			p.notes = append(p.notes, fmt.Sprintf("already has a sheet %s with planner's header row (%s): planner reads it as its %s sheet, and added none of its own",
				theirs, header, input))
			continue
		case ok:
			p.names[input] = freeSheetName(have, input)
			p.notes = append(p.notes, fmt.Sprintf("already has a sheet %s, and planner's other sheets name what its own %s lists, so planner wrote its own as %s, where eval reads it: the defined name %s points there",
				theirs, input, quoted(p.names[input]), schema.CarriedName(input)))
		default:
			p.names[input] = freeSheetName(have, input)
			p.notes = append(p.notes, fmt.Sprintf("already has a sheet %s of its own (%s), so planner wrote its %s sheet as %s, where eval reads it: the defined name %s points there",
				theirs, header, input, quoted(p.names[input]), schema.CarriedName(input)))
		}
		have = append(have, p.names[input])
	}
	return p
}

func quoted(sheet string) string { return `"` + sheet + `"` }

// freeSheetName is the name planner gives its input sheet when the
// workbook has one of the input's name: "Formulas (planner)", or with a
// number when that is taken too.
func freeSheetName(have []string, input string) string {
	name := input + " (planner)"
	for i := 2; sheetFold(have, name) != ""; i++ {
		name = fmt.Sprintf("%s (planner %d)", input, i)
	}
	return name
}

// sheetFold is the sheet of have named name, compared as Excel compares
// sheet names, without case; "" when there is none.
func sheetFold(have []string, name string) string {
	for _, s := range have {
		if strings.EqualFold(s, name) {
			return s
		}
	}
	return ""
}

// plannersHeader reports whether the sheet's first row with content is
// the header row of the input sheet called input (one naming every column
// planner needs of it; for Scenarios, "input" atop the first column), and
// says either way what the header is or should be, for a note.
func plannersHeader(f *excelize.File, sheet, input string) (string, bool) {
	first := firstRow(f, sheet)
	if input == schema.Scenarios.Name {
		ok := len(first) > 0 && schema.HeaderKey(first[0]) == "input"
		if ok {
			return "input, then a scenario per column", true
		}
		return "its first row is not planner's header: input, then a scenario per column", false
	}
	s, _ := schema.Named(input)
	found := map[string]bool{}
	for _, text := range first {
		for _, c := range s.Columns {
			found[c.Key] = found[c.Key] || c.Accepts(text)
		}
	}
	for _, c := range s.Columns {
		if c.Required && !found[c.Key] {
			return "its first row is not planner's header: " + s.Keys(), false
		}
	}
	return s.Keys(), true
}

// firstRow is the sheet's first row with content, as stored, read by
// streaming: a sheet of the user's may be large.
func firstRow(f *excelize.File, sheet string) []string {
	rows, err := f.Rows(sheet)
	if err != nil {
		return nil
	}
	defer rows.Close()
	for n := 0; n < maxInputRows && rows.Next(); n++ {
		cells, err := rows.Columns(rawOpts)
		if err != nil {
			return nil
		}
		if !blank(cells) {
			return cells
		}
	}
	return nil
}

// inputSheets finds the sheet each input sheet is in a workbook whose
// sheets are have and whose workbook-scoped defined names are names: the
// one its carried name points at, else the sheet of its own name. An input
// sheet the workbook lacks is not in the map; lost are those whose carried
// name points at no sheet there is, which the workbook lacks too (the
// sheet of their own name, if any, is the user's).
func inputSheets(have []string, names []excelize.DefinedName) (found schema.Names, lost []string) {
	found = schema.Names{}
	for _, input := range schema.InputNames() {
		carried, ok := carriedSheet(names, input)
		if !ok {
			carried = input
		}
		switch s := sheetFold(have, carried); {
		case s != "":
			found[input] = s
		case ok:
			lost = append(lost, input)
		}
	}
	return found, lost
}

// lostInputs are warnings about the input sheets whose carried name points
// at no sheet.
func lostInputs(path string, lost []string) diag.Diagnostics {
	var out diag.Diagnostics
	for _, input := range lost {
		out = append(out, diag.Warningf(diag.Origin{File: path}, "", "the defined name %s, which says where planner's %s sheet is, points at no sheet of the workbook, so planner reads no %s sheet: point it at planner's sheet, or delete it to have planner read the sheet called %s",
			schema.CarriedName(input), input, input, input))
	}
	return out
}

// carriedSheet is the sheet input's carried name points at, and whether
// the workbook has the name.
func carriedSheet(names []excelize.DefinedName, input string) (string, bool) {
	for _, dn := range names {
		if dn.Scope != "Workbook" || !strings.EqualFold(dn.Name, schema.CarriedName(input)) {
			continue
		}
		m := plainReference.FindStringSubmatch(strings.TrimPrefix(dn.RefersTo, "="))
		if m == nil {
			return "", true // #REF!: the sheet was deleted
		}
		return strings.ReplaceAll(m[1], "''", "'") + m[2], true
	}
	return "", false
}

// renamedInputs are the input sheets of n under names other than their
// own: the read view holds the sheets of planner's names, and these too.
func renamedInputs(n schema.Names) []string {
	var out []string
	for _, input := range schema.InputNames() {
		if s, ok := n[input]; ok && !strings.EqualFold(s, input) {
			out = append(out, s)
		}
	}
	return out
}

// inputNotes are the notes of an inputPlan as warnings about the file.
func inputNotes(path string, notes []string) diag.Diagnostics {
	var out diag.Diagnostics
	for _, n := range notes {
		out = append(out, diag.Warningf(diag.Origin{File: path}, "", "%s", n))
	}
	return out
}
