package workbooks

import (
	"regexp"
	"strconv"
	"strings"
)

// Excel keeps a calculation chain, xl/calcChain.xml, listing every formula
// cell. When planner rewrites its sheets, cells there may no longer hold a
// formula, and Excel would report the file damaged. pruneCalcChain drops the
// entries of the sheets planner wrote (Excel adds their formulas again on
// its next save), and the whole part when nothing else is left in it.

const calcChainPart = "xl/calcChain.xml"

var (
	calcCell   = regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?c\b[^>]*?(?:/>|>\s*</(?:[A-Za-z_][\w.-]*:)?c>)`)
	calcSheet  = regexp.MustCompile(`\bi="(\d+)"`)
	calcName   = regexp.MustCompile(`^<((?:[A-Za-z_][\w.-]*:)?c)\b`)
	calcChains = regexp.MustCompile(`(?s)(<(?:[A-Za-z_][\w.-]*:)?calcChain\b[^>]*>).*(</(?:[A-Za-z_][\w.-]*:)?calcChain>)`)
)

func pruneCalcChain(data []byte, sheets []string) ([]byte, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	chain := ps.get(calcChainPart)
	if chain == nil {
		return data, nil
	}
	ids := sheetIDs(ps.get("xl/workbook.xml"), sheets)
	cur := "1" // an entry without i is on the sheet of the entry before, the first sheet at first
	var kept []string
	dropped := false
	for _, c := range calcCell.FindAll(chain, -1) {
		if m := calcSheet.FindSubmatch(c); m != nil {
			cur = string(m[1])
		}
		if ids[cur] {
			dropped = true
			continue
		}
		if !calcSheet.Match(c) {
			// The entry it inherited its sheet from may be gone: say it.
			c = calcName.ReplaceAll(c, []byte(`<$1 i="`+cur+`"`))
		}
		kept = append(kept, string(c))
	}
	if !dropped {
		return data, nil
	}
	if len(kept) == 0 {
		return dropCalcChain(data, ps)
	}
	m := calcChains.FindSubmatch(chain)
	if m == nil {
		return data, nil // not a chain planner can read: leave it
	}
	pruned := string(m[1]) + strings.Join(kept, "") + string(m[2])
	pruned = string(chain[:calcChains.FindIndex(chain)[0]]) + pruned
	return rewrite(data, edits{put: map[string][]byte{calcChainPart: []byte(pruned)}})
}

// dropCalcChain removes the part, its relationship and its content type.
func dropCalcChain(data []byte, ps *lazyParts) ([]byte, error) {
	rels := "xl/_rels/workbook.xml.rels"
	e := edits{put: map[string][]byte{}, drop: map[string]bool{calcChainPart: true}}
	if root, err := parseXML(ps.get(rels)); err == nil {
		for _, r := range root.kids {
			if strings.HasSuffix(r.attr("Type"), "/calcChain") {
				e.put[rels] = removeRelationship(ps.get(rels), r.attr("Id"))
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
