package ooxml

import (
	"fmt"
)

// excelize rewrites xl/styles.xml from its model, and its model is lossy:
// it drops a colour's indexed="0", the legacy attributes and extensions of
// some entries, and writes the spreadsheet namespace without the prefix the
// part declared (leaving elements under the part's other prefixes
// undeclared). planner only ever appends styles. So the part planner
// writes is the user's own, byte for byte, with planner's new entries added
// at the end of each list: keepStyles takes them from excelize's output.

// appendable are the style lists planner's styles add to, with their
// entries' name.
var appendable = map[string]string{"numFmts": "numFmt", "fonts": "font", "fills": "fill", "borders": "border",
	"cellStyleXfs": "xf", "cellXfs": "xf", "cellStyles": "cellStyle", "dxfs": "dxf"}

// Appendable reports whether list is a style list planner's styles are
// added to, at its end.
func Appendable(list string) bool {
	_, ok := appendable[list]
	return ok
}

// spliceStyles returns base, the style part excelize was given, with the
// entries that written, the part excelize wrote, has beyond base's added to
// each list. It fails when written does not line up with base: then
// excelize's own part is left for Verify to judge.
func spliceStyles(base, written []byte) ([]byte, error) {
	if _, err := parseXML(base); err != nil {
		return nil, err
	}
	// written is read for its entries only: excelize may have left a
	// prefix of the user's undeclared in it, outside them.
	b, err := Locate(base, 2)
	if err != nil {
		return nil, err
	}
	w, err := Locate(written, 2)
	if err != nil {
		return nil, err
	}
	if b.Local != "styleSheet" || w.Local != "styleSheet" || w.Prefix != "" || b.SelfClosing() {
		return nil, fmt.Errorf("not two style sheets planner can line up")
	}
	var out []splice
	for _, wl := range w.Kids {
		entry, ok := appendable[wl.Local]
		if !ok {
			continue
		}
		bl := b.Child(wl.Local)
		have := 0
		if bl != nil {
			have = len(bl.Kids)
		}
		switch {
		case len(wl.Kids) < have:
			return nil, fmt.Errorf("%s: excelize wrote %d entries of %d", wl.Local, len(wl.Kids), have)
		case len(wl.Kids) == have:
			continue
		}
		for i, k := range wl.Kids {
			if k.Local != entry || i < have && bl.Kids[i].Local != entry {
				return nil, fmt.Errorf("%s: entry %d is a %s", wl.Local, i+1, k.Local)
			}
		}
		added := string(written[wl.Kids[have].Start:wl.Kids[len(wl.Kids)-1].End])
		if hasPrefixed([]byte(added)) {
			return nil, fmt.Errorf("%s: planner's entries use a namespace prefix", wl.Local)
		}
		if bl == nil {
			at := listPosition(b, wl.Local)
			whole := string(written[wl.Start:wl.End])
			out = append(out, splice{at, at, prefixed(whole, b.Prefix)})
			continue
		}
		added = prefixed(added, bl.Prefix)
		open := withCount(openTag(base, bl), len(wl.Kids), false)
		if bl.SelfClosing() {
			out = append(out, splice{bl.Start, bl.End, open + added + "</" + bl.QName() + ">"})
		} else {
			out = append(out, splice{bl.Start, bl.Open, open}, splice{bl.Close, bl.Close, added})
		}
	}
	if len(out) == 0 {
		return base, nil
	}
	return applySplices(base, out), nil
}

// partOfBoth is one part as the package excelize was given holds it, and
// as excelize's package holds it; nil where one lacks it.
func partOfBoth(base, out []byte, part string) (before, after []byte, err error) {
	bp, err := openParts(base)
	if err != nil {
		return nil, nil, err
	}
	op, err := openParts(out)
	if err != nil {
		return nil, nil, err
	}
	return bp.get(part), op.get(part), nil
}

// keepStyles puts the user's style part back into out, excelize's package,
// with planner's entries appended; base is the package excelize was given.
// When the two do not line up, out is returned as it is.
func keepStyles(base, out []byte) ([]byte, error) {
	before, after, err := partOfBoth(base, out, StylesPart)
	if err != nil {
		return nil, err
	}
	if before == nil || after == nil {
		return out, nil
	}
	kept, err := spliceStyles(before, after)
	if err != nil || string(kept) == string(after) {
		return out, nil
	}
	return rewrite(out, edits{put: map[string][]byte{StylesPart: kept}})
}
