package ooxml

import (
	"encoding/xml"
	"sort"
	"strings"
)

// excelize numbers a new sheet's part after the largest sheetId, whether or
// not a part of that name exists: planner moves its own sheet out of the
// way before excelize opens the view (moveAside), and a new sheet that
// landed on the name of a user's part outside the view to a free name
// afterwards (relocate).

// names is a case-insensitive set of a package's entry names (zip part
// names compare without case) and of the parts its content types declare.
type names map[string]string

func packageNames(datas ...[]byte) (names, error) {
	n := names{}
	for _, data := range datas {
		ps, err := openParts(data)
		if err != nil {
			return nil, err
		}
		for name := range ps.files {
			n[strings.ToLower(name)] = name
		}
		var t types
		if xml.Unmarshal(ps.get(ContentTypes), &t) == nil {
			for _, o := range t.Overrides {
				p := strings.TrimPrefix(o.PartName, "/")
				n[strings.ToLower(p)] = p
			}
		}
	}
	return n, nil
}

func (n names) taken(p string) bool { _, ok := n[strings.ToLower(p)]; return ok }

// freeSheetPart is the first worksheet part name nothing takes, with its
// relationships' name free too.
func freeSheetPart(taken func(string) bool) string {
	return free("xl/worksheets/sheet%d.xml", new(int), func(p string) bool { return taken(p) || taken(RelsOf(p)) })
}

// moveSheet renames the worksheet part from to the name to in data, with its
// relationships part, and points the workbook's relationships with the given
// ids at it. The content type of from is renamed when rename is true, else
// one for to is added (from then stays the user's part, declared as it was).
func moveSheet(data []byte, from, to string, ids map[string]bool, rename bool) ([]byte, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	e := edits{put: map[string][]byte{to: ps.get(from)}, drop: map[string]bool{from: true}}
	if rels := ps.get(RelsOf(from)); rels != nil {
		e.put[RelsOf(to)], e.drop[RelsOf(from)] = rels, true
	}
	root, err := parseXML(ps.get(WorkbookRels))
	if err != nil {
		return nil, err
	}
	rels := ps.get(WorkbookRels)
	for _, r := range root.Kids {
		if ids[r.attr("Id")] && resolve("xl", r.attr("Target")) == from {
			rels = retarget(rels, r.attr("Id"), strings.TrimPrefix(to, "xl/"))
		}
	}
	e.put[WorkbookRels] = rels
	e.types = func(t *types) {
		for i, o := range t.Overrides {
			if rename && strings.EqualFold(o.PartName, "/"+from) {
				t.Overrides[i].PartName = "/" + to
				return
			}
		}
		if !rename {
			t.Overrides = append(t.Overrides, typeOverride{PartName: "/" + to, ContentType: worksheetType})
		}
	}
	return rewrite(data, e)
}

const worksheetType = "application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"

// retarget sets the Target of the relationship with the given id.
func retarget(rels []byte, id, target string) []byte {
	root, err := Locate(rels, 1)
	if err != nil {
		return rels
	}
	var edits []splice
	for _, r := range root.Kids {
		tag := rels[r.Start:r.Open]
		if t, ok := findAttr(tag, "Target"); ok && r.Local == "Relationship" && r.attr("Id") == id {
			edits = append(edits, splice{r.Start + t.value, r.Start + t.end, `"` + target + `"`})
		}
	}
	return applySplices(rels, edits)
}

// relationshipIDs are the ids of a relationships part.
func relationshipIDs(rels []byte) map[string]bool {
	out := map[string]bool{}
	if root, err := parseXML(rels); err == nil {
		for _, r := range root.Kids {
			out[r.attr("Id")] = true
		}
	}
	return out
}

// moveAside moves planner's own sheets out of the way of the parts
// excelize will give its new sheets, in the view, before excelize opens it.
func moveAside(v *view, original []byte, adding int) error {
	ps, err := openParts(v.data)
	if err != nil {
		return err
	}
	for _, p := range newSheetParts(ps.get(WorkbookPart), adding) {
		if ps.files[p] == nil {
			continue
		}
		taken, err := packageNames(original, v.data)
		if err != nil {
			return err
		}
		for _, q := range newSheetParts(ps.get(WorkbookPart), adding) {
			taken[strings.ToLower(q)] = q
		}
		if v.data, err = moveSheet(v.data, p, freeSheetPart(taken.taken), relationshipIDs(ps.get(WorkbookRels)), true); err != nil {
			return err
		}
		if ps, err = openParts(v.data); err != nil {
			return err
		}
	}
	return nil
}

// relocate moves each sheet excelize added onto the name of one of the
// user's parts outside the view to a free name, in out, what excelize
// wrote from the view.
func relocate(path string, v *view, original, out []byte) ([]byte, error) {
	op, err := openParts(out)
	if err != nil {
		return nil, err
	}
	bp, err := openParts(original)
	if err != nil {
		return nil, err
	}
	user := map[string]string{}
	for name := range bp.files {
		user[strings.ToLower(name)] = name
	}
	clashes := func(p string) bool {
		have, ok := user[strings.ToLower(p)]
		return ok && !v.names[have]
	}
	oldIDs := relationshipIDs(bp.get(WorkbookRels))
	newIDs := map[string]bool{}
	for id := range relationshipIDs(op.get(WorkbookRels)) {
		if !oldIDs[id] {
			newIDs[id] = true
		}
	}
	var added []string
	for name := range op.files {
		sheet := strings.HasPrefix(name, "xl/worksheets/sheet") && strings.HasSuffix(name, ".xml")
		switch {
		case sheet && (clashes(name) || clashes(RelsOf(name)) && op.files[RelsOf(name)] == nil):
			added = append(added, name)
		case clashes(name) && !strings.HasPrefix(name, "xl/worksheets/_rels/"):
			return nil, &damaged{path, user[strings.ToLower(name)], "planner's sheets would be written over it"}
		}
	}
	sort.Strings(added)
	for _, p := range added {
		taken, err := packageNames(original, out)
		if err != nil {
			return nil, err
		}
		if out, err = moveSheet(out, p, freeSheetPart(taken.taken), newIDs, false); err != nil {
			return nil, err
		}
	}
	return out, nil
}
