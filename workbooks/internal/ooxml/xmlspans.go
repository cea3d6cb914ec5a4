package ooxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// Element is where an element lies in a part's bytes, so that planner can
// add to a part and leave every byte of the user's untouched: excelize
// rewrites the parts it models, and loses what its model lacks.
type Element struct {
	Prefix, Local string
	Start         int // the start tag's '<'
	Open          int // just past the start tag
	Close         int // the end tag's '<'; Open for <empty/>
	End           int // just past the element
	Kids          []*Element
}

// SelfClosing reports whether the element is written <empty/>.
func (s *Element) SelfClosing() bool { return s.Open == s.End }

// Child is the first child with the given local name, or nil.
func (s *Element) Child(local string) *Element {
	for _, k := range s.Kids {
		if k.Local == local {
			return k
		}
	}
	return nil
}

// Count is the number of children with the given local name.
func (s *Element) Count(local string) int {
	n := 0
	for _, k := range s.Kids {
		if k.Local == local {
			n++
		}
	}
	return n
}

// QName is the element's name as its part spells it, prefix included.
func (s *Element) QName() string {
	if s.Prefix == "" {
		return s.Local
	}
	return s.Prefix + ":" + s.Local
}

// Locate finds the root element of data and its descendants down to depth
// levels below it. data must be well-formed XML (WellFormed checks it).
func Locate(data []byte, depth int) (*Element, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []*Element
	var root *Element
	for {
		at := int(d.InputOffset())
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			s := &Element{Prefix: t.Name.Space, Local: t.Name.Local, Start: at, Open: int(d.InputOffset())}
			if len(stack) == 0 {
				if root != nil {
					return nil, fmt.Errorf("more than one root element")
				}
				root = s
			} else if len(stack) <= depth {
				p := stack[len(stack)-1]
				p.Kids = append(p.Kids, s)
			}
			stack = append(stack, s)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, fmt.Errorf("an end tag without a start")
			}
			s := stack[len(stack)-1]
			s.Close, s.End = at, int(d.InputOffset())
			if s.End == s.Open {
				s.Close = s.Open // <empty/>: the decoder made up the end tag
			}
			stack = stack[:len(stack)-1]
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, fmt.Errorf("no whole root element")
	}
	return root, nil
}

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

var tagName = regexp.MustCompile(`<(/?)([A-Za-z_][\w.-]*)([\s/>])`)

// prefixed gives every element of an XML fragment without prefixes the
// prefix of the part it goes into. Attributes stay as they are: those of
// the spreadsheet namespace take no prefix.
func prefixed(fragment, prefix string) string {
	if prefix == "" {
		return fragment
	}
	return tagName.ReplaceAllString(fragment, "<${1}"+prefix+":${2}${3}")
}

// withCount is a start tag with its count attribute set to n, added when
// the tag had none and add is true.
func withCount(startTag string, n int, add bool) string {
	c := `count="` + strconv.Itoa(n) + `"`
	if countAttr.MatchString(startTag) {
		return countAttr.ReplaceAllString(startTag, " "+c)
	}
	if !add {
		return startTag
	}
	if m := regexp.MustCompile(`\s*/?>$`).FindStringIndex(startTag); m != nil {
		return startTag[:m[0]] + " " + c + startTag[m[0]:]
	}
	return startTag
}

// openTag is the element's start tag, written open when the element is
// <empty/>, so that children can follow it.
func openTag(data []byte, s *Element) string {
	tag := string(data[s.Start:s.Open])
	if s.SelfClosing() {
		tag = regexp.MustCompile(`\s*/>$`).ReplaceAllString(tag, ">")
	}
	return tag
}
