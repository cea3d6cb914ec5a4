package ooxml

import (
	"bytes"
	"encoding/xml"
	"strconv"
)

// splice is an edit of a part's bytes: replace data[from:to] with text.
type splice struct {
	from, to int
	text     string
}

// applySplices applies edits that do not overlap, in any order.
func applySplices(data []byte, edits []splice) []byte {
	sortSplices(edits)
	var out bytes.Buffer
	at := 0
	for _, e := range edits {
		out.Write(data[at:e.from])
		out.WriteString(e.text)
		at = e.to
	}
	out.Write(data[at:])
	return out.Bytes()
}

func sortSplices(edits []splice) {
	for i := 1; i < len(edits); i++ {
		for j := i; j > 0 && edits[j].from < edits[j-1].from; j-- {
			edits[j], edits[j-1] = edits[j-1], edits[j]
		}
	}
}

// prefixed gives every element of an XML fragment without prefixes the
// prefix of the part it goes into. Attributes stay as they are: those of
// the spreadsheet namespace take no prefix.
func prefixed(fragment, prefix string) string {
	if prefix == "" {
		return fragment
	}
	data := []byte(fragment)
	var edits []splice
	err := walk(bytes.NewReader(data), func(tok xml.Token, at, end, _ int) error {
		switch tok.(type) {
		case xml.StartElement, xml.EndElement:
			if at == end {
				return nil // the end the decoder makes up for <empty/>
			}
			if p, _ := splitName(tagName(data[at:end])); p == "" {
				from := at + len("<")
				if data[from] == '/' {
					from++
				}
				edits = append(edits, splice{from, from, prefix + ":"})
			}
		}
		return nil
	})
	if err != nil {
		return fragment
	}
	return string(applySplices(data, edits))
}

// hasPrefixed reports whether an XML fragment names an element with a
// prefix.
func hasPrefixed(fragment []byte) bool {
	found := false
	_ = walk(bytes.NewReader(fragment), func(tok xml.Token, at, _, _ int) error {
		if _, ok := tok.(xml.StartElement); ok {
			if p, _ := splitName(tagName(fragment[at:])); p != "" {
				found = true
				return errStop
			}
		}
		return nil
	})
	return found
}

// withCount is a start tag with its count attribute set to n, added when
// the tag had none and add is true.
func withCount(startTag string, n int, add bool) string {
	tag := []byte(startTag)
	c := ` count="` + strconv.Itoa(n) + `"`
	var edits []splice
	for _, a := range rawAttrs(tag) {
		if a.name == "count" {
			edits = append(edits, splice{a.at - 1, a.end, c})
		}
	}
	if len(edits) == 0 && add {
		at := tagEnd(tag)
		edits = append(edits, splice{at, at, c})
	}
	return string(applySplices(tag, edits))
}

// tagEnd is where a start tag's closing "/>" or ">" begins, white space
// before it included.
func tagEnd(tag []byte) int {
	at := len(tag) - len(">")
	if at > 0 && tag[at-1] == '/' {
		at--
	}
	for at > 0 && isSpace(tag[at-1]) {
		at--
	}
	return at
}

// openTag is the element's start tag, written open when the element is
// <empty/>, so that children can follow it.
func openTag(data []byte, s *Element) string {
	tag := data[s.Start:s.Open]
	if s.SelfClosing() {
		return string(tag[:tagEnd(tag)]) + ">"
	}
	return string(tag)
}
