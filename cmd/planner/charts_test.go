package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// chart is a chart as a spreadsheet application finds it: through the
// workbook's sheets, each sheet's drawing and the drawing's anchors.
type chart struct {
	sheet string
	part  string
	kind  string   // barChart, lineChart, scatterChart
	refs  []string // the series' ranges, in order
}

var (
	sheetEntry  = regexp.MustCompile(`<sheet [^>]*?name="([^"]+)"[^>]*?r:id="([^"]+)"`)
	relEntry    = regexp.MustCompile(`<Relationship [^>]*?Id="([^"]+)"[^>]*?Target="([^"]+)"|<Relationship [^>]*?Target="([^"]+)"[^>]*?Id="([^"]+)"`)
	drawingRef  = regexp.MustCompile(`<drawing [^>]*?r:id="([^"]+)"`)
	chartRef    = regexp.MustCompile(`<c:chart [^>]*?r:id="([^"]+)"`)
	seriesRef   = regexp.MustCompile(`<(?:c:)?f>([^<]*)</(?:c:)?f>`)
	chartKind   = regexp.MustCompile(`<(?:c:)?(barChart|lineChart|scatterChart|areaChart)>`)
	xmlEntities = strings.NewReplacer("&apos;", "'", "&quot;", `"`, "&amp;", "&")
)

// chartsOf lists every chart of the workbook at file, sheet by sheet.
func chartsOf(file string) ([]chart, error) {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return nil, err
	}
	defer zr.Close()
	parts := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, err
		}
		parts[f.Name] = string(data)
	}
	rels := func(p string) map[string]string {
		out := map[string]string{}
		for _, m := range relEntry.FindAllStringSubmatch(parts[path.Join(path.Dir(p), "_rels", path.Base(p)+".rels")], -1) {
			id, target := m[1], m[2]
			if id == "" {
				id, target = m[4], m[3]
			}
			out[id] = path.Join(path.Dir(p), target)
		}
		return out
	}
	var out []chart
	book := rels("xl/workbook.xml")
	for _, s := range sheetEntry.FindAllStringSubmatch(parts["xl/workbook.xml"], -1) {
		sheet := book[s[2]]
		d := drawingRef.FindStringSubmatch(parts[sheet])
		if d == nil {
			continue
		}
		drawing := rels(sheet)[d[1]]
		if parts[drawing] == "" {
			return nil, fmt.Errorf("%s: the drawing of %s is missing", file, s[1])
		}
		targets := rels(drawing)
		for _, c := range chartRef.FindAllStringSubmatch(parts[drawing], -1) {
			part := targets[c[1]]
			x := parts[part]
			ch := chart{sheet: xmlEntities.Replace(s[1]), part: part}
			if m := chartKind.FindStringSubmatch(x); m != nil {
				ch.kind = m[1]
			}
			for _, m := range seriesRef.FindAllStringSubmatch(x, -1) {
				ch.refs = append(ch.refs, xmlEntities.Replace(m[1]))
			}
			out = append(out, ch)
		}
	}
	return out, nil
}

// countParts counts the zip entries under prefix.
func countParts(t *testing.T, file, prefix string) int {
	t.Helper()
	zr, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	n := 0
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, prefix) {
			n++
		}
	}
	return n
}

// A workbook of many offers is read by its tables: Sensitivity charts the
// tornado of each node-level target and, of each per-offer target, the
// twelve offers of the lowest price, and says how many have their tables
// only. Twenty offers of the H100 added at $1.50 to $6.25 an hour make 24
// offers of the node's GPU against each of the default's per-offer
// targets.
func TestManyOffersChartTheCheapest(t *testing.T) {
	_, plan := freshPlan(t)
	editBook(t, plan, func(f *excelize.File) error { return addOffers(f, 20) })
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	charts, err := chartsOf(plan)
	if err != nil {
		t.Fatal(err)
	}
	rows := readSheet(t, plan, "Sensitivity").rows
	sections, perOffer := 0, 0
	for _, r := range rows {
		if len(r) > 0 && strings.HasSuffix(r[0], "at base, by input, largest swing first") {
			sections++
			if strings.Contains(r[0], " vs ") {
				perOffer++
			}
		}
	}
	targets := perOffer / 24 // per-offer targets, each against the 24 offers of the H100
	tornadoCharts := 0
	for _, c := range charts {
		if c.sheet == "Sensitivity" {
			tornadoCharts++
		}
	}
	if perOffer%24 != 0 || targets == 0 || tornadoCharts != sections-perOffer+12*targets {
		t.Errorf("%d tornadoes, %d of them per offer: %d charts, want %d", sections, perOffer, tornadoCharts, sections-perOffer+12*targets)
	}
	want := fmt.Sprintf("Charts are drawn for each formula's 12 cheapest offers; the other %d tornadoes have their tables only.", perOffer-12*targets)
	if !slices.ContainsFunc(rows, func(r []string) bool { return len(r) > 0 && r[0] == want }) {
		t.Errorf("Sensitivity does not say %q", want)
	}
}
