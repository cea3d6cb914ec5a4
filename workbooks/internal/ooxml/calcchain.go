package ooxml

import (
	"strconv"
	"strings"
)

// Excel keeps a calculation chain, xl/calcChain.xml, listing every formula
// cell. When planner rewrites its sheets, cells there may no longer hold a
// formula, and Excel would report the file damaged. pruneCalcChain drops the
// entries of the sheets planner wrote (Excel adds their formulas again on
// its next save), and the whole part when nothing else is left in it.

// CalcChainPart is Excel's calculation chain.
const CalcChainPart = "xl/calcChain.xml"

// The chain is the user's part, outside the view excelize is given: it is
// read from original, and what becomes of it is returned as an entry to put
// or to drop, with out (what excelize wrote) losing the chain's relationship
// and content type when the chain goes.
func pruneCalcChain(path string, out, original []byte, sheets []string) ([]byte, map[string][]byte, map[string]bool, error) {
	bp, err := openParts(original)
	if err != nil {
		return nil, nil, nil, err
	}
	f := bp.files[CalcChainPart]
	if f == nil {
		return out, nil, nil, nil
	}
	if f.UncompressedSize64 > MaxPartInMemory {
		return nil, nil, nil, tooLarge(path, CalcChainPart, f.UncompressedSize64, MaxPartInMemory, cannotAdd)
	}
	chain := bp.get(CalcChainPart)
	op, err := openParts(out)
	if err != nil {
		return nil, nil, nil, err
	}
	ids := sheetIDs(op.get(WorkbookPart), sheets)
	root, err := Locate(chain, 1)
	if err != nil || root.SelfClosing() {
		return out, nil, nil, nil // not a chain planner can read: leave it
	}
	cur := "1" // an entry without i is on the sheet of the entry before, the first sheet at first
	var kept []string
	dropped := false
	for _, c := range root.Kids {
		if c.Local != "c" || !c.Empty() {
			continue
		}
		tag := chain[c.Start:c.Open]
		sheet, ok := findAttr(tag, "i")
		if ok {
			cur = sheet.Value(tag)
		}
		if ids[cur] {
			dropped = true
			continue
		}
		entry := string(chain[c.Start:c.End])
		if !ok {
			// The entry it inherited its sheet from may be gone: say it.
			name := "<" + c.QName()
			entry = name + ` i="` + cur + `"` + entry[len(name):]
		}
		kept = append(kept, entry)
	}
	if !dropped {
		return out, nil, nil, nil
	}
	if len(kept) == 0 {
		out, err := dropCalcChain(out, op)
		return out, nil, map[string]bool{CalcChainPart: true}, err
	}
	pruned := string(chain[:root.Open]) + strings.Join(kept, "") + string(chain[root.Close:root.End])
	return out, map[string][]byte{CalcChainPart: []byte(pruned)}, nil, nil
}

// dropCalcChain removes the chain's relationship and content type.
func dropCalcChain(data []byte, ps *lazyParts) ([]byte, error) {
	e := edits{put: map[string][]byte{}, drop: map[string]bool{CalcChainPart: true}}
	if root, err := parseXML(ps.get(WorkbookRels)); err == nil {
		for _, r := range root.Kids {
			if strings.HasSuffix(r.attr("Type"), "/calcChain") {
				e.put[WorkbookRels] = RemoveRelationship(ps.get(WorkbookRels), r.attr("Id"))
			}
		}
	}
	e.types = func(t *types) { t.Overrides = keepOverrides(t.Overrides, e.drop) }
	return rewrite(data, e)
}

// sheetIDs maps the sheetId of each named sheet.
func sheetIDs(workbook []byte, sheets []string) map[string]bool {
	out := map[string]bool{}
	wb, err := parseXML(workbook)
	if err != nil {
		return out
	}
	want := map[string]bool{}
	for _, s := range sheets {
		want[s] = true
	}
	for _, s := range kids(wb, "sheets") {
		if want[s.attr("name")] {
			if id, err := strconv.Atoi(s.attr("sheetId")); err == nil {
				out[strconv.Itoa(id)] = true
			}
		}
	}
	return out
}
