package ooxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// planner reads every XML part one way: encoding/xml's decoder, with where
// each tag lies in the part's bytes. What a part means (names in their
// namespaces, attributes, text) is what a spreadsheet program reads; where
// its bytes lie is what lets planner add to a part and leave every byte of
// the user's untouched, since excelize rewrites the parts it models and
// loses what its model lacks.

// Element is an element of a part: its name as the part spells it (Prefix,
// Local) and as it means it (Space, the namespace the prefix stands for, or
// the prefix itself when the part never declared it), its attributes and
// text, and where it lies.
type Element struct {
	Prefix, Local string
	Space         string
	attrs         []xml.Attr // by namespace and name; namespace declarations left out
	text          string     // its own character data
	Start         int        // the start tag's '<'
	Open          int        // just past the start tag
	Close         int        // the end tag's '<'; Open for <empty/>
	End           int        // just past the element
	Kids          []*Element
}

// errStop ends a walk early, without an error.
var errStop = errors.New("stop")

// walk reads XML, calling visit with each token as the decoder gives it
// (names in their namespaces), where its bytes lie in r, and the depth of
// the element it opens, closes or lies in (the root's is 0). A visit that
// returns errStop ends the walk.
func walk(r io.Reader, visit func(tok xml.Token, at, end, depth int) error) error {
	d := xml.NewDecoder(r)
	depth := 0
	for {
		at := int(d.InputOffset())
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if _, ok := tok.(xml.EndElement); ok {
			depth--
		}
		if err := visit(tok, at, int(d.InputOffset()), depth); err == errStop {
			return nil
		} else if err != nil {
			return err
		}
		if _, ok := tok.(xml.StartElement); ok {
			depth++
		}
	}
}

// parseXML reads a whole part. Prefixes that were never declared are an
// error: excelize has been seen to drop a declaration and leave a part no
// spreadsheet application can open.
func parseXML(data []byte) (*Element, error) { return read(data, -1, true) }

// Locate reads the root element of data and its descendants down to depth
// levels below it, undeclared prefixes and all.
func Locate(data []byte, depth int) (*Element, error) { return read(data, depth, false) }

// WellFormed fails for data that is not XML a spreadsheet program can
// open: not well formed, or using a namespace prefix it never declared.
func WellFormed(data []byte) error {
	_, err := parseXML(data)
	return err
}

// read builds the tree of data down to depth levels below the root (every
// level when depth < 0), failing on an undeclared prefix when strict.
func read(data []byte, depth int, strict bool) (*Element, error) {
	var stack []*Element
	var root *Element
	err := walk(bytes.NewReader(data), func(tok xml.Token, at, end, level int) error {
		switch t := tok.(type) {
		case xml.StartElement:
			if strict {
				if err := declared(t); err != nil {
					return err
				}
			}
			e := newElement(t, data, at, end)
			switch {
			case level == 0 && root != nil:
				return fmt.Errorf("more than one root element")
			case level == 0:
				root = e
			case depth < 0 || level <= depth:
				p := stack[level-1]
				p.Kids = append(p.Kids, e)
			}
			stack = append(stack, e)
		case xml.EndElement:
			e := stack[level]
			e.Close, e.End = at, end
			if e.End == e.Open {
				e.Close = e.Open // <empty/>: the decoder made up the end tag
			}
			stack = stack[:level]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].text += string(t)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if root == nil {
		return nil, fmt.Errorf("no root element")
	}
	return root, nil
}

func newElement(t xml.StartElement, data []byte, at, end int) *Element {
	e := &Element{Local: t.Name.Local, Space: t.Name.Space, Start: at, Open: end}
	e.Prefix, _ = splitName(tagName(data[at:end]))
	for _, a := range t.Attr {
		if a.Name.Space != "xmlns" && !(a.Name.Space == "" && a.Name.Local == "xmlns") {
			e.attrs = append(e.attrs, a)
		}
	}
	sort.Slice(e.attrs, func(i, j int) bool { return attrKey(e.attrs[i]) < attrKey(e.attrs[j]) })
	return e
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

// SelfClosing reports whether the element is written <empty/>.
func (e *Element) SelfClosing() bool { return e.Open == e.End }

// Child is the first child with the given local name, whatever its
// prefix, or nil.
func (e *Element) Child(local string) *Element {
	for _, k := range e.Kids {
		if k.Local == local {
			return k
		}
	}
	return nil
}

// Count is the number of children with the given local name.
func (e *Element) Count(local string) int {
	n := 0
	for _, k := range e.Kids {
		if k.Local == local {
			n++
		}
	}
	return n
}

// Named is the element and its descendants in the tree, in document order,
// with the given local name, whatever their prefix.
func (e *Element) Named(local string) []*Element {
	var out []*Element
	if e.Local == local {
		out = append(out, e)
	}
	for _, k := range e.Kids {
		out = append(out, k.Named(local)...)
	}
	return out
}

// QName is the element's name as its part spells it, prefix included.
func (e *Element) QName() string {
	if e.Prefix == "" {
		return e.Local
	}
	return e.Prefix + ":" + e.Local
}

// attr returns the value of the attribute with the given local name.
func (e *Element) attr(local string) string {
	for _, a := range e.attrs {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// Empty reports whether the element holds nothing but white space.
func (e *Element) Empty() bool { return len(e.Kids) == 0 && strings.TrimSpace(e.text) == "" }

// tagName is the name of the tag that begins tag ("<x:c ...", "</x:c>", "<?xml ...").
func tagName(tag []byte) string {
	i := 1
	if i < len(tag) && tag[i] == '/' {
		i++
	}
	from := i
	for i < len(tag) && !isSpace(tag[i]) && tag[i] != '/' && tag[i] != '>' {
		i++
	}
	return string(tag[from:i])
}

// splitName is a name's prefix and local part, split as encoding/xml
// splits it: a name that begins or ends with its colon has no prefix.
func splitName(name string) (prefix, local string) {
	if p, l, ok := strings.Cut(name, ":"); ok && p != "" && l != "" {
		return p, l
	}
	return "", name
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// rawAttr is an attribute as a start tag spells it: its name and where it
// lies in the tag.
type rawAttr struct {
	name  string
	at    int // the name's first byte; a space comes before it
	value int // the opening quote
	end   int // just past the closing quote
}

// Value is the attribute's value as the tag writes it, entities unresolved.
func (a rawAttr) Value(tag []byte) string { return string(tag[a.value+1 : a.end-1]) }

// rawAttrs are the attributes of a start tag, or the pseudo-attributes of an
// XML declaration, in the order the tag writes them. It stops at the first
// thing that is not an attribute.
func rawAttrs(tag []byte) []rawAttr {
	i := 1 + len(tagName(tag))
	var out []rawAttr
	for {
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		at := i
		for i < len(tag) && !isSpace(tag[i]) && !strings.ContainsRune("=/>?", rune(tag[i])) {
			i++
		}
		name := string(tag[at:i])
		for i < len(tag) && isSpace(tag[i]) {
			i++
		}
		if name == "" || i >= len(tag) || tag[i] != '=' {
			return out
		}
		for i++; i < len(tag) && isSpace(tag[i]); i++ {
		}
		if i >= len(tag) || tag[i] != '"' && tag[i] != '\'' {
			return out
		}
		close := bytes.IndexByte(tag[i+1:], tag[i])
		if close < 0 {
			return out
		}
		out = append(out, rawAttr{name, at, i, i + 1 + close + 1})
		i += close + 2
	}
}

// findAttr is the attribute of tag named name (as the tag spells it).
func findAttr(tag []byte, name string) (rawAttr, bool) {
	for _, a := range rawAttrs(tag) {
		if a.name == name {
			return a, true
		}
	}
	return rawAttr{}, false
}
