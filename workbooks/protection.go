package workbooks

import (
	"fmt"
	"strings"
)

// Workbook protection. Its lockStructure forbids adding, moving, renaming
// or deleting sheets: Excel refuses to add one, and so does planner, saying
// how to lift the protection. Any other protection (of the windows, or a
// password kept for the record) does not stop planner adding its sheets,
// and the element comes back as the user wrote it: excelize's model lacks
// the legacy workbookPassword and would drop it.

const workbookPart = "xl/workbook.xml"

// unprotect says how to lift structure protection in either program.
const unprotect = "unprotect it (in Excel: Review > Protect Workbook; in LibreOffice: Tools > Protect Spreadsheet Structure; enter the password if asked)"

// structureLocked reports whether the workbook's structure is protected.
func structureLocked(data []byte) bool {
	ps, err := openParts(data)
	if err != nil || ps.files[workbookPart] == nil || ps.files[workbookPart].UncompressedSize64 > maxWorkbookPart {
		return false // refused on its way into excelize
	}
	wb, err := parseXML(ps.get(workbookPart))
	if err != nil {
		return false
	}
	p := wb.child("workbookProtection")
	if p == nil {
		return false
	}
	v := p.attr("lockStructure")
	return v == "1" || v == "true"
}

// refuseLockedStructure is the error when planner would add sheets to a
// workbook whose structure is protected; command is init or eval.
func refuseLockedStructure(path, command string, sheets []string) error {
	what := "its input sheets"
	later := ""
	if command == "eval" {
		what = "the sheets " + joinAnd(sheets)
		later = "; later runs only rewrite those sheets and need no unprotecting"
	}
	return fmt.Errorf("%s: the workbook's structure is protected, which forbids adding sheets, and planner %s adds %s; %s, run planner %s again, then protect it again%s",
		path, command, what, unprotect, command, later)
}

func joinAnd(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// keepProtection puts the workbookProtection element of base, the package
// excelize was given, back into out, excelize's package, as the user wrote
// it (with the namespace prefix excelize's part uses, which is none).
func keepProtection(base, out []byte) ([]byte, error) {
	before, after, err := partOfBoth(base, out, workbookPart)
	if err != nil {
		return nil, err
	}
	if _, err := parseXML(before); err != nil {
		return out, nil
	}
	b, err1 := locate(before, 1)
	w, err2 := locate(after, 1)
	if err1 != nil || err2 != nil {
		return out, nil
	}
	user := b.child("workbookProtection")
	if user == nil || w.prefix != "" {
		return out, nil
	}
	element := string(before[user.start:user.end])
	if user.prefix != "" {
		element = strings.Replace(element, "<"+user.prefix+":", "<", 1)
		element = strings.Replace(element, "</"+user.prefix+":", "</", 1)
	}
	var s splice
	if theirs := w.child("workbookProtection"); theirs != nil {
		s = splice{theirs.start, theirs.end, element}
	} else {
		at := w.close
		for _, next := range []string{"bookViews", "sheets"} {
			if k := w.child(next); k != nil {
				at = k.start
				break
			}
		}
		s = splice{at, at, element}
	}
	kept := applySplices(after, []splice{s})
	if _, err := parseXML(kept); err != nil {
		return out, nil // an attribute under a prefix excelize's part lacks: verify judges
	}
	return rewrite(out, edits{put: map[string][]byte{workbookPart: kept}})
}
