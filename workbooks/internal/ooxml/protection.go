package ooxml

import (
	"strings"
)

// Workbook protection. Its lockStructure forbids adding, moving, renaming
// or deleting sheets: Excel refuses to add one, and so does planner (see
// StructureLocked). Any other protection (of the windows, or a password
// kept for the record) does not stop planner adding its sheets, and the
// element comes back as the user wrote it: excelize's model lacks the
// legacy workbookPassword and would drop it.

// WorkbookPart is the workbook's part: its sheets, defined names and
// protection.
const WorkbookPart = "xl/workbook.xml"

// StructureLocked reports whether the workbook's structure is protected,
// which forbids adding sheets.
func StructureLocked(data []byte) bool {
	n, err := normalise("", data)
	if err != nil {
		return false // refused on its way into excelize
	}
	ps, err := openParts(n.data)
	if err != nil || ps.files[WorkbookPart] == nil || ps.files[WorkbookPart].UncompressedSize64 > MaxWorkbookPart {
		return false // refused on its way into excelize
	}
	wb, err := parseXML(ps.get(WorkbookPart))
	if err != nil {
		return false
	}
	p := wb.Child("workbookProtection")
	if p == nil {
		return false
	}
	v := p.attr("lockStructure")
	return v == "1" || v == "true"
}

// keepProtection puts the workbookProtection element of base, the package
// excelize was given, back into out, excelize's package, as the user wrote
// it (with the namespace prefix excelize's part uses, which is none).
func keepProtection(base, out []byte) ([]byte, error) {
	before, after, err := partOfBoth(base, out, WorkbookPart)
	if err != nil {
		return nil, err
	}
	if _, err := parseXML(before); err != nil {
		return out, nil
	}
	b, err1 := Locate(before, 1)
	w, err2 := Locate(after, 1)
	if err1 != nil || err2 != nil {
		return out, nil
	}
	user := b.Child("workbookProtection")
	if user == nil || w.Prefix != "" {
		return out, nil
	}
	element := string(before[user.Start:user.End])
	if user.Prefix != "" {
		element = strings.Replace(element, "<"+user.Prefix+":", "<", 1)
		element = strings.Replace(element, "</"+user.Prefix+":", "</", 1)
	}
	var s splice
	if theirs := w.Child("workbookProtection"); theirs != nil {
		s = splice{theirs.Start, theirs.End, element}
	} else {
		at := w.Close
		for _, next := range []string{"bookViews", "sheets"} {
			if k := w.Child(next); k != nil {
				at = k.Start
				break
			}
		}
		s = splice{at, at, element}
	}
	kept := applySplices(after, []splice{s})
	if _, err := parseXML(kept); err != nil {
		return out, nil // an attribute under a prefix excelize's part lacks: Verify judges
	}
	return rewrite(out, edits{put: map[string][]byte{WorkbookPart: kept}})
}
