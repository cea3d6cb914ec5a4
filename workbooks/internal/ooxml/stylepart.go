package ooxml

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// excelize keeps styles in xl/styles.xml and adds a style by appending to
// its lists of fonts, fills, borders and cell formats. When the part is
// missing, empty, or lacks one of those lists (programs that write no
// formatting leave it out; the format allows that), excelize's model has no
// list to append to and NewStyle dereferences nil. prepareStyles gives such
// a workbook what every spreadsheet program assumes: a style part with the
// default font, the two reserved fills, an empty border and the default cell
// format, so that planner's styles come after them and the user's cells keep
// looking as they did.

// The workbook's relationships, and the names a style part is linked,
// declared and written under.
const (
	WorkbookRels  = "xl/_rels/workbook.xml.rels"
	RelStyles     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles"
	StylesContent = "application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"
	MainNamespace = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
)

// styleOrder is the order of a style part's lists in the schema.
var styleOrder = []string{"numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles",
	"dxfs", "tableStyles", "colors", "extLst"}

// defaultStyles are the entries a style list needs before planner's, by
// list, with the name of each entry.
var defaultStyles = []struct {
	list, entry string
	n           int
	xml         string
}{
	{"fonts", "font", 1, `<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>`},
	{"fills", "fill", 2, `<fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill>`},
	{"borders", "border", 1, `<border><left/><right/><top/><bottom/><diagonal/></border>`},
	{"cellStyleXfs", "xf", 1, `<xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>`},
	{"cellXfs", "xf", 1, `<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>`},
}

const defaultCellStyles = `<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>`

// MinimalStyles is the style part planner gives a workbook that has none.
func MinimalStyles() []byte {
	var b strings.Builder
	b.WriteString(xmlHeader + `<styleSheet xmlns="` + MainNamespace + `">`)
	for _, d := range defaultStyles {
		fmt.Fprintf(&b, `<%s count="%d">%s</%s>`, d.list, d.n, d.xml, d.list)
	}
	b.WriteString(defaultCellStyles + `</styleSheet>`)
	return []byte(b.String())
}

const xmlHeader = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"

// prepareStyles returns data with a style part excelize can add to, and
// data itself when it has one. It refuses a workbook whose styles are
// somewhere planner cannot safely add to.
func prepareStyles(path string, data []byte) ([]byte, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rels := ps.get(WorkbookRels)
	target, hasRel := "", false
	if root, err := parseXML(rels); err == nil {
		for _, r := range root.Kids {
			if r.attr("Type") == RelStyles && r.attr("TargetMode") != "External" {
				target, hasRel = resolve("xl", r.attr("Target")), true
			}
		}
	}
	part, present, readable := stylePart(ps)
	switch {
	case !readable:
		return data, nil // damaged: excelize says so when it opens the package
	case hasRel && !strings.EqualFold(target, StylesPart):
		return nil, fmt.Errorf("%s: keeps its styles in %s instead of xl/styles.xml, and planner could not add its own there without damage; open it in Excel or LibreOffice, save it as .xlsx, then run planner again", path, target)
	case !hasRel && present && !BlankXML(part):
		return nil, fmt.Errorf("%s: has a styles part (xl/styles.xml) that its workbook does not use, and planner's styles would bring it into use, changing how your cells look; open it in Excel or LibreOffice, save it as .xlsx, then run planner again", path)
	case !present || BlankXML(part):
		added, err := addStylePart(data, rels, hasRel)
		if err != nil {
			return nil, damagedZip(path, err)
		}
		return added, nil
	}
	completed, err := completeStyles(part)
	if err != nil {
		return nil, fmt.Errorf("%s: xl/styles.xml: %v; open it in Excel or LibreOffice, save it as .xlsx, then run planner again", path, err)
	}
	if completed == nil {
		return data, nil
	}
	completed, err = rewrite(data, edits{put: map[string][]byte{StylesPart: completed}})
	if err != nil {
		return nil, damagedZip(path, err)
	}
	return completed, nil
}

// damagedZip is the message for a package whose entries cannot be copied.
func damagedZip(path string, err error) error {
	return fmt.Errorf("%s: is a damaged zip archive (%v); it may have been cut short while copying: open it in Excel or LibreOffice and save it again", path, err)
}

// stylePart reads xl/styles.xml: its bytes, whether the package has it, and
// whether it could be read.
func stylePart(ps *lazyParts) ([]byte, bool, bool) {
	f := ps.files[StylesPart]
	if f == nil {
		return nil, false, true
	}
	if f.UncompressedSize64 > MaxPartInMemory {
		return nil, true, false
	}
	b := ps.get(StylesPart)
	return b, true, b != nil || readsEmpty(f)
}

func readsEmpty(f *zip.File) bool {
	rc, err := f.Open()
	if err != nil {
		return false
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, rc)
	return err == nil && n == 0
}

// BlankXML reports whether a part holds no element at all: nothing, white
// space, or only the XML declaration.
func BlankXML(b []byte) bool {
	b = bytes.TrimSpace(b)
	if bytes.HasPrefix(b, []byte("<?xml")) {
		if end := bytes.Index(b, []byte("?>")); end >= 0 {
			b = bytes.TrimSpace(b[end+2:])
		}
	}
	return len(b) == 0
}

// addStylePart puts planner's minimal style part into the package, with its
// relationship from the workbook and its content type when they are
// missing.
func addStylePart(data, rels []byte, hasRel bool) ([]byte, error) {
	e := edits{put: map[string][]byte{StylesPart: MinimalStyles()}}
	if !hasRel {
		added, err := addRelationship(rels, newRelationshipID(rels), RelStyles, "styles.xml")
		if err != nil {
			return nil, err
		}
		e.put[WorkbookRels] = added
	}
	e.types = func(t *types) {
		for _, o := range t.Overrides {
			if strings.EqualFold(o.PartName, "/"+StylesPart) {
				return
			}
		}
		t.Overrides = append(t.Overrides, typeOverride{PartName: "/" + StylesPart, ContentType: StylesContent})
	}
	return rewrite(data, e)
}

// completeStyles adds the lists and default entries a style part lacks,
// each where the schema puts it and with the part's own namespace prefix.
// It returns nil when nothing is missing.
func completeStyles(part []byte) ([]byte, error) {
	if _, err := parseXML(part); err != nil {
		return nil, err
	}
	root, err := Locate(part, 2)
	if err != nil {
		return nil, err
	}
	if root.Local != "styleSheet" {
		return nil, fmt.Errorf("its root element is %s, not a styleSheet", root.Local)
	}
	if root.SelfClosing() {
		// <styleSheet/>: open it, and the lists go inside.
		open := openTag(part, root)
		closed := append([]byte(string(part[:root.Start])+open+"</"+root.QName()+">"), part[root.End:]...)
		return completeStyles(closed)
	}
	var out []splice
	insertedXfs := false
	for _, d := range defaultStyles {
		entries := prefixed(d.xml, root.Prefix)
		list := root.Child(d.list)
		switch {
		case list == nil:
			at := listPosition(root, d.list)
			qname := d.list
			if root.Prefix != "" {
				qname = root.Prefix + ":" + d.list
			}
			out = append(out, splice{at, at, fmt.Sprintf(`<%s count="%d">%s</%s>`, qname, d.n, entries, qname)})
			insertedXfs = insertedXfs || d.list == "cellStyleXfs"
		case list.Count(d.entry) == 0:
			open := withCount(openTag(part, list), d.n, true)
			if list.SelfClosing() {
				out = append(out, splice{list.Start, list.End, open + entries + "</" + list.QName() + ">"})
			} else {
				out = append(out, splice{list.Start, list.Open, open}, splice{list.Close, list.Close, entries})
			}
			insertedXfs = insertedXfs || d.list == "cellStyleXfs"
		}
	}
	if insertedXfs && root.Child("cellStyles") == nil {
		at := listPosition(root, "cellStyles")
		out = append(out, splice{at, at, prefixed(defaultCellStyles, root.Prefix)})
	}
	if len(out) == 0 {
		return nil, nil
	}
	return applySplices(part, out), nil
}

// listPosition is where a missing list goes: before the first list the
// schema puts after it, or before the end of the part.
func listPosition(root *Element, list string) int {
	after := false
	for _, name := range styleOrder {
		if name == list {
			after = true
			continue
		}
		if !after {
			continue
		}
		if k := root.Child(name); k != nil {
			return k.Start
		}
	}
	return root.Close
}

// prepare readies a package for excelize to add planner's sheets to: a
// style part it can add to, with true counts.
func prepare(path string, data []byte) ([]byte, error) {
	data, err := prepareStyles(path, data)
	if err != nil {
		return nil, err
	}
	counted, err := fixStyleCounts(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return counted, nil
}
