package ooxml

import (
	"encoding/xml"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// canonical prints the subtree in a form where only meaning counts:
// namespace URIs instead of prefixes, sorted attributes, trimmed text.
func (e *Element) canonical() string {
	var b strings.Builder
	e.write(&b)
	return b.String()
}

func (e *Element) write(b *strings.Builder) {
	fmt.Fprintf(b, "<{%s}%s", e.Space, e.Local)
	for _, a := range e.attrs {
		fmt.Fprintf(b, " {%s}%s=%q", a.Name.Space, a.Name.Local, a.Value)
	}
	b.WriteString(">")
	b.WriteString(strings.TrimSpace(e.text))
	for _, k := range e.Kids {
		k.write(b)
	}
	b.WriteString("</>")
}

// defaultFalse are attributes of styles and workbook properties whose
// absence means false or 0. excelize drops them when they say so, which
// changes nothing.
var defaultFalse = map[string]bool{
	"diagonalUp": true, "diagonalDown": true, "indent": true, "textRotation": true, "shrinkToFit": true,
	"wrapText": true, "justifyLastLine": true, "relativeIndent": true, "readingOrder": true, "mergeCell": true,
	"backupFile": true, "date1904": true, "function": true, "vbProcedure": true, "hidden": true, "xlm": true,
	"publishToServer": true, "workbookParameter": true,
	// dateCompatibility="0" (Google Sheets writes it) only changes dates
	// before 1 March 1900, which no cost model holds; excelize drops it.
	"dateCompatibility": true,
}

// fontFlags are font properties where <b/> means <b val="1"/>.
var fontFlags = map[string]bool{"b": true, "i": true, "strike": true, "outline": true, "shadow": true, "condense": true, "extend": true}

// normal is the subtree as excelize would mean it when it writes it back:
// booleans as 1/0, numbers in shortest form, default-false attributes
// dropped, and children in name order (each child of a style entry is a
// different property, so their order carries no meaning).
func (e *Element) normal() *Element {
	out := &Element{Local: e.Local, Space: e.Space, text: strings.TrimSpace(e.text)}
	for _, a := range e.attrs {
		v := a.Value
		switch v {
		case "true":
			v = "1"
		case "false":
			v = "0"
		default:
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				v = strconv.FormatFloat(f, 'g', -1, 64)
			}
		}
		if v == "0" && defaultFalse[a.Name.Local] || strings.Contains(a.Name.Space, "/revision") {
			continue // a default, or Excel's revision-tracking id
		}
		out.attrs = append(out.attrs, xml.Attr{Name: a.Name, Value: v})
	}
	if fontFlags[e.Local] && e.attr("val") == "" {
		out.attrs = append(out.attrs, xml.Attr{Name: xml.Name{Local: "val"}, Value: "1"})
	}
	for _, k := range e.Kids {
		out.Kids = append(out.Kids, k.normal())
	}
	sort.SliceStable(out.Kids, func(i, j int) bool { return out.Kids[i].Local < out.Kids[j].Local })
	return out
}
