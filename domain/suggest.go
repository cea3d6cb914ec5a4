package domain

import (
	"sort"
	"strings"

	"planner/diag"
	"planner/formulas"
)

// SuggestGPU is " (did you mean H100 SXM?)" for a GPU name that is the
// start of the GPUs sheet's names ("H100") or a typo of one ("H2OO"), or
// "": the same wherever a GPU is named, Assumptions, Scenarios, Cloud or
// Deployments. Of several names that start so, the one label (the row's
// own name, such as an offer's) names is meant.
func (m *Model) SuggestGPU(typed, label string) string {
	var names []string
	for _, g := range m.GPUs {
		names = append(names, g.Name)
	}
	return suggest(typed, label, names)
}

// SuggestModel is SuggestGPU for a name of the Models sheet.
func (m *Model) SuggestModel(typed, label string) string {
	var names []string
	for _, s := range m.Catalog {
		names = append(names, s.Name)
	}
	return suggest(typed, label, names)
}

func suggest(typed, label string, names []string) string {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	if strings.TrimSpace(typed) == "" {
		return ""
	}
	var starting, named []string
	for _, n := range names {
		if strings.HasPrefix(norm(n), norm(typed)+" ") {
			starting = append(starting, n)
			if strings.Contains(norm(label), norm(n)) {
				named = append(named, n)
			}
		}
	}
	sort.Strings(starting)
	switch {
	case len(named) == 1:
		return " (did you mean " + named[0] + "?)"
	case len(starting) > 0:
		return " (did you mean " + diag.ListOr(starting) + "?)"
	}
	if s := formulas.Suggest(typed, names); s != "" {
		return " (did you mean " + s + "?)"
	}
	return ""
}
