package ooxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"sort"
	"strings"
)

// Strict Open XML (ISO/IEC 29500 Strict, Excel's "Strict Open XML
// Spreadsheet") is the format planner writes, Transitional, under other
// namespaces: http://purl.oclc.org/ooxml/... instead of
// http://schemas.openxmlformats.org/.... The Transitional schemas take in
// everything Strict says (percentages written "50%" included), so a Strict
// package becomes a Transitional one by naming its namespaces and
// relationship types the Transitional way, and dropping the workbook's
// conformance="strict": nothing a cell holds changes. planner converts the
// whole package so (a package half of each is one Excel refuses), and says
// so; a namespace it does not know the Transitional form of is refused.

// strictMark is how every Strict namespace begins.
const strictMark = "http://purl.oclc.org/ooxml/"

// strictMain is SpreadsheetML's namespace in Strict.
const strictMain = strictMark + "spreadsheetml/main"

// strictNamespaces are the Strict namespaces and their Transitional forms.
var strictNamespaces = map[string]string{
	strictMark + "drawingml/chart":                        "http://schemas.openxmlformats.org/drawingml/2006/chart",
	strictMark + "drawingml/chartDrawing":                 "http://schemas.openxmlformats.org/drawingml/2006/chartDrawing",
	strictMark + "drawingml/compatibility":                "http://schemas.openxmlformats.org/drawingml/2006/compatibility",
	strictMark + "drawingml/diagram":                      "http://schemas.openxmlformats.org/drawingml/2006/diagram",
	strictMark + "drawingml/lockedCanvas":                 "http://schemas.openxmlformats.org/drawingml/2006/lockedCanvas",
	strictMark + "drawingml/main":                         "http://schemas.openxmlformats.org/drawingml/2006/main",
	strictMark + "drawingml/picture":                      "http://schemas.openxmlformats.org/drawingml/2006/picture",
	strictMark + "drawingml/spreadsheetDrawing":           "http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing",
	strictMark + "drawingml/wordprocessingDrawing":        "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing",
	strictMark + "officeDocument/bibliography":            "http://schemas.openxmlformats.org/officeDocument/2006/bibliography",
	strictMark + "officeDocument/customProperties":        "http://schemas.openxmlformats.org/officeDocument/2006/custom-properties",
	strictMark + "officeDocument/customXml":               "http://schemas.openxmlformats.org/officeDocument/2006/customXml",
	strictMark + "officeDocument/customXmlDataProps":      "http://schemas.openxmlformats.org/officeDocument/2006/customXmlDataProps",
	strictMark + "officeDocument/docPropsVTypes":          "http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes",
	strictMark + "officeDocument/extendedProperties":      "http://schemas.openxmlformats.org/officeDocument/2006/extended-properties",
	strictMark + "officeDocument/math":                    "http://schemas.openxmlformats.org/officeDocument/2006/math",
	strictMark + "officeDocument/relationships":           "http://schemas.openxmlformats.org/officeDocument/2006/relationships",
	strictMark + "officeDocument/sharedTypes":             "http://schemas.openxmlformats.org/officeDocument/2006/sharedTypes",
	strictMark + "presentationml/main":                    "http://schemas.openxmlformats.org/presentationml/2006/main",
	strictMark + "schemaLibrary/main":                     "http://schemas.openxmlformats.org/schemaLibrary/2006/main",
	strictMain:                                            MainNamespace,
	strictMark + "wordprocessingml/main":                  "http://schemas.openxmlformats.org/wordprocessingml/2006/main",
	strictMark + "officeDocument/relationships/customXml": "http://schemas.openxmlformats.org/officeDocument/2006/customXml",
}

// strictRelationships are the Strict relationship types, by the name after
// strictRelationship, that the Transitional form does not spell
// transitionalRelationship + the same name.
const (
	strictRelationship       = strictMark + "officeDocument/relationships/"
	transitionalRelationship = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

var strictRelationshipNames = map[string]string{
	"extendedProperties": transitionalRelationship + "extended-properties",
	"customProperties":   transitionalRelationship + "custom-properties",
	"metadata/thumbnail": "http://schemas.openxmlformats.org/package/2006/relationships/metadata/thumbnail",
}

// relationshipNames are the relationship types whose Transitional form is
// the same name under transitionalRelationship.
var relationshipNames = strings.Fields(`aFChunk attachedTemplate audio calcChain chart chartsheet chartUserShapes
	commentAuthors comments connections control customProperty customXml customXmlProps diagramColors diagramData
	diagramLayout diagramQuickStyle dialogsheet drawing endnotes externalLink externalLinkPath font fontTable footer
	footnotes frame glossaryDocument handoutMaster header htmlPubSaveAs hyperlink image mailMergeHeaderSource
	mailMergeRecipientData mailMergeSource movie notesMaster notesSlide numbering officeDocument oleObject package
	pivotCacheDefinition pivotCacheRecords pivotTable presProps printerSettings queryTable revisionHeaders revisionLog
	settings sharedStrings sheetMetadata slide slideLayout slideMaster slideUpdateInfo slideUpdateUrl styles
	subDocument table tableSingleCells tableStyles tags theme themeOverride transform usernames video viewProps
	volatileDependencies webSettings worksheet xmlMaps`)

// transitionalType is a relationship type as Transitional names it, and
// false for a Strict type planner does not know.
func transitionalType(typ string) (string, bool) {
	name, strict := strings.CutPrefix(typ, strictRelationship)
	if !strict {
		return typ, !strings.HasPrefix(typ, strictMark)
	}
	if t, ok := strictRelationshipNames[name]; ok {
		return t, true
	}
	for _, n := range relationshipNames {
		if n == name {
			return transitionalRelationship + name, true
		}
	}
	return "", false
}

// transitionalNamespace is a namespace as Transitional names it, and false
// for a Strict one planner does not know.
func transitionalNamespace(ns string) (string, bool) {
	if t, ok := strictNamespaces[ns]; ok {
		return t, true
	}
	return ns, !strings.HasPrefix(ns, strictMark)
}

// toTransitional is an XML part with its Strict namespaces, relationship
// types and conformance named the Transitional way; every other byte stays.
// It fails for a part that is not XML it can read, or that names a Strict
// namespace or relationship type it does not know. The attributes it may
// change are namespace declarations, a relationship's type and the
// workbook's conformance.
func toTransitional(part []byte) ([]byte, error) {
	var edits []splice
	rels := false
	err := walk(bytes.NewReader(part), func(tok xml.Token, at, end, depth int) error {
		t, ok := tok.(xml.StartElement)
		if !ok {
			return nil
		}
		if depth == 0 {
			rels = t.Name.Local == "Relationships"
		}
		tag := part[at:end]
		for _, a := range rawAttrs(tag) {
			value := a.Value(tag)
			now := value
			switch {
			case a.name == "xmlns" || strings.HasPrefix(a.name, "xmlns:"):
				var ok bool
				if now, ok = transitionalNamespace(value); !ok {
					return fmt.Errorf("it uses the Strict namespace %s, which planner does not know the Transitional form of", value)
				}
			case a.name == "Type" && rels && depth == 1:
				var ok bool
				if now, ok = transitionalType(value); !ok {
					return fmt.Errorf("it has a relationship of the Strict type %s, which planner does not know the Transitional form of", value)
				}
			case a.name == "conformance" && depth == 0 && value == "strict":
				edits = append(edits, splice{at + a.at - 1, at + a.end, ""})
			}
			if now != value {
				edits = append(edits, splice{at + a.value + 1, at + a.end - 1, now})
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return applySplices(part, edits), nil
}

// sameInTransitional fails unless a converted part says what the Strict
// one did: the same elements, attributes and text, each name's namespace
// and each relationship's type taken as Transitional names them, and the
// workbook's conformance left out. It reads both whole, apart from the
// edit that made one from the other.
func sameInTransitional(strict, converted []byte) error {
	a, err := parseXML(strict)
	if err != nil {
		return fmt.Errorf("it is not XML planner can read (%v)", err)
	}
	b, err := parseXML(converted)
	if err != nil || transitionalTree(a, true).canonical() != b.canonical() {
		return fmt.Errorf("naming its namespaces the Transitional way would change more than its namespaces")
	}
	return nil
}

// transitionalTree is n with its names in Transitional namespaces.
func transitionalTree(n *Element, root bool) *Element {
	out := &Element{Local: n.Local, Space: n.Space, text: n.text}
	out.Space, _ = transitionalNamespace(n.Space)
	for _, a := range n.attrs {
		if root && a.Name.Space == "" && a.Name.Local == "conformance" && a.Value == "strict" {
			continue
		}
		a.Name.Space, _ = transitionalNamespace(a.Name.Space)
		if n.Local == "Relationship" && a.Name.Space == "" && a.Name.Local == "Type" {
			a.Value, _ = transitionalType(a.Value)
		}
		out.attrs = append(out.attrs, a)
	}
	sort.Slice(out.attrs, func(i, j int) bool { return attrKey(out.attrs[i]) < attrKey(out.attrs[j]) })
	for _, k := range n.Kids {
		out.Kids = append(out.Kids, transitionalTree(k, false))
	}
	return out
}
