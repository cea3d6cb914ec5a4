package workbooks

import (
	"fmt"

	"planner/diag"
)

// A workbook whose structure is protected (lockStructure) forbids adding,
// moving, renaming or deleting sheets: Excel refuses to add one, and so
// does planner, saying how to lift the protection. Any other protection
// does not stop planner adding its sheets (see ooxml.StructureLocked).

// unprotect says how to lift structure protection in either program.
const unprotect = "unprotect it (in Excel: Review > Protect Workbook; in LibreOffice: Tools > Protect Spreadsheet Structure; enter the password if asked)"

// refuseLockedStructure is the error when planner would add sheets to a
// workbook whose structure is protected; command is init or eval.
func refuseLockedStructure(path, command string, adding []string) error {
	what := "its input sheets"
	later := ""
	if command == "eval" {
		what = "the sheets " + diag.ListAnd(adding)
		later = "; later runs only rewrite those sheets and need no unprotecting"
	}
	return fmt.Errorf("%s: the workbook's structure is protected, which forbids adding sheets, and planner %s adds %s; %s, run planner %s again, then protect it again%s",
		path, command, what, unprotect, command, later)
}
