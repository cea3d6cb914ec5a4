package ooxml

import (
	"strconv"
)

// excelize numbers a new font, fill or border by its list's count
// attribute, not by the list's length. A workbook whose styles leave the
// count out (Apache POI writes <fonts> bare) or state it wrongly would
// have planner's cells point at someone else's font. fixStyleCounts
// writes the true counts before excelize opens the package; Verify accepts
// it, since only the lists' entries are the user's.
var styleLists = []struct{ list, entry string }{
	{"numFmts", "numFmt"}, {"fonts", "font"}, {"fills", "fill"}, {"borders", "border"},
	{"cellStyleXfs", "xf"}, {"cellXfs", "xf"}, {"dxfs", "dxf"},
}

// StylesPart is the workbook's style part, as excelize spells it.
const StylesPart = "xl/styles.xml"

// fixStyleCounts returns data with every style list's count equal to its
// number of entries; data itself when they all are. A list's count is
// written last among its attributes, whether it was right or not.
func fixStyleCounts(data []byte) ([]byte, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	styles := ps.get(StylesPart)
	if styles == nil {
		return data, nil
	}
	root, err := Locate(styles, -1)
	if err != nil {
		return data, nil
	}
	var counts []splice
	for _, l := range styleLists {
		for _, list := range root.Named(l.list) {
			if !list.SelfClosing() {
				tag := countedTag(styles[list.Start:list.Open], countNamed(list, l.entry))
				counts = append(counts, splice{list.Start, list.Open, tag})
			}
		}
	}
	fixed := applySplices(styles, counts)
	if string(fixed) == string(styles) {
		return data, nil
	}
	return rewrite(data, edits{put: map[string][]byte{StylesPart: fixed}})
}

// countNamed is the number of e's descendants with the given local name.
func countNamed(e *Element, local string) int {
	n := 0
	for _, k := range e.Kids {
		n += len(k.Named(local))
	}
	return n
}

// countedTag is a list's start tag with its count attributes taken out
// and count="n" put last.
func countedTag(tag []byte, n int) string {
	var cut []splice
	for _, a := range rawAttrs(tag) {
		if a.name == "count" {
			cut = append(cut, splice{a.at - 1, a.end, ""})
		}
	}
	tag = applySplices(tag, cut)
	return string(tag[:len(tag)-len(">")]) + ` count="` + strconv.Itoa(n) + `">`
}

// Dxfs are the conditional styles of a style part, each in a canonical
// form: two are the same style when their forms are equal.
func Dxfs(styles []byte) []string {
	out := []string{}
	root, err := parseXML(styles)
	if err != nil {
		return out
	}
	if d := root.Child("dxfs"); d != nil {
		for _, k := range d.Kids {
			out = append(out, k.normal().canonical())
		}
	}
	return out
}
