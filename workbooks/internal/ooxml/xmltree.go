package ooxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// node is a generic XML element, enough to compare parts that excelize
// re-serialises: names with their namespace, attributes, children and text.
type node struct {
	name  xml.Name
	attrs []xml.Attr
	Kids  []*node
	text  string
}

// parseXML reads data into a tree. Prefixes that were never declared are an
// error: excelize has been seen to drop a declaration and leave a part no
// spreadsheet application can open.
func parseXML(data []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []*node
	var root *node
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := declared(t); err != nil {
				return nil, err
			}
			n := &node{name: t.Name}
			for _, a := range t.Attr {
				if a.Name.Space != "xmlns" && !(a.Name.Space == "" && a.Name.Local == "xmlns") {
					n.attrs = append(n.attrs, a)
				}
			}
			sort.Slice(n.attrs, func(i, j int) bool { return attrKey(n.attrs[i]) < attrKey(n.attrs[j]) })
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.Kids = append(p.Kids, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

// WellFormed fails for data that is not XML a spreadsheet program can
// open: not well formed, or using a namespace prefix it never declared.
func WellFormed(data []byte) error {
	_, err := parseXML(data)
	return err
}

// declared fails for an element or attribute whose prefix has no namespace:
// encoding/xml leaves such a prefix in Name.Space instead of a URI.
func declared(t xml.StartElement) error {
	check := func(space string) error {
		if space != "" && space != "xmlns" && space != "xml" && !strings.Contains(space, ":") {
			return fmt.Errorf("uses the namespace prefix %q without declaring it", space)
		}
		return nil
	}
	if err := check(t.Name.Space); err != nil {
		return err
	}
	for _, a := range t.Attr {
		if err := check(a.Name.Space); err != nil {
			return err
		}
	}
	return nil
}

func attrKey(a xml.Attr) string { return a.Name.Space + " " + a.Name.Local }

// attr returns the value of the attribute with the given local name.
func (n *node) attr(local string) string {
	for _, a := range n.attrs {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// Child returns the first child with the given local name.
func (n *node) Child(local string) *node {
	for _, k := range n.Kids {
		if k.name.Local == local {
			return k
		}
	}
	return nil
}

// canonical prints the subtree in a form where only meaning counts:
// namespace URIs instead of prefixes, sorted attributes, trimmed text.
func (n *node) canonical() string {
	var b strings.Builder
	n.write(&b)
	return b.String()
}

func (n *node) write(b *strings.Builder) {
	fmt.Fprintf(b, "<{%s}%s", n.name.Space, n.name.Local)
	for _, a := range n.attrs {
		fmt.Fprintf(b, " {%s}%s=%q", a.Name.Space, a.Name.Local, a.Value)
	}
	b.WriteString(">")
	b.WriteString(strings.TrimSpace(n.text))
	for _, k := range n.Kids {
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
func (n *node) normal() *node {
	out := &node{name: n.name, text: strings.TrimSpace(n.text)}
	for _, a := range n.attrs {
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
	if fontFlags[n.name.Local] && n.attr("val") == "" {
		out.attrs = append(out.attrs, xml.Attr{Name: xml.Name{Local: "val"}, Value: "1"})
	}
	for _, k := range n.Kids {
		out.Kids = append(out.Kids, k.normal())
	}
	sort.SliceStable(out.Kids, func(i, j int) bool { return out.Kids[i].name.Local < out.Kids[j].name.Local })
	return out
}
