package workbooks

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/workbooks/internal/grid"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/schema"
	"planner/workbooks/internal/sheets"
)

// editPlan changes a workbook on disk as a user would in a spreadsheet.
func editPlan(t *testing.T, path string, edit func(f *excelize.File) error) {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := edit(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
}

func openBytes(t *testing.T, data []byte) *excelize.File {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// rowOf is the 1-based row of Results whose name (column B) is name.
func rowOf(t *testing.T, f *excelize.File, name string) int {
	t.Helper()
	rows, err := f.GetRows(sheets.Results)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if len(r) > 1 && r[1] == name {
			return i + 1
		}
	}
	t.Fatalf("Results has no row named %s", name)
	return 0
}

// Results knows each row by a label a reader knows first, then the name
// formulas use, then the unit: a built-in's label, the Formulas sheet's
// label, or for a formula without one its name made readable.
func TestResultsRowsAreLabelled(t *testing.T) {
	path := newPlan(t)
	editPlan(t, path, func(f *excelize.File) error {
		rows, err := f.GetRows(schema.Formulas.Name)
		if err != nil {
			return err
		}
		next := len(rows) + 1
		for i, r := range [][]any{
			{"margin_per_gpu_hour", "cost_per_gpu_hour * 0.2", "$/GPU-h", "A fifth on top.", "Our margin per GPU-hour"},
			{"spare_per_node_month", "node_cost_per_month * 0.05", "$/month", "Spares."},
		} {
			if err := f.SetSheetRow(schema.Formulas.Name, "A"+strconv.Itoa(next+i), &r); err != nil {
				return err
			}
		}
		// A label typed over a built-in's wins too.
		return f.SetCellValue(schema.Formulas.Name, "E2", "Capex for each GPU")
	})
	_, data := evaluate(t, path)
	f := openBytes(t, data)
	header, _ := f.GetRows(sheets.Results)
	if got := strings.Join(header[sheets.HeaderRow-1][:5], "|"); got != "Result|Name|Unit|base|H100 low" {
		t.Errorf("Results' header reads %s", got)
	}
	for name, want := range map[string]string{
		"per_gpu_capex":         "Capex for each GPU|per_gpu_capex|$",
		"capital_per_gpu_hour":  "Capital per GPU-hour|capital_per_gpu_hour|$/GPU-h",
		"cost_per_used_hour":    "Cost per used GPU-hour|cost_per_used_hour|$/GPU-h",
		"breakeven_utilization": "Break-even utilisation|breakeven_utilization|%",
		"margin_per_gpu_hour":   "Our margin per GPU-hour|margin_per_gpu_hour|$/GPU-h",
		"spare_per_node_month":  "Spare per node-month|spare_per_node_month|$/month",
		"kv_headroom":           "KV headroom|kv_headroom|%",
		"usual_cards":           "Usual cards|usual_cards|cards",
		"as_of":                 "Price as of|as_of|date",
	} {
		row := rowOf(t, f, name)
		var got []string
		for col := 1; col <= 3; col++ {
			v, _ := f.GetCellValue(sheets.Results, cellName(col, row))
			got = append(got, v)
		}
		if strings.Join(got, "|") != want {
			t.Errorf("row %d reads %s, want %s", row, strings.Join(got, "|"), want)
		}
	}
	// The values follow in column D on, and the live formulas read them
	// there: the base scenario's margin is a fifth of its cost.
	row := rowOf(t, f, "margin_per_gpu_hour")
	formula, _ := f.GetCellFormula(sheets.Results, cellName(4, row))
	if formula != "cost_per_gpu_hour*0.2" {
		t.Errorf("D%d is =%s", row, formula)
	}
	cost := rowOf(t, f, "cost_per_gpu_hour")
	formula, _ = f.GetCellFormula(sheets.Results, cellName(5, row))
	if want := "E" + strconv.Itoa(cost) + "*0.2"; formula != want {
		t.Errorf("E%d is =%s, want =%s", row, formula, want)
	}
}

// An offer's as-of date is a date in Results whether Cloud holds a date or
// its text: a number with a date format, read live through DATEVALUE.
func TestAsOfIsADate(t *testing.T) {
	path := newPlan(t)
	editPlan(t, path, func(f *excelize.File) error {
		return f.SetCellStr(schema.Cloud.Name, "E3", "2026-09-30")
	})
	_, data := evaluate(t, path)
	f := openBytes(t, data)
	row := rowOf(t, f, "as_of")
	for col, want := range map[int]struct{ value, formula string }{
		4: {"46305", "Cloud!$E$2"},            // a date cell: 2026-10-10
		5: {"46295", "DATEVALUE(Cloud!$E$3)"}, // the text 2026-09-30
	} {
		ref := cellName(col, row)
		raw, _ := f.GetCellValue(sheets.Results, ref, excelize.Options{RawCellValue: true})
		formula, _ := f.GetCellFormula(sheets.Results, ref)
		style, _ := f.GetCellStyle(sheets.Results, ref)
		st, _ := f.GetStyle(style)
		if raw != want.value || formula != want.formula || st.CustomNumFmt == nil || *st.CustomNumFmt != "yyyy-mm-dd" {
			t.Errorf("%s holds %s, =%s, format %v; want %s, =%s, yyyy-mm-dd", ref, raw, formula, st.CustomNumFmt, want.value, want.formula)
		}
	}
}

// Every sheet planner writes prints landscape with its header row on every
// page; a wide one prints across pages with its first column on each.
func TestPrintSetup(t *testing.T) {
	_, data := evaluate(t, newPlan(t))
	f := openBytes(t, data)
	titles := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Name == ooxml.PrintTitles {
			titles[dn.Scope] = dn.RefersTo
		}
	}
	want := map[string]string{
		schema.Assumptions.Name: "Assumptions!$1:$1", schema.Deployments.Name: "Deployments!$A:$A,Deployments!$1:$1", schema.Formulas.Name: "Formulas!$A:$A,Formulas!$1:$1",
		sheets.Sizing:          "Sizing!$4:$4",
		sheets.DeploymentCosts: "'Deployment costs'!$A:$A,'Deployment costs'!$4:$4",
		sheets.Breakeven:       "Breakeven!$A:$A", sheets.GoalSeek: "'Goal seek'!$A:$A,'Goal seek'!$4:$4",
	}
	for sheet, refers := range want {
		if titles[sheet] != refers {
			t.Errorf("%s prints %q on every page, want %q", sheet, titles[sheet], refers)
		}
	}
	// Results repeats each of its tables' own header instead (see
	// TestPrintedTablesCarryTheirTitles).
	for _, sheet := range []string{sheets.Results, sheets.MonteCarlo, sheets.Sensitivity, sheets.DataTables} {
		if titles[sheet] != "" {
			t.Errorf("%s prints %s on every page, want nothing", sheet, titles[sheet])
		}
	}
	for _, sheet := range f.GetSheetList() {
		layout, err := f.GetPageLayout(sheet)
		if err != nil || *layout.Orientation != "landscape" {
			t.Errorf("%s prints %v (%v), want landscape", sheet, *layout.Orientation, err)
		}
	}
}

// The print titles and print areas of planner's sheets are planner's to
// change; a user's sheet's are not.
func TestVerifyLetsPlannerMoveItsPrintTitles(t *testing.T) {
	_, original := evaluate(t, newPlan(t))
	change := func(sheet string) error {
		f := openBytes(t, original)
		if err := f.DeleteDefinedName(&excelize.DefinedName{Name: ooxml.PrintTitles, Scope: sheet}); err != nil {
			t.Fatal(err)
		}
		if err := f.SetDefinedName(&excelize.DefinedName{Name: ooxml.PrintTitles, Scope: sheet, RefersTo: grid.Quote(sheet) + "!$2:$2"}); err != nil {
			t.Fatal(err)
		}
		// Deployment costs prints its rows from below its title; another
		// program may spell the area otherwise, and planner puts it back.
		if sheet == sheets.Sizing {
			costs := grid.Quote(sheets.DeploymentCosts)
			if err := f.DeleteDefinedName(&excelize.DefinedName{Name: ooxml.PrintArea, Scope: sheets.DeploymentCosts}); err != nil {
				t.Fatal(err)
			}
			if err := f.SetDefinedName(&excelize.DefinedName{Name: ooxml.PrintArea, Scope: sheets.DeploymentCosts, RefersTo: costs + "!$A$3:$Z$40"}); err != nil {
				t.Fatal(err)
			}
		}
		var buf bytes.Buffer
		if _, err := f.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		owned := map[string]bool{}
		for _, s := range sheets.OwnedNames() {
			owned[s] = true
		}
		return ooxml.Verify("plan.xlsx", original, buf.Bytes(), owned, nil)
	}
	if err := change(sheets.Sizing); err != nil {
		t.Errorf("moving Sizing's print titles: %v", err)
	}
	err := change(schema.Assumptions.Name)
	if want := "plan.xlsx: saving would change xl/workbook.xml (defined name _xlnm.Print_Titles 0 would change)"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("moving Assumptions' print titles: %v, want %s", err, want)
	}
}

// The charts' axis labels are dark, and each chart's title says what it
// plots and in which unit.
func TestChartsAreLegible(t *testing.T) {
	_, data := evaluate(t, newPlan(t))
	parts := zipParts(t, data)
	var names []string
	for name := range parts {
		if strings.HasPrefix(name, "xl/charts/chart") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) < 3 {
		t.Fatalf("%d charts, want the histogram, the tornadoes and the break-even curves", len(names))
	}
	title := regexp.MustCompile(`(?s)<title>.*?<a:t>([^<]*)</a:t>`)
	axis := regexp.MustCompile(`(?s)<(catAx|valAx)>.*?</(?:catAx|valAx)>`)
	labels := regexp.MustCompile(`(?s)<txPr>.*?</txPr>`)
	var titles []string
	for _, name := range names {
		xml := string(parts[name])
		// Excel's default axis text is a light grey (its text colour at
		// 15 %); planner's labels are #404040 on every axis.
		axes := axis.FindAllString(xml, -1)
		if len(axes) < 2 {
			t.Errorf("%s: %d axes", name, len(axes))
		}
		for _, a := range axes {
			all := labels.FindAllString(a, -1) // the axis's title's, then its labels'
			if l := all[len(all)-1]; !strings.Contains(l, `<a:srgbClr val="404040">`) || strings.Contains(l, "lumMod") {
				t.Errorf("%s: an axis's labels are not #404040:\n%s", name, l)
			}
		}
		for _, m := range title.FindAllStringSubmatch(xml, -1) {
			titles = append(titles, html.UnescapeString(m[1]))
		}
	}
	for _, want := range []string{
		"Cost per used GPU-hour ($/GPU-h), scenario base: share of 1,000 samples by value",
		"Cost per GPU-hour ($/GPU-h): change from $1.64 as each input goes to its low or its high",
		"Break-even utilisation (%) against RunPod H100 SXM, Community: change from 60.8 % as each input goes to its low or its high",
		"Cost per used GPU-hour ($/GPU-h) by utilisation: each scenario (solid) against each offer's price (dashed)",
	} {
		found := false
		for _, got := range titles {
			found = found || got == want
		}
		if !found {
			t.Errorf("no chart titled %q among\n%s", want, strings.Join(titles, "\n"))
		}
	}
}

// Printed by LibreOffice, every sheet planner writes is readable: no
// page's text smaller than 6-point type, Results on several pages each
// headed by its title or its header row, every page footed by its sheet's
// name.
func TestPrintedPagesAreReadable(t *testing.T) {
	_, pages := printedDefault(t)
	count := map[string]int{}
	for i, p := range pages {
		count[p.sheet]++
		// A word of 11-point text is 14.3 points high at 100 %: 8 points
		// is 6-point type, a scale of 56 %.
		if p.height < 8 {
			t.Errorf("page %d (%s): words %.1f points high, want at least 8", i+1, p.sheet, p.height)
		}
	}
	for _, sheet := range append(schema.InputNames(), sheets.OwnedNames()...) {
		if count[sheet] == 0 {
			t.Errorf("no printed page of %s", sheet)
		}
	}
	t.Logf("%d pages: %v", len(pages), count)
	if count[sheets.Results] < 3 {
		t.Errorf("Results prints on %d pages, want its hundred rows on several", count[sheets.Results])
	}
}

// printed is the default workbook, evaluated, and its pages as
// LibreOffice prints them: printed once for the tests that read them.
var printed struct {
	once  sync.Once
	data  []byte
	pages []printedPage
	err   error
}

// printedDefault prints the default workbook with LibreOffice, skipping
// where it cannot.
func printedDefault(t *testing.T) ([]byte, []printedPage) {
	t.Helper()
	for _, tool := range []string{"soffice", "pdftotext"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: install libreoffice-calc-nogui and poppler-utils", tool)
		}
	}
	slow(t, "prints with LibreOffice")
	// Without Calibri or its metric twin Carlito, LibreOffice sets the
	// sheets in a wider face, and fits them smaller than Excel would.
	if font, _ := exec.Command("fc-match", "Calibri").Output(); !bytes.Contains(font, []byte("Carlito")) && !bytes.Contains(font, []byte("Calibri")) {
		t.Skipf("no Calibri or Carlito (fc-match Calibri: %q): install fonts-crosextra-carlito", bytes.TrimSpace(font))
	}
	printed.once.Do(func() {
		dir, err := os.MkdirTemp("", "planner-print-")
		if err != nil {
			printed.err = err
			return
		}
		defer os.RemoveAll(dir)
		_, printed.data = evaluate(t, newPlan(t))
		book := filepath.Join(dir, "plan.xlsx")
		if printed.err = os.WriteFile(book, printed.data, 0o644); printed.err != nil {
			return
		}
		profile := "file://" + filepath.Join(dir, "profile")
		if out, err := exec.Command("soffice", "-env:UserInstallation="+profile, "--headless", "--convert-to", "pdf", "--outdir", dir, book).CombinedOutput(); err != nil {
			printed.err = fmt.Errorf("soffice: %v\n%s", err, out)
			return
		}
		out, err := exec.Command("pdftotext", "-bbox", filepath.Join(dir, "plan.pdf"), "-").Output()
		printed.err = err
		printed.pages = printedPages(string(out))
	})
	if printed.err != nil {
		t.Fatal(printed.err)
	}
	return printed.data, printed.pages
}

// Printed, each page of Results that holds a table's rows starts with that
// table's title or its header row: the sheet's tables have columns of
// their own, and a header repeated from another would label them wrong.
func TestPrintedTablesCarryTheirTitles(t *testing.T) {
	data, pages := printedDefault(t)
	f := openBytes(t, data)
	rows, err := f.GetRows(sheets.Results)
	if err != nil {
		t.Fatal(err)
	}
	// A page's first line, as pdftotext reads it, is the first line of
	// each cell of its first row.
	var headings []string
	for i, r := range rows {
		if len(r) == 0 || r[0] == "" {
			continue
		}
		style, _ := f.GetCellStyle(sheets.Results, cellName(1, i+1))
		st, _ := f.GetStyle(style)
		header := len(st.Fill.Color) > 0 && st.Fill.Color[0] == "D9D9D9"
		if !header && !st.Font.Bold {
			continue
		}
		heading := strings.Fields(r[0])[0]
		if header && len(r) > 1 {
			heading += " " + strings.Fields(r[1] + " .")[0]
		}
		headings = append(headings, heading)
	}
	n := 0
	for i, p := range pages {
		if p.sheet != sheets.Results {
			continue
		}
		n++
		if !slices.ContainsFunc(headings, func(h string) bool { return strings.HasPrefix(p.first, h+" ") || p.first == h }) {
			t.Errorf("page %d (Results' page %d) begins %q, not with a table's title or header row (%q)", i+1, n, p.first, headings)
		}
	}
	if n < 3 {
		t.Errorf("Results prints on %d pages, want its tables on several", n)
	}
}

// printedPage is what a test reads of one page: its sheet (from the
// footer), its first line, and the median height of its words in points.
type printedPage struct {
	sheet, first string
	height       float64
}

var (
	pageTag = regexp.MustCompile(`(?s)<page [^>]*>(.*?)</page>`)
	wordTag = regexp.MustCompile(`<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>`)
)

func printedPages(bbox string) []printedPage {
	var out []printedPage
	for _, page := range pageTag.FindAllStringSubmatch(bbox, -1) {
		words := wordTag.FindAllStringSubmatch(page[1], -1)
		var p printedPage
		var heights []float64
		top, footer := 1e9, -1.0
		for i, w := range words {
			y0, _ := strconv.ParseFloat(w[2], 64)
			y1, _ := strconv.ParseFloat(w[3], 64)
			heights = append(heights, y1-y0)
			top = min(top, y0)
			if w[4] == "page" && i+1 < len(words) && regexp.MustCompile(`^\d+$`).MatchString(words[i+1][4]) {
				footer = y0
			}
		}
		var first, foot []string
		for _, w := range words {
			y0, _ := strconv.ParseFloat(w[2], 64)
			switch {
			case y0 < top+2:
				first = append(first, w[4])
			case math.Abs(y0-footer) < 1:
				foot = append(foot, w[4])
			}
		}
		// The footer reads "Sheet name ... page 3 of 51".
		if i := slices.Index(foot, "page"); i >= 0 {
			foot = foot[:i]
		}
		sort.Float64s(heights)
		if len(heights) > 0 {
			p.height = heights[len(heights)/2]
		}
		p.first, p.sheet = strings.Join(first, " "), strings.Join(foot, " ")
		out = append(out, p)
	}
	return out
}
