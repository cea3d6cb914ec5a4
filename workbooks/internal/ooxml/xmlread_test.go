package ooxml

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

const mainNS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

// A part with what trips up a reader of text: a byte-order mark, a
// declaration, comments and CDATA that look like tags, a prefix declared
// on the element that uses it, '>' inside a quoted value, and <empty/>.
const tricky = "\uFEFF" + `<?xml version="1.0" encoding="UTF-8"?>
<!-- <x:fonts count="9"> -->
<x:styleSheet xmlns:x="` + mainNS + `" a='1>2'>` +
	`<x:fonts count="1"><x:font/></x:fonts>` +
	`<![CDATA[<x:fills>]]>` +
	`<y:ext xmlns:y="urn:y" y:v="&amp;&gt;"><y:in/></y:ext>` +
	`<cellXfs xmlns="urn:default"/>` +
	`</x:styleSheet>`

func TestReadTrickyXML(t *testing.T) {
	data := []byte(tricky)
	root, err := parseXML(data)
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(tricky, "<x:styleSheet")
	if root.Prefix != "x" || root.Local != "styleSheet" || root.Space != mainNS || root.Start != start {
		t.Fatalf("root: %s {%s} at %d, want x:styleSheet {%s} at %d", root.QName(), root.Space, root.Start, mainNS, start)
	}
	if got := root.attr("a"); got != "1>2" {
		t.Errorf("a = %q, want 1>2", got)
	}
	var names []string
	for _, k := range root.Kids {
		names = append(names, k.QName()+" {"+k.Space+"}")
	}
	want := []string{"x:fonts {" + mainNS + "}", "y:ext {urn:y}", "cellXfs {urn:default}"}
	if strings.Join(names, ", ") != strings.Join(want, ", ") {
		t.Errorf("children %v, want %v", names, want)
	}
	if !strings.Contains(root.text, "<x:fills>") {
		t.Errorf("CDATA is text: got %q", root.text)
	}
	fonts := root.Child("fonts")
	if got := string(data[fonts.Start:fonts.End]); got != `<x:fonts count="1"><x:font/></x:fonts>` {
		t.Errorf("fonts span %q", got)
	}
	font := fonts.Kids[0]
	if !font.SelfClosing() || font.Close != font.Open || string(data[font.Start:font.End]) != "<x:font/>" {
		t.Errorf("<x:font/>: %+v", font)
	}
	ext := root.Child("ext")
	if got := ext.attr("v"); got != "&>" {
		t.Errorf("y:v = %q, want &>", got)
	}
	if got := string(data[ext.Close:ext.End]); got != "</y:ext>" {
		t.Errorf("ext's end tag %q", got)
	}
}

func TestLocateStopsAtDepth(t *testing.T) {
	root, err := Locate([]byte(tricky), 0)
	if err != nil || len(root.Kids) != 0 {
		t.Fatalf("depth 0: %v kids, %v", root, err)
	}
	root, err = Locate([]byte(tricky), 1)
	if err != nil || len(root.Kids) != 3 || len(root.Kids[0].Kids) != 0 {
		t.Fatalf("depth 1: %+v, %v", root, err)
	}
}

func TestWellFormedRefuses(t *testing.T) {
	for _, c := range []struct{ xml, says string }{
		{`<a><b></a>`, "closed by"},
		{`<a>`, "unexpected EOF"},
		{`<x:a/>`, `prefix "x" without declaring it`},
		{`<a y:b="1"/>`, `prefix "y" without declaring it`},
		{`<a/><b/>`, "more than one root"},
		{``, "no root element"},
		{`<!-- only -->`, "no root element"},
	} {
		err := WellFormed([]byte(c.xml))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%s: %v, want it to say %q", c.xml, err, c.says)
		}
	}
	// Locate reads past an undeclared prefix: excelize may leave one.
	if _, err := Locate([]byte(`<x:a><x:b/></x:a>`), 1); err != nil {
		t.Errorf("Locate: %v", err)
	}
}

func TestRawAttrs(t *testing.T) {
	tag := []byte(`<x:c  r="A1" i = '2' s="a>b"/>`)
	var got []string
	for _, a := range rawAttrs(tag) {
		got = append(got, a.name+"="+a.Value(tag)+"@"+string(tag[a.at:a.end]))
	}
	want := `r=A1@r="A1" i=2@i = '2' s=a>b@s="a>b"`
	if strings.Join(got, " ") != want {
		t.Errorf("got %q, want %q", strings.Join(got, " "), want)
	}
	decl := []byte(`<?xml version="1.0" encoding='UTF-16'?>`)
	if a, ok := findAttr(decl, "encoding"); !ok || a.Value(decl) != "UTF-16" {
		t.Errorf("encoding: %+v %v", a, ok)
	}
}

// Each edit changes only the bytes it means to: the text around it is
// compared whole.
func TestSurgeryKeepsOtherBytes(t *testing.T) {
	rels := `<?xml version="1.0"?>` + "\n" + `<p:Relationships xmlns:p="` + relsNamespace + `">` +
		`<!-- keep -->` + "\n  " +
		`<p:Relationship Id="rId1" Type="t" Target="a.xml"/>` + "\n  " +
		`<p:Relationship Target='b.xml' Id="rId2" Type="t"></p:Relationship>` + "\n" +
		`</p:Relationships>`
	removed := strings.Replace(rels, `<p:Relationship Id="rId1" Type="t" Target="a.xml"/>`, "", 1)
	if got := string(RemoveRelationship([]byte(rels), "rId1")); got != removed {
		t.Errorf("RemoveRelationship:\n%s\nwant\n%s", got, removed)
	}
	if got := string(retarget([]byte(rels), "rId2", "c.xml")); got != strings.Replace(rels, `Target='b.xml'`, `Target="c.xml"`, 1) {
		t.Errorf("retarget:\n%s", got)
	}
	added, err := addRelationship([]byte(rels), "rId3", "u", "d.xml")
	if want := strings.Replace(rels, "\n</p:Relationships>", "\n"+`<p:Relationship Id="rId3" Type="u" Target="d.xml"/></p:Relationships>`, 1); err != nil || string(added) != want {
		t.Errorf("addRelationship: %v\n%s", err, added)
	}
	if id := newRelationshipID([]byte(rels)); id != "rId3" {
		t.Errorf("newRelationshipID = %s, want rId3", id)
	}
	empty, err := addRelationship([]byte(`<Relationships xmlns="`+relsNamespace+`" />`), "rId1", "u", "d.xml")
	if want := `<Relationships xmlns="` + relsNamespace + `"><Relationship Id="rId1" Type="u" Target="d.xml"/></Relationships>`; err != nil || string(empty) != want {
		t.Errorf("addRelationship to <Relationships/>: %v\n%s", err, empty)
	}

	if got := withCount(`<fonts  count="3" x14ac:knownFonts="1">`, 5, false); got != `<fonts  count="5" x14ac:knownFonts="1">` {
		t.Errorf("withCount: %s", got)
	}
	if got := withCount(`<cellXfs a="1" />`, 2, true); got != `<cellXfs a="1" count="2" />` {
		t.Errorf("withCount adding: %s", got)
	}
	if got := prefixed(`<font><b/><sz val="1"></sz></font><x:keep/>`, "s"); got != `<s:font><s:b/><s:sz val="1"></s:sz></s:font><x:keep/>` {
		t.Errorf("prefixed: %s", got)
	}
	if hasPrefixed([]byte(`<font><b/></font>`)) || !hasPrefixed([]byte(`<font><x:b/></font>`)) {
		t.Error("hasPrefixed")
	}
	if got := string(declaringUTF8([]byte(`<?xml version="1.0" encoding='UTF-16' standalone="yes"?><a/>`))); got != `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><a/>` {
		t.Errorf("declaringUTF8: %s", got)
	}
	sheet := `<worksheet xmlns="` + mainNS + `"><sheetPr/><dimension ref="A1"></dimension><sheetData><row r="1"/></sheetData></worksheet>`
	if got := string(withDimension([]byte(sheet), "A1:C9")); got != strings.Replace(sheet, `"A1"`, `"A1:C9"`, 1) {
		t.Errorf("withDimension: %s", got)
	}
}

func TestStyleCounts(t *testing.T) {
	styles := `<x:styleSheet xmlns:x="` + mainNS + `">` +
		`<x:fonts x14ac:knownFonts="1" count="9" xmlns:x14ac="urn:ac"><x:font/><x:font><x:b/></x:font></x:fonts>` +
		`<x:fills><x:fill><x:patternFill/></x:fill></x:fills>` +
		`<x:dxfs count="0"/>` +
		`</x:styleSheet>`
	pkg := zipOf(t, map[string]string{StylesPart: styles})
	out, err := fixStyleCounts(pkg)
	if err != nil {
		t.Fatal(err)
	}
	parts, err := Parts(out)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer(
		`<x:fonts x14ac:knownFonts="1" count="9" xmlns:x14ac="urn:ac">`, `<x:fonts x14ac:knownFonts="1" xmlns:x14ac="urn:ac" count="2">`,
		`<x:fills>`, `<x:fills count="1">`).Replace(styles)
	if got := string(parts[StylesPart]); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestStrictToTransitional(t *testing.T) {
	strict := `<workbook xmlns="` + strictMain + `" xmlns:r="` + strictRelationship[:len(strictRelationship)-1] + `" conformance="strict"><sheets/></workbook>`
	got, err := toTransitional([]byte(strict))
	want := `<workbook xmlns="` + MainNamespace + `" xmlns:r="` + transitionalRelationship[:len(transitionalRelationship)-1] + `"><sheets/></workbook>`
	if err != nil || string(got) != want {
		t.Fatalf("%v\n%s\nwant\n%s", err, got, want)
	}
	if err := sameInTransitional([]byte(strict), got); err != nil {
		t.Error(err)
	}
}

// zipOf packs parts into a zip, in name order.
func zipOf(t testing.TB, parts map[string]string) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, name := range sortedKeys(parts) {
		f, err := w.Create(name)
		if err == nil {
			_, err = io.WriteString(f, parts[name])
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sortedKeys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// rawNames are the element names and attributes of data as encoding/xml's
// raw tokens give them, for comparing with the reader's.
func rawNames(data []byte) ([]string, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	var out []string
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if t, ok := tok.(xml.StartElement); ok {
			out = append(out, describe(t.Name.Space, t.Name.Local))
			for _, a := range t.Attr {
				out = append(out, " "+describe(a.Name.Space, a.Name.Local)+"="+a.Value)
			}
		}
	}
}

func describe(prefix, local string) string { return prefix + "|" + local }

func TestStringStarts(t *testing.T) {
	block := []byte(`<sst><si><t>a</t></si><x:si/><si ` + "\n" + `r="1"></si><sis/></si><si`)
	// Three whole starts; the last <si lacks the byte that ends its name,
	// so the next block reads it.
	if n, last := stringStarts(block); n != 3 || string(block[:last]) != `<sst><si><t>a</t></si><x:si/><si ` {
		t.Errorf("n = %d, up to %q", n, block[:last])
	}
}
