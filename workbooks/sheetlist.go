package workbooks

import "strings"

// SheetList names sheets as a sentence does: "Results", "Results and
// Sensitivity", "Assumptions, Cloud and Formulas".
func SheetList(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
