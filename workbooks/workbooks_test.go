package workbooks

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/deploy"
	"planner/engine"
	"planner/fleet"
	"planner/internal/safefile"
	"planner/montecarlo"
	"planner/sizing"
	"planner/units"
	"planner/whatif"
	"planner/workbooks/internal/ooxml"
	"planner/workbooks/internal/schema"
)

// newPlan writes planner's default workbook into a temporary folder.
func newPlan(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "plan.xlsx")
	in, err := Init(path, units.USD)
	data, was := in.Data, in.Original
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(path, data, was); err != nil {
		t.Fatal(err)
	}
	return path
}

// saveOver saves data over the file at path as it is now, as eval saves
// over the file it read.
func saveOver(t *testing.T, path string, data []byte) error {
	t.Helper()
	_, was, err := safefile.ReadOriginal(path, maxFileBytes)
	if err != nil {
		t.Fatal(err)
	}
	return Save(path, data, was)
}

// evaluate reads path, evaluates the base scenario and returns the bytes
// eval would write.
func evaluate(t *testing.T, path string) (*Book, []byte) {
	t.Helper()
	b, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	return evaluateBook(t, b)
}

func evaluateBook(t *testing.T, b *Book) (*Book, []byte) {
	t.Helper()
	p, err := engine.Build(b.Model, deploy.Check, montecarlo.Check, whatif.Check)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	sizes, err := sizing.Table(p.Model().Catalog, p.Model().GPUs, results[0].SizingRule())
	if err != nil {
		t.Fatal(err)
	}
	var mcs []*montecarlo.Result
	for _, sc := range p.Scenarios(nil) {
		mc, err := montecarlo.Run(context.Background(), p, sc, montecarlo.Options{Samples: 1000, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		mcs = append(mcs, mc)
	}
	whatifs, err := whatif.Run(p, p.Scenarios(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	costs := deploy.Cost(p, results)
	w, err := b.Write(Output{Version: "test", Plan: p, Results: results, Sizing: sizes, Deployments: costs, Fleet: fleet.Of(costs),
		MonteCarlo: mcs, WhatIfs: whatifs}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return b, w.Data
}

func TestDefaultModelBuilds(t *testing.T) {
	m := DefaultModel()
	if in, _ := m.Input("currency"); in.Value.Text != "USD" || m.Currency.Code() != "USD" {
		t.Errorf("the default workbook's currency is %q, read as %s; want USD", in.Value.Text, m.Currency.Code())
	}
	if len(m.Inputs) != 27 || len(m.Offers) != 9 || len(m.GPUs) != 11 || len(m.Catalog) != 6 || len(m.Scenarios) != 7 || len(m.Deployments) != 11 {
		t.Fatalf("%d inputs, %d offers, %d GPUs, %d models, %d scenarios, %d deployments", len(m.Inputs), len(m.Offers),
			len(m.GPUs), len(m.Catalog), len(m.Scenarios), len(m.Deployments))
	}
	for _, want := range []string{"capex", "gpus", "amortization_months", "residual", "pue",
		"electricity_price", "rack_per_month", "hours_per_month", "utilization", "gpu", "model", "precision", "kv_headroom",
		"cost_of_capital", "maintenance_per_year", "staff_per_month", "network_per_month", "software_per_gpu_year", "tax_rate", "depreciation",
		"rent_price_change_per_year", "electricity_price_change_per_year", "gpu_idle_watts", "site_kw", "grid_g_co2_per_kwh", "throughput_gain_per_year"} {
		if _, ok := m.Input(want); !ok {
			t.Errorf("the default workbook has no input %s", want)
		}
	}
	if _, err := engine.Build(m, deploy.Check, montecarlo.Check, whatif.Check); err != nil {
		t.Fatal(err)
	}
}

// What init writes, Read reads back: every input, offer, scenario, catalog
// entry and deployment, each with the cell it came from.
func TestReadBackWhatInitWrote(t *testing.T) {
	b, err := Read(newPlan(t))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultModel()
	got := b.Model
	for i, in := range got.Inputs {
		w := want.Inputs[i]
		if in.Name != w.Name || in.Value != w.Value || in.Unit != w.Unit || in.Low != w.Low ||
			in.High != w.High || in.HasRange != w.HasRange || in.Notes != w.Notes {
			t.Errorf("input %d: read %+v, init wrote %+v", i, in, w)
		}
		if in.Origin.Sheet != schema.Assumptions.Name || in.Origin.Row != i+2 || in.Origin.Col != 2 {
			t.Errorf("input %s is at %s, want Assumptions!B%d", in.Name, in.Origin.Where(), i+2)
		}
	}
	for i, o := range got.Offers {
		w := want.Offers[i]
		if o.Provider != w.Provider || o.Name != w.Name || o.GPU != w.GPU || o.Price != w.Price || o.AsOf != w.AsOf {
			t.Errorf("offer %d: read %+v, init wrote %+v", i, o, w)
		}
	}
	for i, s := range got.Scenarios {
		w := want.Scenarios[i]
		if s.Name != w.Name || s.Notes != w.Notes || len(s.Set) != len(w.Set) {
			t.Errorf("scenario %d: read %+v, init wrote %+v", i, s, w)
		}
		for k, v := range w.Set {
			if s.Set[k] != v {
				t.Errorf("scenario %s: %s = %v, init wrote %v", s.Name, k, s.Set[k], v)
			}
		}
	}
	for i, g := range got.GPUs {
		w := want.GPUs[i]
		if g.Name != w.Name || g.MemoryGB != w.MemoryGB || g.Watts != w.Watts || g.Interconnect != w.Interconnect {
			t.Errorf("GPU %d: read %+v, init wrote %+v", i, g, w)
		}
	}
	for i, m := range got.Catalog {
		w := want.Catalog[i]
		if m.Name != w.Name || m.TotalParamsB != w.TotalParamsB || m.ActiveParamsB != w.ActiveParamsB ||
			m.Precision != w.Precision || (m.Arch == nil) != (w.Arch == nil) || m.Arch != nil && *m.Arch != *w.Arch {
			t.Errorf("model %d: read %+v, init wrote %+v", i, m, w)
		}
	}
	for i, d := range got.Deployments {
		w := want.Deployments[i]
		if d.Name != w.Name || d.Model != w.Model || d.GPU != w.GPU || d.Cards != w.Cards || d.Replicas != w.Replicas ||
			d.HoursPerMonth != w.HoursPerMonth || d.Usage != w.Usage || d.Offer != w.Offer ||
			d.TokensPerReplica != w.TokensPerReplica || d.PeakTokens != w.PeakTokens || d.Mix != w.Mix || d.API != w.API {
			t.Errorf("deployment %d: read %+v, init wrote %+v", i, d, w)
		}
	}
}

// Re-running on unchanged input gives byte-identical output, and eval of
// eval's output writes the same bytes again.
func TestWriteIsDeterministic(t *testing.T) {
	path := newPlan(t)
	_, first := evaluate(t, path)
	_, second := evaluate(t, path)
	if !bytes.Equal(first, second) {
		t.Fatal("two evaluations of the same workbook wrote different bytes")
	}
	if err := saveOver(t, path, first); err != nil {
		t.Fatal(err)
	}
	_, again := evaluate(t, path)
	if !bytes.Equal(first, again) {
		t.Error("evaluating the evaluated workbook changed its bytes")
	}
}

// userWorkbook is a workbook someone kept before planner: text, numbers, a
// formula, a merged cell, a comment-free validation and a defined name.
func userWorkbook(t *testing.T) string {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.SetSheetName("Sheet1", "Budget"))
	must(f.SetCellValue("Budget", "A1", "Quarter"))
	must(f.SetCellValue("Budget", "B1", 125000.5))
	must(f.SetCellFormula("Budget", "C1", "B1*4"))
	must(f.MergeCell("Budget", "A3", "C3"))
	dv := excelize.NewDataValidation(true)
	dv.Sqref = "B1"
	must(dv.SetRange(0, 1e6, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorBetween))
	must(f.AddDataValidation("Budget", dv))
	must(f.SetDefinedName(&excelize.DefinedName{Name: "quarter_budget", RefersTo: "Budget!$B$1"}))
	path := filepath.Join(t.TempDir(), "budget.xlsx")
	must(f.SaveAs(path))
	return path
}

// zipParts maps every part of a package to its content.
func zipParts(t *testing.T, data []byte) map[string][]byte {
	t.Helper()
	ps, err := ooxml.Parts(data)
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// init adds planner's sheets to a workbook the user keeps, and eval writes
// Results into it, while the user's sheet keeps every byte.
func TestUserSheetsPassThrough(t *testing.T) {
	path := userWorkbook(t)
	original, _ := os.ReadFile(path)
	in, err := Init(path, units.USD)
	data, was := in.Data, in.Original
	if err != nil {
		t.Fatal(err)
	}
	if err := Save(path, data, was); err != nil {
		t.Fatal(err)
	}
	_, evaluated := evaluate(t, path)
	before, after := zipParts(t, original), zipParts(t, evaluated)
	if !bytes.Equal(before["xl/worksheets/sheet1.xml"], after["xl/worksheets/sheet1.xml"]) {
		t.Error("the user's sheet changed")
	}
	f, err := excelize.OpenReader(bytes.NewReader(evaluated))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := strings.Join(f.GetSheetList(), ","); got != "Budget,Assumptions,Scenarios,Cloud,APIs,FX,GPUs,Models,Deployments,Benchmarks,Correlations,Targets,Tables,Goals,Formulas,Results,Sizing,Deployment costs,Fleet,Cash flow,MonteCarlo,Sensitivity,Data tables,Breakeven,Goal seek" {
		t.Errorf("sheets %s", got)
	}
	found := false
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "quarter_budget" && dn.RefersTo == "Budget!$B$1" {
			found = true
		}
	}
	if !found {
		t.Error("the user's defined name quarter_budget was lost")
	}
}

func TestVerifyRefusesAChangedUserPart(t *testing.T) {
	path := userWorkbook(t)
	original, _ := os.ReadFile(path)
	f, err := excelize.OpenReader(bytes.NewReader(original))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.SetCellValue("Budget", "B1", 125001); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := f.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	err = ooxml.Verify("budget.xlsx", original, buf.Bytes(), map[string]bool{"Results": true}, nil)
	want := "budget.xlsx: saving would change xl/worksheets/sheet1.xml (its bytes would differ), which belongs to you, not to planner; nothing was written. " +
		"planner cannot add its sheets to this workbook without that change, in place or in a copy: please report it, with the file if you can share it"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// The shared strings never pass through excelize, so they must come
// back byte for byte: a string changed there is refused too.
func TestVerifyRefusesChangedSharedStrings(t *testing.T) {
	path := userWorkbook(t)
	original, _ := os.ReadFile(path)
	changed := rezip(t, original, func(ps map[string][]byte) {
		ps["xl/sharedStrings.xml"] = bytes.Replace(ps["xl/sharedStrings.xml"], []byte("Quarter"), []byte("Quartet"), 1)
	})
	err := ooxml.Verify("budget.xlsx", original, changed, map[string]bool{"Results": true}, nil)
	want := "budget.xlsx: saving would change xl/sharedStrings.xml (its bytes would differ), which belongs to you, not to planner; nothing was written. " +
		"planner cannot add its sheets to this workbook without that change, in place or in a copy: please report it, with the file if you can share it"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestVerifyRefusesALostDefinedName(t *testing.T) {
	path := userWorkbook(t)
	original, _ := os.ReadFile(path)
	f, _ := excelize.OpenReader(bytes.NewReader(original))
	defer f.Close()
	if err := f.DeleteDefinedName(&excelize.DefinedName{Name: "quarter_budget"}); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_, _ = f.WriteTo(&buf)
	err := ooxml.Verify("budget.xlsx", original, buf.Bytes(), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "saving would change xl/workbook.xml (defined name quarter_budget  would be missing)") {
		t.Errorf("got %v", err)
	}
}

func TestSaveKeepsPermissionsAndLeavesNoTempFile(t *testing.T) {
	path := newPlan(t)
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	b, data := evaluate(t, path)
	if err := Save(path, data, b.Original()); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the folder holds %d files after saving, want only the workbook", len(entries))
	}
}

func TestSaveIntoAReadOnlyFolderLeavesTheFile(t *testing.T) {
	path := newPlan(t)
	before, _ := os.ReadFile(path)
	dir := filepath.Dir(path)
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	err := saveOver(t, path, []byte("new"))
	want := path + ": its folder " + dir + " is read-only; planner writes a new file beside the old one and renames it: make the folder writable, or write a copy elsewhere with -o"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the workbook changed")
	}
}

func TestSaveRefusesAReadOnlyFile(t *testing.T) {
	path := newPlan(t)
	before, _ := os.ReadFile(path)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	err := saveOver(t, path, []byte("new"))
	want := path + ": is read-only; planner does not replace a file you protected: make it writable (chmod u+w), or write a copy with -o other.xlsx"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("the workbook changed")
	}
}

// The temporary files killed runs left behind are cleared by the next
// save; files of the user's are not, whatever their names look like.
func TestSaveClearsTempFilesOfKilledRunsOnly(t *testing.T) {
	path := newPlan(t)
	dir := filepath.Dir(path)
	data, _ := os.ReadFile(path)
	files := []struct {
		name     string
		content  []byte
		planners bool
	}{
		// planner's: killed while writing, or before writing anything.
		{".plan.xlsx.planner-0123456789abcdef.tmp", data[:len(data)/3], true},
		{".plan.xlsx.planner-fedcba9876543210.tmp", nil, true},
		// the user's: names older planners saved under, planner's name
		// over other bytes, planner's bytes under other names.
		{".plan.xlsx2024", []byte("x\n"), false},
		{".plan.xlsx8675309", data[:len(data)/3], false},
		{".plan.xlsx.planner-0123456789abcdee.tmp", []byte("notes"), false},
		{".plan.xlsx.planner-0123.tmp", data, false},
		{".other.xlsx.planner-0123456789abcdef.tmp", data, false},
		{".plan.xlsx.notes", data, false},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.content, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := saveOver(t, path, data); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		_, err := os.Stat(filepath.Join(dir, f.name))
		switch {
		case f.planners && err == nil:
			t.Errorf("%s: planner's temporary file is still there", f.name)
		case !f.planners && err != nil:
			t.Errorf("%s: the user's file was removed", f.name)
		}
	}
}

// Every workbook planner writes begins with the header a leftover
// temporary file is recognised by.
func TestWorkbooksBeginWithPlannersHeader(t *testing.T) {
	path := newPlan(t)
	_, data := evaluate(t, path)
	init, _ := os.ReadFile(path)
	for what, b := range map[string][]byte{"init": init, "eval": data} {
		if !bytes.HasPrefix(b, ooxml.Header()) {
			t.Errorf("%s: the workbook begins %q, not with planner's header %q", what, b[:len(ooxml.Header())], ooxml.Header())
		}
	}
}

// rezip rewrites a workbook's parts through edit, which may change or add
// parts.
func rezip(t *testing.T, data []byte, edit func(map[string][]byte)) []byte {
	t.Helper()
	ps := zipParts(t, data)
	edit(ps)
	return zipWith(t, ps, "", 0, 0)
}

// excelize names a new sheet's part after the largest sheetId, whether or
// not the user has a part of that name (roo's bug-numbered-sheet-names.xlsx
// keeps its only sheet, sheetId 1, in sheet2.xml). Results lands elsewhere,
// and the user's part and sheet come back as they were.
func TestResultsBesideAUsersPartOfItsName(t *testing.T) {
	path := newPlan(t)
	original, _ := os.ReadFile(path)
	part := fmt.Sprintf("xl/worksheets/sheet%d.xml", len(schema.InputNames())+1)
	precious := []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>precious</t></is></c></row></sheetData></worksheet>`)
	data := rezip(t, original, func(ps map[string][]byte) {
		ps[part] = precious
		wb := string(ps["xl/workbook.xml"])
		wb = strings.Replace(wb, `</sheets>`, fmt.Sprintf(`<sheet name="Notes" sheetId="%d" r:id="rId99"/></sheets>`, len(schema.InputNames())), 1)
		ps["xl/workbook.xml"] = []byte(wb)
		rels := string(ps["xl/_rels/workbook.xml.rels"])
		rels = strings.Replace(rels, `</Relationships>`, `<Relationship Id="rId99" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="`+strings.TrimPrefix(part, "xl/")+`"/></Relationships>`, 1)
		ps["xl/_rels/workbook.xml.rels"] = []byte(rels)
		ct := string(ps["[Content_Types].xml"])
		ct = strings.Replace(ct, `</Types>`, `<Override PartName="/`+part+`" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>`, 1)
		ps["[Content_Types].xml"] = []byte(ct)
	})
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := evaluate(t, path)
	ps := zipParts(t, out)
	if !bytes.Equal(ps[part], precious) {
		t.Errorf("the user's %s changed:\n%s", part, ps[part])
	}
	f, err := excelize.OpenReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if v, err := f.GetCellValue("Notes", "A1"); v != "precious" || err != nil {
		t.Errorf("Notes!A1 = %q, %v", v, err)
	}
	if v, err := f.GetCellValue(SheetResults, "A1"); !strings.HasPrefix(v, "Results") || err != nil {
		t.Errorf("Results!A1 = %q, %v", v, err)
	}
	sameUserContent(t, data, out)
	sameOnRerun(t, path, out)
}

// A workbook whose style lists carry no count (as Apache POI writes them)
// still gets planner's own fonts: excelize would number a new font by the
// missing count and point the title at someone else's.
func TestStyleListsWithoutCounts(t *testing.T) {
	path := newPlan(t)
	original, _ := os.ReadFile(path)
	data := rezip(t, original, func(ps map[string][]byte) {
		ps["xl/styles.xml"] = regexp.MustCompile(`(<(?:fonts|fills|borders|cellXfs)) count="\d+"`).ReplaceAll(ps["xl/styles.xml"], []byte("$1"))
	})
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := evaluate(t, path)
	f, err := excelize.OpenReader(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id, _ := f.GetCellStyle(SheetResults, "A1")
	style, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	if style.Font == nil || !style.Font.Bold || style.Font.Size != 14 {
		t.Errorf("the title's font is %+v, not bold 14 pt", style.Font)
	}
}

// How a test reads Results' sheetId and a calculation chain's entries.
var (
	resultsID  = regexp.MustCompile(`<sheet name="` + SheetResults + `" sheetId="(\d+)"`)
	chainCell  = regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?c\b[^>]*?(?:/>|>\s*</(?:[A-Za-z_][\w.-]*:)?c>)`)
	chainSheet = regexp.MustCompile(`\bi="(\d+)"`)
)

// Entries of Excel's calculation chain in planner's sheets are dropped when
// planner rewrites them; the user's stay; an emptied chain goes.
func TestCalcChainPruned(t *testing.T) {
	for _, tc := range []struct {
		name, chain, want string
	}{
		{"mixed", `<c r="C5" i="RESULTS"/><c r="C6"/><c r="B2" i="1" l="1"/><c r="B3"/>`, "B2 on 1, B3 on 1"},
		{"ours only", `<c r="C5" i="RESULTS"/><c r="C6"/>`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := newPlan(t)
			_, evaluated := evaluate(t, path)
			id := string(resultsID.FindSubmatch(zipParts(t, evaluated)[ooxml.WorkbookPart])[1])
			data := rezip(t, evaluated, func(ps map[string][]byte) {
				ps[ooxml.CalcChainPart] = []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n" +
					`<calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` + strings.ReplaceAll(tc.chain, "RESULTS", id) + `</calcChain>`)
				ps["xl/_rels/workbook.xml.rels"] = []byte(strings.Replace(string(ps["xl/_rels/workbook.xml.rels"]), "</Relationships>",
					`<Relationship Id="rId90" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/></Relationships>`, 1))
				ps["[Content_Types].xml"] = []byte(strings.Replace(string(ps["[Content_Types].xml"]), "</Types>",
					`<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/></Types>`, 1))
			})
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, out := evaluate(t, path)
			ps := zipParts(t, out)
			chain := string(ps[ooxml.CalcChainPart])
			if tc.want == "" {
				if chain != "" || strings.Contains(string(ps["xl/_rels/workbook.xml.rels"]), "calcChain") || strings.Contains(string(ps["[Content_Types].xml"]), "calcChain") {
					t.Errorf("the emptied chain is still there: %q", chain)
				}
				return
			}
			var entries []string
			for _, c := range chainCell.FindAllString(chain, -1) {
				r := regexp.MustCompile(`\br="([^"]+)"`).FindStringSubmatch(c)
				i := chainSheet.FindStringSubmatch(c)
				if r == nil || i == nil {
					t.Fatalf("entry %s lacks r or i", c)
				}
				entries = append(entries, r[1]+" on "+i[1])
			}
			if got := strings.Join(entries, ", "); got != tc.want {
				t.Errorf("chain %s: entries %s, want %s", chain, got, tc.want)
			}
		})
	}
}

// slow skips a test that takes long under -short: the quick run a change
// is made with; .ci/run runs the whole suite.
func slow(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s: skipped under -short, run by the full suite (.ci/run)", what)
	}
}
