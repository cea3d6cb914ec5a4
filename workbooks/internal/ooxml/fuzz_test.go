package ooxml

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

// FuzzReader holds the reader to encoding/xml's own tokens: where the
// decoder reads a part, every element the reader finds has the name and
// attributes the decoder gives, read back from the element's bytes, and its
// span begins with its start tag and ends with its end tag.
func FuzzReader(f *testing.F) {
	f.Add([]byte(tricky))
	f.Add([]byte(`<a xmlns="urn:a"><b c="1" d='2'/><!--x--><e>t</e></a>`))
	f.Add([]byte(`<?xml version="1.0"?><x:r xmlns:x="urn:x"><![CDATA[<y>]]><x:s a="&lt;&#65;"/></x:r>`))
	f.Add([]byte("<a\n b\t=\r\n\"v>w\" />"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, err := rawNames(data)
		if err != nil {
			return
		}
		root, err := Locate(data, -1)
		if err != nil {
			return // more than one root, or none: the decoder reads on
		}
		var got []string
		var visit func(e *Element)
		visit = func(e *Element) {
			tag := data[e.Start:e.Open]
			got = append(got, describe(e.Prefix, e.Local))
			for _, a := range rawAttrs(tag) {
				p, l := splitName(a.name)
				got = append(got, " "+describe(p, l)+"="+unescaped(t, tag[a.value:a.end]))
			}
			if !bytes.HasPrefix(data[e.Start:], []byte("<"+e.QName())) || data[e.Open-1] != '>' {
				t.Errorf("%s: start tag %q", e.QName(), tag)
			}
			if !e.SelfClosing() && !bytes.HasPrefix(data[e.Close:e.End], []byte("</"+e.QName())) {
				t.Errorf("%s: end tag %q", e.QName(), data[e.Close:e.End])
			}
			for _, k := range e.Kids {
				visit(k)
			}
		}
		visit(root)
		if a, b := strings.Join(got, "\n"), strings.Join(want, "\n"); a != b {
			t.Errorf("reader:\n%s\ndecoder:\n%s", a, b)
		}
	})
}

// unescaped is a quoted attribute value as the decoder reads it.
func unescaped(t *testing.T, quoted []byte) string {
	var v struct {
		V string `xml:"v,attr"`
	}
	if err := xml.Unmarshal(append(append([]byte("<a v="), quoted...), "/>"...), &v); err != nil {
		t.Fatalf("value %s: %v", quoted, err)
	}
	return v.V
}
