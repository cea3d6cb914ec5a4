package ooxml

import (
	"regexp"
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

var styleListRes = func() map[string][2]*regexp.Regexp {
	out := map[string][2]*regexp.Regexp{}
	for _, l := range styleLists {
		out[l.list] = [2]*regexp.Regexp{
			regexp.MustCompile(`(?s)<((?:[A-Za-z_][\w.-]*:)?)` + l.list + `\b([^>]*?)>(.*?)(</(?:[A-Za-z_][\w.-]*:)?` + l.list + `>)`),
			regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?` + l.entry + `\b`),
		}
	}
	return out
}()

var countAttr = regexp.MustCompile(`\scount="[^"]*"`)

// fixStyleCounts returns data with every style list's count equal to its
// number of entries; data itself when they all are.
func fixStyleCounts(data []byte) ([]byte, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	styles := ps.get(StylesPart)
	if styles == nil {
		return data, nil
	}
	fixed := styles
	for _, l := range styleLists {
		res := styleListRes[l.list]
		fixed = res[0].ReplaceAllFunc(fixed, func(m []byte) []byte {
			sub := res[0].FindSubmatch(m)
			n := len(res[1].FindAll(sub[3], -1))
			attrs := countAttr.ReplaceAll(sub[2], nil)
			return []byte(`<` + string(sub[1]) + l.list + string(attrs) + ` count="` + strconv.Itoa(n) + `">` +
				string(sub[3]) + string(sub[4]))
		})
	}
	if string(fixed) == string(styles) {
		return data, nil
	}
	return rewrite(data, edits{put: map[string][]byte{StylesPart: fixed}})
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
