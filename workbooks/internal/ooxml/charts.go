package ooxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"sort"
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

// drawingElement matches a worksheet's <drawing r:id="..."/>, with or
// without a namespace prefix or a closing tag.
var drawingElement = regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?drawing\b[^>]*?(?:/>|>\s*</(?:[A-Za-z_][\w.-]*:)?drawing>)`)

// pageBreaks matches a worksheet's manual page breaks: planner sets its
// sheets' breaks afresh, and excelize, which cannot list them, would keep
// the old ones.
var pageBreaks = regexp.MustCompile(`(?s)<(rowBreaks|colBreaks)\b[^>]*?(?:/>|>.*?</(?:rowBreaks|colBreaks)>)`)

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
		if b := pageBreaks.ReplaceAll(ps.get(p), nil); !bytes.Equal(b, ps.get(p)) {
			e.put[p] = b
		}
		relsPath := RelsOf(p)
		rels, err := parseXML(ps.get(relsPath))
		if err != nil || ps.get(relsPath) == nil {
			continue
		}
		for _, r := range rels.Kids {
			if r.attr("Type") != relDrawing || r.attr("TargetMode") == "External" {
				continue
			}
			dropDrawing(ps, resolve(path.Dir(p), r.attr("Target")), e.drop)
			e.put[relsPath] = RemoveRelationship(ps.get(relsPath), r.attr("Id"))
			if e.put[p] == nil {
				e.put[p] = ps.get(p)
			}
			e.put[p] = drawingElement.ReplaceAll(e.put[p], nil)
		}
	}
	if len(e.drop) == 0 && len(e.put) == 0 {
		return data, nil
	}
	e.types = func(t *types) { t.Overrides = keepOverrides(t.Overrides, e.drop) }
	return rewrite(data, e)
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
	var walk func(*node)
	walk = func(e *node) {
		if e.name.Local == "chart" && e.name.Space == chartNamespace && charts[e.attr("id")] != "" {
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
	re := regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?Relationship\b[^>]*\bId="` + regexp.QuoteMeta(id) +
		`"[^>]*?(?:/>|>\s*</(?:[A-Za-z_][\w.-]*:)?Relationship>)`)
	return re.ReplaceAll(rels, nil)
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
func drawCharts(data []byte, sheets []Sheet, also func(string) bool) ([]byte, error) {
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
	e := edits{put: map[string][]byte{}}
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
		e.put[RelsOf(drawing)] = chartTarget.ReplaceAllFunc(from.rels, func(m []byte) []byte {
			return []byte(`"../charts/` + renamed[string(chartTarget.FindSubmatch(m)[1])] + `"`)
		})
		id := newRelationshipID(ps.get(RelsOf(sheet)))
		if e.put[RelsOf(sheet)], err = addRelationship(ps.get(RelsOf(sheet)), id, relDrawing, "../drawings/"+path.Base(drawing)); err != nil {
			return nil, fmt.Errorf("drawing the charts of %s: %w", s.Name, err)
		}
		if e.put[sheet], err = addDrawingElement(ps.get(sheet), id); err != nil {
			return nil, fmt.Errorf("drawing the charts of %s: %w", s.Name, err)
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
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		return nil, Unlaid("its charts", err)
	}
	ps, err := openParts(buf.Bytes())
	if err != nil {
		return nil, err
	}
	out := map[string]drawn{}
	for _, s := range sheets {
		sheet := SheetParts(ps.get)[s.Name]
		rels, err := parseXML(ps.get(RelsOf(sheet)))
		if err != nil {
			return nil, fmt.Errorf("%s: the scratch drawing is missing", s.Name)
		}
		for _, r := range rels.Kids {
			if r.attr("Type") != relDrawing {
				continue
			}
			drawing := resolve(path.Dir(sheet), r.attr("Target"))
			d := drawn{drawing: ps.get(drawing), rels: ps.get(RelsOf(drawing))}
			for _, m := range chartTarget.FindAllSubmatch(d.rels, -1) {
				name := string(m[1])
				d.charts = append(d.charts, namedPart{name, ps.get("xl/charts/" + name)})
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

var chartTarget = regexp.MustCompile(`"\.\./charts/(chart\d+\.xml)"`)

var relationshipID = regexp.MustCompile(`\bId="rId(\d+)"`)

// newRelationshipID is rId one above the highest rIdN in rels.
func newRelationshipID(rels []byte) string {
	var ids []int
	for _, m := range relationshipID.FindAllSubmatch(rels, -1) {
		n, _ := strconv.Atoi(string(m[1]))
		ids = append(ids, n)
	}
	sort.Ints(ids)
	next := 1
	if len(ids) > 0 {
		next = ids[len(ids)-1] + 1
	}
	return "rId" + strconv.Itoa(next)
}

var (
	relsEnd   = regexp.MustCompile(`</((?:[A-Za-z_][\w.-]*:)?)Relationships\s*>`)
	relsEmpty = regexp.MustCompile(`<((?:[A-Za-z_][\w.-]*:)?)Relationships\b([^>]*?)/>`)
)

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
	if ends := relsEnd.FindAllSubmatchIndex(rels, -1); len(ends) > 0 {
		m := ends[len(ends)-1]
		prefix := string(rels[m[2]:m[3]])
		return append(append(append([]byte(nil), rels[:m[0]]...), element(prefix)...), rels[m[0]:]...), nil
	}
	if m := relsEmpty.FindSubmatchIndex(rels); m != nil {
		prefix := string(rels[m[2]:m[3]])
		open := "<" + prefix + "Relationships" + string(rels[m[4]:m[5]]) + ">"
		return append(append([]byte(nil), rels[:m[0]]...), open+element(prefix)+"</"+prefix+"Relationships>"+string(rels[m[1]:])...), nil
	}
	return nil, fmt.Errorf("its relationships part has no Relationships element")
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
	from := 0
	for _, el := range beforeDrawing {
		from = max(from, bytes.LastIndex(sheet, []byte(el)))
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
