package workbooks

import (
	"fmt"
	"regexp"
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

var prefixedTag = regexp.MustCompile(`</?[A-Za-z_][\w.-]*:`)

// spliceStyles returns base, the style part excelize was given, with the
// entries that written, the part excelize wrote, has beyond base's added to
// each list. It fails when written does not line up with base: then
// excelize's own part is left for verify to judge.
func spliceStyles(base, written []byte) ([]byte, error) {
	if _, err := parseXML(base); err != nil {
		return nil, err
	}
	// written is read for its entries only: excelize may have left a
	// prefix of the user's undeclared in it, outside them.
	b, err := locate(base, 2)
	if err != nil {
		return nil, err
	}
	w, err := locate(written, 2)
	if err != nil {
		return nil, err
	}
	if b.local != "styleSheet" || w.local != "styleSheet" || w.prefix != "" || b.selfClosing() {
		return nil, fmt.Errorf("not two style sheets planner can line up")
	}
	var out []splice
	for _, wl := range w.kids {
		entry, ok := appendable[wl.local]
		if !ok {
			continue
		}
		bl := b.child(wl.local)
		have := 0
		if bl != nil {
			have = len(bl.kids)
		}
		switch {
		case len(wl.kids) < have:
			return nil, fmt.Errorf("%s: excelize wrote %d entries of %d", wl.local, len(wl.kids), have)
		case len(wl.kids) == have:
			continue
		}
		for i, k := range wl.kids {
			if k.local != entry || i < have && bl.kids[i].local != entry {
				return nil, fmt.Errorf("%s: entry %d is a %s", wl.local, i+1, k.local)
			}
		}
		added := string(written[wl.kids[have].start:wl.kids[len(wl.kids)-1].end])
		if prefixedTag.MatchString(added) {
			return nil, fmt.Errorf("%s: planner's entries use a namespace prefix", wl.local)
		}
		if bl == nil {
			at := listPosition(b, wl.local)
			whole := string(written[wl.start:wl.end])
			out = append(out, splice{at, at, prefixed(whole, b.prefix)})
			continue
		}
		added = prefixed(added, bl.prefix)
		open := withCount(openTag(base, bl), len(wl.kids), false)
		if bl.selfClosing() {
			out = append(out, splice{bl.start, bl.end, open + added + "</" + bl.qname() + ">"})
		} else {
			out = append(out, splice{bl.start, bl.open, open}, splice{bl.close, bl.close, added})
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
	before, after, err := partOfBoth(base, out, stylesPart)
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
	return rewrite(out, edits{put: map[string][]byte{stylesPart: kept}})
}
