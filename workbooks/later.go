package workbooks

import (
	"fmt"
	"slices"
	"strings"

	"planner/diag"
	"planner/domain"
	"planner/formulas"
	"planner/workbooks/internal/schema"
)

// laterInputs are the inputs the built-in formulas came to read after
// workbooks were first made (domain.LaterInputs, domain.LaterNPVInputs),
// sorted by name.
func laterInputs() []string {
	return slices.Sorted(slices.Values(append(domain.LaterInputs(), domain.LaterNPVInputs()...)))
}

// laterUnit is a later input's unit, as the default workbook gives it.
func laterUnit(name string) string {
	for _, r := range defaultRows(schema.Assumptions) {
		if r["name"] == name {
			return r["unit"]
		}
	}
	panic("defaults: Assumptions has no row " + name) // a later input is always a default one
}

// misspelt finds an input row that no formula reads and whose name is a
// near miss of the later input name (cost_of_captial, Cost_Of_Capital):
// the user meant the later input, and taking it as 0 would drop their
// number without a word. A text input (gpu) is never a later input's slip:
// those are numbers.
func misspelt(m *domain.Model, name string, read map[string]bool) *diag.Diagnostic {
	for _, in := range m.Inputs {
		if in.Name == name || read[in.Name] || in.Value.IsText {
			continue
		}
		if strings.EqualFold(in.Name, name) || formulas.Suggest(in.Name, []string{name}) == name {
			return &diag.Diagnostic{Origin: in.Origin, Name: in.Name, Msg: fmt.Sprintf(
				"no formula reads %s; planner's formulas read %s (did you mean %s?): rename the row to %s", in.Name, name, name, name)}
		}
	}
	return nil
}

// withLaterInputs gives a model read from a workbook that lacks one of the
// later inputs, and whose formulas read it, the input at zero: a workbook
// made before planner read it keeps the figures it was made with. It
// says which it gave, at the model's Assumptions sheet, so that the user
// can add them.
func withLaterInputs(m *domain.Model) (problems, warnings diag.Diagnostics) {
	defined := map[string]bool{}
	for _, in := range m.Inputs {
		defined[in.Name] = true
	}
	for _, f := range m.Formulas {
		defined[f.Name] = true
	}
	read := map[string]bool{}
	for _, f := range m.Formulas {
		names, _ := formulas.Names(f.Source)
		for _, n := range names {
			read[n] = true
		}
	}
	var added []string
	for _, name := range laterInputs() {
		if typo := misspelt(m, name, read); typo != nil {
			// The row the user meant: its value must not be dropped for a zero.
			problems = append(problems, typo)
			continue
		}
		if !defined[name] && read[name] {
			m.Inputs = append(m.Inputs, domain.Input{Name: name, Value: domain.Num(0), Unit: laterUnit(name), Defaulted: true,
				Notes: "Not in the workbook: planner takes 0, which leaves the figures as they were."})
			added = append(added, name)
		}
	}
	if len(added) == 0 {
		return problems, nil
	}
	return problems, diag.Diagnostics{diag.Warningf(m.Where, "",
		"has no row for %s, which planner's formulas read for owning's cost beyond capital, power and rack and for the NPV after tax and along the prices' paths over the term (a workbook made by an older planner has none); planner takes 0 for each, which keeps this workbook's figures as they were. To set one, add a row with its name, its value and its unit (%s) under the last input",
		diag.ListAnd(added), laterUnits(added))}
}

// laterUnits lists the units of the named later inputs, as "name: unit".
func laterUnits(names []string) string {
	var parts []string
	for _, name := range laterInputs() {
		if slices.Contains(names, name) {
			parts = append(parts, name+": "+laterUnit(name))
		}
	}
	return diag.List(parts)
}
