package ooxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/cols"
)

// Charts on planner's sheets are drawn afresh on every run: the old drawing
// is taken out of the package before excelize opens it, and the new charts,
// rendered in a scratch workbook, are put in after excelize has saved. So a
// chart always points at the rows its table has now, the parts get the
// lowest free numbers (the same on every run over the same file), and
// excelize never numbers a new part onto one of the user's.

// Chart is a chart with the cell its top-left corner sits on.
type Chart struct {
	Cell  string
	Chart *excelize.Chart
}

const (
	relDrawing     = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing"
	relChart       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart"
	relsNamespace  = "http://schemas.openxmlformats.org/package/2006/relationships"
	drawingContent = "application/vnd.openxmlformats-officedocument.drawing+xml"
	chartContent   = "application/vnd.openxmlformats-officedocument.drawingml.chart+xml"
	chartNamespace = "http://schemas.openxmlformats.org/drawingml/2006/chart"
)

// stripDrawings takes the drawings of the named sheets out of the package:
// the drawing element, its relationship, the drawing part and the charts it
// holds, and the sheets' page breaks. Pictures the drawing used stay, in
// case another drawing uses them.
func stripDrawings(data []byte, sheets []string) ([]byte, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	e := edits{put: map[string][]byte{}, drop: map[string]bool{}}
	where := SheetParts(ps.get)
	for _, sheet := range sheets {
		p, ok := where[sheet]
		if !ok {
			continue
		}
		drawings := false
		relsPath := RelsOf(p)
		if rels, err := parseXML(ps.get(relsPath)); err == nil && ps.get(relsPath) != nil {
			for _, r := range rels.Kids {
				if r.attr("Type") != relDrawing || r.attr("TargetMode") == "External" {
					continue
				}
				dropDrawing(ps, resolve(path.Dir(p), r.attr("Target")), e.drop)
				e.put[relsPath] = RemoveRelationship(ps.get(relsPath), r.attr("Id"))
				drawings = true
			}
		}
		if b := withoutDrawing(ps.get(p), drawings); b != nil {
			e.put[p] = b
		}
	}
	if len(e.drop) == 0 && len(e.put) == 0 {
		return data, nil
	}
	e.types = func(t *types) { t.Overrides = keepOverrides(t.Overrides, e.drop) }
	return rewrite(data, e)
}

// withoutDrawing is a worksheet without its manual page breaks (planner
// sets its sheets' breaks afresh, and excelize, which cannot list them,
// would keep the old ones) and, when drawing is true, its <drawing>; nil
// when neither is there.
func withoutDrawing(sheet []byte, drawing bool) []byte {
	root, err := Locate(sheet, 1)
	if err != nil {
		return nil
	}
	var cut []splice
	for _, k := range root.Kids {
		if k.Local == "rowBreaks" || k.Local == "colBreaks" || drawing && k.Local == "drawing" && k.Empty() {
			cut = append(cut, splice{k.Start, k.End, ""})
		}
	}
	if drawing && len(cut) == 0 {
		return sheet
	}
	if len(cut) == 0 {
		return nil
	}
	return applySplices(sheet, cut)
}

// dropDrawing marks a drawing, its relationships, its charts and the
// charts' own relationships and parts (styles, colours) to be left out.
func dropDrawing(ps *lazyParts, drawing string, drop map[string]bool) {
	drop[drawing] = true
	rels, err := parseXML(ps.get(RelsOf(drawing)))
	if err != nil || ps.get(RelsOf(drawing)) == nil {
		return
	}
	drop[RelsOf(drawing)] = true
	for _, r := range rels.Kids {
		if r.attr("Type") != relChart || r.attr("TargetMode") == "External" {
			continue
		}
		chart := resolve(path.Dir(drawing), r.attr("Target"))
		drop[chart] = true
		if chartRels, err := parseXML(ps.get(RelsOf(chart))); err == nil && ps.get(RelsOf(chart)) != nil {
			drop[RelsOf(chart)] = true
			for _, cr := range chartRels.Kids {
				if cr.attr("TargetMode") != "External" {
					drop[resolve(path.Dir(chart), cr.attr("Target"))] = true
				}
			}
		}
	}
}

// ChartCounts counts the charts of the named sheets, as a spreadsheet
// application finds them: through the sheet's drawing to chart parts the
// package holds. A sheet without charts is not listed.
func ChartCounts(data []byte, sheets []string) (map[string]int, error) {
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for sheet, p := range SheetParts(ps.get) {
		if !slices.Contains(sheets, sheet) {
			continue
		}
		for _, drawing := range relTargets(ps, p, relDrawing) {
			charts := relTargets(ps, drawing, relChart)
			if n := chartsIn(ps.get(drawing), charts); n > 0 {
				out[sheet] += n
			}
		}
	}
	return out, nil
}

// relTargets maps the ids of part p's relationships of one type to the parts
// they lead to, those the package holds.
func relTargets(ps *lazyParts, p, typ string) map[string]string {
	rels, err := parseXML(ps.get(RelsOf(p)))
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, r := range rels.Kids {
		if r.attr("Type") == typ && r.attr("TargetMode") != "External" {
			if t := resolve(path.Dir(p), r.attr("Target")); ps.files[t] != nil {
				out[r.attr("Id")] = t
			}
		}
	}
	return out
}

// chartsIn counts the chart references in a drawing that lead to a chart
// part.
func chartsIn(drawing []byte, charts map[string]string) int {
	root, err := parseXML(drawing)
	if err != nil {
		return 0
	}
	n := 0
	var walk func(*Element)
	walk = func(e *Element) {
		if e.Local == "chart" && e.Space == chartNamespace && charts[e.attr("id")] != "" {
			n++
		}
		for _, k := range e.Kids {
			walk(k)
		}
	}
	walk(root)
	return n
}

// RelsOf is the relationships part of the part p.
func RelsOf(p string) string { return path.Join(path.Dir(p), "_rels", path.Base(p)+".rels") }

// RemoveRelationship deletes the relationship with the given id from a
// relationships part.
func RemoveRelationship(rels []byte, id string) []byte {
	root, err := Locate(rels, 1)
	if err != nil {
		return rels
	}
	var cut []splice
	for _, r := range root.Kids {
		if r.Local == "Relationship" && r.Empty() && r.attr("Id") == id {
			cut = append(cut, splice{r.Start, r.End, ""})
		}
	}
	return applySplices(rels, cut)
}

func keepOverrides(overrides []typeOverride, drop map[string]bool) []typeOverride {
	var kept []typeOverride
	for _, o := range overrides {
		if !drop[strings.TrimPrefix(o.PartName, "/")] {
			kept = append(kept, o)
		}
	}
	return kept
}

// drawCharts puts each sheet's charts into the package, on the sheet. Part
// names also taken (by the user's parts outside the package) are not used.
// A sheet placed names has its <drawing> element already, for the
// relationship id given, which must be the one drawCharts adds.
func drawCharts(data []byte, sheets []Sheet, also func(string) bool, placed map[string]string) ([]byte, error) {
	var drawn []Sheet
	for _, s := range sheets {
		if len(s.Charts) > 0 {
			drawn = append(drawn, s)
		}
	}
	if len(drawn) == 0 {
		return data, nil
	}
	scratch, err := renderCharts(drawn)
	if err != nil {
		return nil, fmt.Errorf("drawing planner's charts: %w", err)
	}
	ps, err := openParts(data)
	if err != nil {
		return nil, err
	}
	e := edits{put: map[string][]byte{}, make: map[string]func() ([]byte, error){}}
	var added []typeOverride
	// A name is taken by a part, or by a content type the package declares
	// for a part it lacks (some writers leave those behind).
	declared := map[string]bool{}
	var ct types
	if err := xml.Unmarshal(ps.get(ContentTypes), &ct); err == nil {
		for _, o := range ct.Overrides {
			declared[strings.TrimPrefix(o.PartName, "/")] = true
		}
	}
	taken := func(p string) bool { return ps.files[p] != nil || e.put[p] != nil || declared[p] || also(p) }
	where, drawings, charts := SheetParts(ps.get), 0, 0
	for _, s := range drawn {
		sheet, ok := where[s.Name]
		if !ok {
			return nil, fmt.Errorf("drawing the charts of %s: the sheet is missing", s.Name)
		}
		from := scratch[s.Name]
		drawing := free("xl/drawings/drawing%d.xml", &drawings, taken)
		e.put[drawing] = from.drawing
		added = append(added, typeOverride{PartName: "/" + drawing, ContentType: drawingContent})
		renamed := map[string]string{}
		for _, c := range from.charts {
			chart := free("xl/charts/chart%d.xml", &charts, taken)
			e.put[chart] = c.content
			renamed[c.name] = path.Base(chart)
			added = append(added, typeOverride{PartName: "/" + chart, ContentType: chartContent})
		}
		// One pass: renaming chart1 to chart2 must not then be renamed again.
		e.put[RelsOf(drawing)] = renameCharts(from.rels, renamed)
		id := newRelationshipID(ps.get(RelsOf(sheet)))
		if e.put[RelsOf(sheet)], err = addRelationship(ps.get(RelsOf(sheet)), id, relDrawing, "../drawings/"+path.Base(drawing)); err != nil {
			return nil, fmt.Errorf("drawing the charts of %s: %w", s.Name, err)
		}
		if at, ok := placed[s.Name]; ok {
			if at != id {
				return nil, fmt.Errorf("drawing the charts of %s: the sheet points at its drawing as %s, but the relationship's id is %s", s.Name, at, id)
			}
			continue // the sheet has its <drawing> element already
		}
		// The sheet, which may be large, is inflated and given its drawing
		// as it is written.
		e.make[sheet] = func() ([]byte, error) {
			part, err := addDrawingElement(ps.read(sheet), id)
			if err != nil {
				return nil, fmt.Errorf("drawing the charts of %s: %w", s.Name, err)
			}
			return part, nil
		}
	}
	e.types = func(t *types) { t.Overrides = append(t.Overrides, added...) }
	return rewrite(data, e)
}

// drawn is one sheet's drawing as a scratch workbook rendered it.
type drawn struct {
	drawing, rels []byte
	charts        []namedPart // in the drawing's order
}

type namedPart struct {
	name    string // chart3.xml
	content []byte
}

// renderCharts draws every sheet's charts in one scratch workbook, on
// sheets of the same names, and returns each sheet's drawing and charts.
func renderCharts(sheets []Sheet) (map[string]drawn, error) {
	f := excelize.NewFile()
	defer f.Close()
	for i, s := range sheets {
		var err error
		if i == 0 {
			err = f.SetSheetName("Sheet1", s.Name)
		} else {
			_, err = f.NewSheet(s.Name)
		}
		if err != nil {
			return nil, err
		}
		// The scratch sheet has the real one's columns and rows, so that
		// each chart's far corner lands where its size puts it.
		if err := cols.Set(f, s.Name, s.Widths); err != nil {
			return nil, err
		}
		for _, r := range slices.Sorted(maps.Keys(s.Heights)) {
			if err := f.SetRowHeight(s.Name, r, s.Heights[r]); err != nil {
				return nil, Unlaid("the charts of its "+s.Name+" sheet", err)
			}
		}
		for _, c := range s.Charts {
			if err := f.AddChart(s.Name, c.Cell, c.Chart); err != nil {
				return nil, Unlaid("the charts of its "+s.Name+" sheet", err)
			}
		}
	}
	// The scratch package is captured as excelize writes it, never zipped:
	// only its drawings and charts are wanted, and they are deflated once,
	// with the workbook.
	c, err := capture(f)
	if err != nil {
		return nil, Unlaid("its charts", err)
	}
	get := c.part
	where := SheetParts(get)
	out := map[string]drawn{}
	for _, s := range sheets {
		sheet := where[s.Name]
		rels, err := parseXML(get(RelsOf(sheet)))
		if err != nil {
			return nil, fmt.Errorf("%s: the scratch drawing is missing", s.Name)
		}
		for _, r := range rels.Kids {
			if r.attr("Type") != relDrawing {
				continue
			}
			drawing := resolve(path.Dir(sheet), r.attr("Target"))
			d := drawn{drawing: get(drawing), rels: get(RelsOf(drawing))}
			for _, t := range chartTargets(d.rels) {
				name := string(d.rels[t.value+1+len(chartDir) : t.end-1])
				d.charts = append(d.charts, namedPart{name, get("xl/charts/" + name)})
			}
			out[s.Name] = d
		}
	}
	return out, nil
}

// free is the pattern's first name not taken from number *n up, *n left at its number.
func free(pattern string, n *int, taken func(string) bool) string {
	for *n = max(*n, 1); ; *n++ {
		if p := fmt.Sprintf(pattern, *n); !taken(p) {
			return p
		}
	}
}

// chartDir is where a drawing's relationships say its charts are.
const chartDir = "../charts/"

// chartTargets are the Target attributes of the relationships of a scratch
// drawing (written by excelize) that point at a chart, with offsets in rels.
func chartTargets(rels []byte) []rawAttr {
	root, err := Locate(rels, 1)
	if err != nil {
		return nil
	}
	var out []rawAttr
	for _, r := range root.Kids {
		tag := rels[r.Start:r.Open]
		if t, ok := findAttr(tag, "Target"); ok && strings.HasPrefix(t.Value(tag), chartDir) {
			t.at, t.value, t.end = t.at+r.Start, t.value+r.Start, t.end+r.Start
			out = append(out, t)
		}
	}
	return out
}

// renameCharts points a scratch drawing's relationships at the charts'
// new names, all in one pass: renaming chart1 to chart2 must not then be
// renamed again.
func renameCharts(rels []byte, renamed map[string]string) []byte {
	var edits []splice
	for _, t := range chartTargets(rels) {
		name := string(rels[t.value+1+len(chartDir) : t.end-1])
		edits = append(edits, splice{t.value + 1, t.end - 1, chartDir + renamed[name]})
	}
	return applySplices(rels, edits)
}

// newRelationshipID is rId one above the highest rIdN in rels.
func newRelationshipID(rels []byte) string {
	next := 1
	if root, err := Locate(rels, 1); err == nil {
		for _, r := range root.Kids {
			if n, ok := strings.CutPrefix(r.attr("Id"), "rId"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
				id, _ := strconv.Atoi(n)
				next = max(next, id+1)
			}
		}
	}
	return "rId" + strconv.Itoa(next)
}

// addRelationship appends a relationship, making the part when it is new;
// the new element takes the prefix the part's own elements use.
func addRelationship(rels []byte, id, typ, target string) ([]byte, error) {
	element := func(prefix string) string {
		return fmt.Sprintf(`<%sRelationship Id="%s" Type="%s" Target="%s"/>`, prefix, id, typ, target)
	}
	if rels == nil {
		return []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
			`<Relationships xmlns="` + relsNamespace + `">` + element("") + `</Relationships>`), nil
	}
	root, err := Locate(rels, 0)
	if err != nil || root.Local != "Relationships" {
		return nil, fmt.Errorf("its relationships part has no Relationships element")
	}
	add := element(prefixOf(root))
	if root.SelfClosing() {
		add = openTag(rels, root) + add + "</" + root.QName() + ">"
		return applySplices(rels, []splice{{root.Start, root.End, add}}), nil
	}
	return applySplices(rels, []splice{{root.Close, root.Close, add}}), nil
}

// prefixOf is the element's prefix with its colon, or "".
func prefixOf(e *Element) string {
	if e.Prefix == "" {
		return ""
	}
	return e.Prefix + ":"
}

// Worksheet elements that come before <drawing> and after it, in the
// schema's order. Some of them hold an extLst of their own, so the search
// for the elements after starts past the last of those before.
var (
	beforeDrawing = []string{"</sheetData>", "<sheetData/>", "</conditionalFormatting>", "</dataValidations>",
		"</hyperlinks>", "<pageMargins", "<pageSetup", "</headerFooter>", "</rowBreaks>", "</colBreaks>", "</ignoredErrors>"}
	afterDrawing = []string{"<legacyDrawing", "<drawingHF", "<picture", "<oleObjects",
		"<controls", "<webPublishItems", "<tableParts", "<extLst", "</worksheet>"}
)

// addDrawingElement puts <drawing r:id="id"/> where the schema wants it in
// a worksheet excelize wrote (default namespace, no prefix).
func addDrawingElement(sheet []byte, id string) ([]byte, error) {
	// The last of the elements before it, looked for after the sheet's
	// data only when it has an end: none that lies before that end can
	// be the last, and the data is most of the sheet.
	from, tail := 0, 0
	if end := bytes.LastIndex(sheet, []byte("</sheetData>")); end >= 0 {
		from, tail = end, end
	}
	for _, el := range beforeDrawing {
		if i := bytes.LastIndex(sheet[tail:], []byte(el)); i >= 0 {
			from = max(from, tail+i)
		}
	}
	at := -1
	for _, el := range afterDrawing {
		if i := bytes.Index(sheet[from:], []byte(el)); i >= 0 && (at < 0 || from+i < at) {
			at = from + i
		}
	}
	if at < 0 {
		return nil, fmt.Errorf("the worksheet has no end")
	}
	el := `<drawing xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="` + id + `"/>`
	return append(append(append([]byte(nil), sheet[:at]...), el...), sheet[at:]...), nil
}
