package workbooks

import "planner/diag"

// SheetList names sheets as a sentence does: "Results", "Results and
// Sensitivity", "Assumptions, Cloud and Formulas" (diag.ListAnd).
func SheetList(names []string) string { return diag.ListAnd(names) }
