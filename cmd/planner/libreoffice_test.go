package main

import (
	"archive/zip"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// recalcProfile makes LibreOffice recalculate every formula of an xlsx it
// loads, rather than trust the cached values.
const recalcProfile = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`

// recalculate has LibreOffice load each workbook, recalculate it and save
// it as xlsx into out, in one run.
func recalculate(t *testing.T, files []string, out string) {
	t.Helper()
	profile := filepath.Join(t.TempDir(), "profile")
	if err := os.MkdirAll(filepath.Join(profile, "user"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(profile, "user", "registrymodifications.xcu"), []byte(recalcProfile), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-env:UserInstallation=file://" + profile, "--headless", "--convert-to", "xlsx", "--outdir", out}, files...)
	if msg, err := exec.Command("soffice", args...).CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, msg)
	}
}

// setInputs writes values into Assumptions' value cells as a user would in
// a spreadsheet, leaving planner's sheets (and their cached values) alone.
func setInputs(t *testing.T, path string, values map[string]float64) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		rows, err := f.GetRows("Assumptions")
		if err != nil {
			return err
		}
		for i, r := range rows {
			if v, ok := values[r[0]]; ok && len(r) > 1 {
				if err := f.SetCellFloat("Assumptions", fmt.Sprintf("B%d", i+1), v, -1, 64); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func setNumber(t *testing.T, path, sheet, cell string, v float64) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error { return f.SetCellFloat(sheet, cell, v, -1, 64) })
}

// liveSheets are the sheets whose formulas LibreOffice recalculates.
var liveSheets = []string{"Results", "Deployment costs", "Cash flow"}

// sameNumbers compares the cells planner computed (want) with what
// LibreOffice computed from the same formulas (got): within 1e-9 relative.
func sameNumbers(t *testing.T, what, sheet string, want map[string]string, gotPath string) {
	t.Helper()
	f, err := excelize.OpenFile(gotPath, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(want) < 30 {
		t.Fatalf("%s: %s has only %d formula cells", what, sheet, len(want))
	}
	// From a section that says it is not live on (Results' close calls,
	// their flag and the inputs it checks, whose rows follow the inputs),
	// a fresh evaluation and a recalculation differ by design.
	cut := math.MaxInt
	if rows, err := f.GetRows(sheet); err == nil {
		for r, row := range rows {
			if len(row) > 0 && strings.Contains(row[0], "not live") {
				cut = r + 1
				break
			}
		}
	}
	bad := 0
	for ref, w := range want {
		if _, row, _ := excelize.CellNameToCoordinates(ref); row >= cut {
			continue
		}
		g, _ := f.GetCellValue(sheet, ref)
		x, err1 := strconv.ParseFloat(w, 64)
		y, err2 := strconv.ParseFloat(g, 64)
		switch {
		case err1 == nil && err2 == nil && math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)):
		case err1 != nil && w == g:
		default:
			if bad++; bad <= 10 {
				t.Errorf("%s: %s!%s: planner %q, LibreOffice %q", what, sheet, ref, w, g)
			}
		}
	}
}

// Every formula cell of Results, recalculated by LibreOffice after inputs
// change in the spreadsheet, equals what planner computes for those inputs.
func TestLibreOfficeRecalculatesResults(t *testing.T) {
	needLibreOffice(t)
	// A build that names itself: the workbooks LibreOffice opens carry
	// planner's digest in their zip comment.
	defer func(was string) { build = was }(build)
	build = "planner test build"
	dir, plan := freshPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	if r, err := zip.OpenReader(plan); err != nil || !strings.HasPrefix(r.Comment, "planner up to date, sha256 ") {
		t.Fatalf("the evaluated workbook carries no digest (%v)", err)
	} else {
		r.Close()
	}
	rng := rand.New(rand.NewPCG(7, 2026))
	// Inside each uncertain input's range (outside it, Monte Carlo refuses
	// the workbook); the others anywhere plausible.
	ranges := map[string][2]float64{"capex": {250000, 320000}, "residual": {0, 0.3}, "utilization": {0.25, 0.9},
		"electricity_price": {0.08, 0.2}, "pue": {1.2, 1.4}, "rack_per_month": {750, 1500},
		"amortization_months": {12, 60}, "cost_of_capital": {0, 0.1}, "maintenance_per_year": {0, 0.08},
		"staff_per_month": {0, 1500}, "network_per_month": {0, 500}}
	var edited []string
	expected := map[string]map[string]map[string]string{} // file -> sheet -> cell -> value
	cells := func(path string) map[string]map[string]string {
		out := map[string]map[string]string{}
		for _, sheet := range liveSheets {
			out[sheet] = readSheet(t, path, sheet).formulas
		}
		return out
	}
	for k := 0; k < 5; k++ {
		values := map[string]float64{}
		for name, r := range ranges {
			v := r[0] + rng.Float64()*(r[1]-r[0])
			if name == "amortization_months" {
				v = math.Round(v)
			}
			values[name] = v
		}
		if k >= 3 {
			// The Cash flow sheet has a row per month: planner lays it out
			// anew for a new amortisation (TestCashFlowFollowsTheAmortisation).
			values["amortization_months"] = 36
		}
		path := filepath.Join(dir, fmt.Sprintf("edited%d.xlsx", k))
		copyFile(t, plan, path)
		setInputs(t, path, values)
		setNumber(t, path, "Cloud", "D2", 1.5+2.5*rng.Float64()) // RunPod Community's price moves too
		setNumber(t, path, "GPUs", "C2", 300+900*rng.Float64())  // and the H100's board watts
		fresh := filepath.Join(dir, fmt.Sprintf("fresh%d.xlsx", k))
		if code := run([]string{"eval", path, "--samples", "1000", "-o", fresh}, &out, &errs); code != 0 {
			t.Fatal(errs.String())
		}
		edited = append(edited, path)
		expected[filepath.Base(path)] = cells(fresh)
		if values["amortization_months"] != 36 {
			delete(expected[filepath.Base(path)], "Cash flow")
		}
	}
	// A formula changed in the Formulas sheet: planner translates it anew.
	changed := filepath.Join(dir, "changed.xlsx")
	copyFile(t, plan, changed)
	editFormula(t, changed, "per_gpu_capex", "capex / gpus * (1 + 0.05) + max(0, 10 - gpus) ** 2 + (gpus > 4 and not (gpu == \"x\") ? -ceil(-2.5) : floor(2.5)) - round(abs(-2.5)) + sqrt(log(exp(2))) * pow(2, -2) - -2 ** 2 + log10(1000) ^ 2 ^ 0.5 + -7 % 3")
	addClashingFormulas(t, changed)
	if code := run([]string{"eval", changed, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	edited = append(edited, changed)
	expected["changed.xlsx"] = cells(changed)

	// What init did not make: an input without a defined name, numbers
	// typed as text, a guarded division, a formula named like an input in
	// another case.
	grown := filepath.Join(dir, "grown.xlsx")
	copyFile(t, plan, grown)
	growWorkbook(t, grown)
	if code := run([]string{"eval", grown, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	edited = append(edited, grown)
	expected["grown.xlsx"] = cells(grown)

	// A what-if copy: the --set inputs stay values, the rest stays linked.
	what := filepath.Join(dir, "whatif.xlsx")
	if code := run([]string{"eval", plan, "--samples", "1000", "--set", "capex=300000", "--set", "utilization=0.7", "-o", what}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	edited = append(edited, what)
	expected["whatif.xlsx"] = cells(what)

	lo := filepath.Join(dir, "lo")
	recalculate(t, edited, lo)
	for name, sheets := range expected {
		for sheet, want := range sheets {
			sameNumbers(t, name, sheet, want, filepath.Join(lo, name))
		}
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// growWorkbook changes a workbook as its users would after init: an input
// added below the others (no defined name), utilisation and a price typed
// as text, and formulas that guard a division, clamp with max, and take an
// input's name in capitals.
func growWorkbook(t *testing.T, path string) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		rows, _ := f.GetRows("Assumptions")
		next := len(rows) + 1
		for col, v := range []any{"extra_cost", 120.0, "$/month"} {
			cell, _ := excelize.CoordinatesToCellName(col+1, next)
			if err := f.SetCellValue("Assumptions", cell, v); err != nil {
				return err
			}
		}
		if err := f.SetCellStr("Assumptions", "B14", "50%"); err != nil { // utilization
			return err
		}
		return f.SetCellStr("Cloud", "D2", "2.69") // RunPod Community
	})
	appendFormulas(t, path, [][3]string{
		{"with_extra", "node_cost_per_month + extra_cost", "$/month"},
		{"guarded", "gpus < 0 and capex / (gpus - 8) > 1 ? 1 : 0", ""},
		{"clamped", "max(utilization, 0.1) + (utilization > 0.9 ? 1 : 0)", "%"},
		{"GPUS", "gpus * 2", "GPUs"},
	})
}

// clashing are formulas whose names Excel would misread as a cell (CPU1),
// an R1C1 reference (r2c3) or a function (npv); the last uses them all.
var clashing = [][2]string{
	{"cpu1", "capex / 1000"},
	{"r2c3", "cpu1 * 2"},
	{"npv", "r2c3 + gpus"},
	{"uses_clashing_names", "npv + cpu1 + r2c3"},
}

// addClashingFormulas appends the clashing formulas to the Formulas sheet.
func addClashingFormulas(t *testing.T, path string) {
	t.Helper()
	var rows [][3]string
	for _, c := range clashing {
		rows = append(rows, [3]string{c[0], c[1], "$"})
	}
	appendFormulas(t, path, rows)
}

// A grown workbook keeps its names unique without case, and links what
// has no name by its cell.
func TestGrownWorkbookLinks(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	growWorkbook(t, plan)
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	if !strings.Contains(errs.String(), "warning: the workbook already defines the name gpus (Assumptions!$B$7); planner left it and did not point it at Results!$D$") {
		t.Errorf("no warning about GPUS: %s", errs.String())
	}
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Scope != "Workbook" {
			continue // a sheet's own names, such as the rows it prints on every page
		}
		if other, dup := seen[strings.ToLower(dn.Name)]; dup {
			t.Errorf("the names %s and %s differ only in case", other, dn.Name)
		}
		seen[strings.ToLower(dn.Name)] = dn.Name
	}
	rows, _ := f.GetRows("Results")
	at := map[string]int{}
	for i, r := range rows {
		if len(r) > 1 {
			if _, first := at[r[1]]; !first {
				at[r[1]] = i + 1
			}
		}
	}
	formula := func(name string) string {
		fx, _ := f.GetCellFormula("Results", fmt.Sprintf("D%d", at[name]))
		return fx
	}
	// extra_cost has no defined name: the base column reads its Assumptions
	// cell through the inputs section.
	if got := formula("with_extra"); !strings.HasPrefix(got, "node_cost_per_month+D") {
		t.Errorf("with_extra is =%s", got)
	}
	// utilization was typed as text: linked through VALUE, read from there.
	if got := formula("cost_per_used_hour"); !strings.HasPrefix(got, "cost_per_gpu_hour/D") {
		t.Errorf("cost_per_used_hour is =%s", got)
	}
	if got := formula("guarded"); got != "IF(IF(gpus<0,capex/(gpus-8)>1,FALSE),1,0)" {
		t.Errorf("guarded is =%s", got)
	}
}

// Names Excel would misread never become defined names, and formulas refer
// to their cells by address instead.
func TestNamesThatClashWithExcel(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	addClashingFormulas(t, plan)
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, dn := range f.GetDefinedName() {
		for _, c := range clashing[:3] {
			if strings.EqualFold(dn.Name, c[0]) {
				t.Errorf("a defined name %s = %s", dn.Name, dn.RefersTo)
			}
		}
	}
	rows, _ := f.GetRows("Results")
	at := map[string]string{}
	for i, r := range rows {
		if len(r) > 1 {
			at[r[1]] = fmt.Sprintf("D%d", i+1)
		}
	}
	formula, _ := f.GetCellFormula("Results", at["uses_clashing_names"])
	if want := at["npv"] + "+" + at["cpu1"] + "+" + at["r2c3"]; formula != want {
		t.Errorf("uses_clashing_names is =%s, want =%s", formula, want)
	}
	formula, _ = f.GetCellFormula("Results", at["cpu1"])
	if formula != "capex/1000" {
		t.Errorf("cpu1 is =%s, want =capex/1000 (capex is a safe name)", formula)
	}
}

// editFormula replaces a formula's expression in the Formulas sheet.
func editFormula(t *testing.T, path, name, expression string) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		rows, _ := f.GetRows("Formulas")
		for i, r := range rows {
			if len(r) > 0 && r[0] == name {
				return f.SetCellStr("Formulas", fmt.Sprintf("B%d", i+1), expression)
			}
		}
		return fmt.Errorf("no formula %s", name)
	})
}

// A user evaluates, then changes capex, a price and a deployment in the
// spreadsheet and lets it recalculate: every number and every verdict a
// reader sees in Results and Deployment costs, in words too, then equals
// planner's own evaluation of the edited workbook. Only the provenance line
// (which names the inputs planner computed from) may differ.
func TestLibreOfficeRecalculationMatchesEveryVisibleCell(t *testing.T) {
	needLibreOffice(t)
	dir := t.TempDir()
	plan := filepath.Join(dir, "plan.xlsx")
	var out, errs bytes.Buffer
	for _, args := range [][]string{{"init", plan}, {"eval", plan, "--samples", "1000"}} {
		if code := run(args, &out, &errs); code != 0 {
			t.Fatal(errs.String())
		}
	}
	cases := map[string]func(path string){
		// A cheaper quote: capex at 200,000 turns a rent into a buy at 50 %.
		"cheaper.xlsx": func(path string) {
			setInputs(t, path, map[string]float64{"capex": 200000})
			setNumber(t, path, "Cloud", "D3", 2.40)     // RunPod Secure
			setNumber(t, path, "Deployments", "F3", 3)  // three replicas of the 70B service
			setNumber(t, path, "Deployments", "G9", 10) // one H100, 10 h a workday
			setNumber(t, path, "GPUs", "C4", 800)       // the H200 at 800 W
			setNumber(t, path, "Cloud", "D7", 0.74)     // the RTX 5090
			setInputs(t, path, map[string]float64{"utilization": 0.42})
			setNumber(t, path, "Deployments", "M5", 4000) // the 70B's throughput, and two replicas of it
			setNumber(t, path, "Deployments", "F5", 2)
			setNumber(t, path, "Deployments", "E3", 4) // cards typed where sizing gave them
			editBook(t, path, func(f *excelize.File) error {
				return f.SetCellValue("Deployments", "E4", nil) // and cleared where they were typed
			})
		},
		// Utilisation retyped as text, and a GPU's watts typed as text: the
		// verdicts compare numbers still.
		"typed.xlsx": func(path string) {
			editBook(t, path, func(f *excelize.File) error {
				if err := f.SetCellStr("Assumptions", "B14", "42%"); err != nil {
					return err
				}
				return f.SetCellStr("GPUs", "C2", "650")
			})
		},
		// A dearer quote: break-evens above 100 % read so, live.
		"dearer.xlsx": func(path string) {
			setInputs(t, path, map[string]float64{"capex": 600000, "rack_per_month": 1800})
			setNumber(t, path, "Cloud", "D2", 2.10)
		},
	}
	fresh, lo := recalculatedAsPlanner(t, dir, plan, cases, plan)
	for name, fresh := range fresh {
		// The edits changed verdicts, so a stale sheet would have been caught.
		if flips := changedVerdicts(t, plan, fresh); flips == 0 {
			t.Errorf("%s: no verdict changed; the test shows nothing", name)
		}
	}
	// LibreOffice opening and saving an evaluated workbook changes nothing
	// eval --check compares: values and formulas as planner wrote them.
	if code := run([]string{"eval", filepath.Join(lo, "plan.xlsx"), "--samples", "1000", "--check"}, &out, &errs); code != 0 {
		t.Errorf("eval --check after LibreOffice saved the workbook: %s", errs.String())
	}
	// Verdicts are coloured by rules that follow their words, not by a
	// fill fixed when planner wrote them.
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, sheet := range liveSheets {
		cfs, _ := f.GetConditionalFormats(sheet)
		rules := 0
		for _, opts := range cfs {
			for _, o := range opts {
				if o.Type == "formula" && strings.HasSuffix(o.Criteria, `="buy"`) {
					rules++
				}
			}
		}
		if rules == 0 {
			t.Errorf("%s: no conditional format colours its verdicts", sheet)
		}
	}
}

// changedVerdicts counts the cells of the live sheets that read buy or rent
// in one workbook and otherwise in the other.
func changedVerdicts(t *testing.T, a, b string) int {
	t.Helper()
	n := 0
	for _, sheet := range liveSheets {
		x, y := readSheet(t, a, sheet).rows, readSheet(t, b, sheet).rows
		for r := range min(len(x), len(y)) {
			for c := range min(len(x[r]), len(y[r])) {
				if v := x[r][c]; (v == "buy" || v == "rent") && y[r][c] != v {
					n++
				}
			}
		}
	}
	return n
}

// sameCells compares every cell of sheet in planner's workbook (want) with
// the same cell after LibreOffice recalculated a stale copy (got): numbers
// within 1e-9 relative, text exactly. Skipped: the provenance row, and
// what follows a section title that says it is not live (the close calls,
// which come from Monte Carlo, last on the sheet).
func sameCells(t *testing.T, what, sheet, wantPath, gotPath string) {
	t.Helper()
	want, got := readSheet(t, wantPath, sheet).rows, readSheet(t, gotPath, sheet).rows
	for r, row := range want {
		if len(row) > 0 && strings.Contains(row[0], "not live") {
			want, got = want[:r], got[:min(r, len(got))]
			break
		}
	}
	at := func(rows [][]string, r, c int) string {
		if r < len(rows) && c < len(rows[r]) {
			return rows[r][c]
		}
		return ""
	}
	bad, compared := 0, 0
	for r := 0; r < max(len(want), len(got)); r++ {
		if r == 1 {
			continue // the provenance line: planner's fingerprint of the inputs
		}
		width := 0
		if r < len(want) {
			width = len(want[r])
		}
		if r < len(got) {
			width = max(width, len(got[r]))
		}
		for c := 0; c < width; c++ {
			w, g := at(want, r, c), at(got, r, c)
			x, err1 := strconv.ParseFloat(w, 64)
			y, err2 := strconv.ParseFloat(g, 64)
			compared++
			if err1 == nil && err2 == nil && math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) || w == g {
				continue
			}
			if bad++; bad <= 15 {
				ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
				t.Errorf("%s: %s!%s: planner %q, LibreOffice after recalculating %q", what, sheet, ref, w, g)
			}
		}
	}
	if compared < 100 {
		t.Errorf("%s: only %d cells of %s compared", what, compared, sheet)
	}
}

// Replicas from a peak round up in LibreOffice's ROUNDUP as in planner:
// 3008.4 tokens a second at 1002.8 a replica is 3 replicas to both, though
// the binary quotient is 3.0000000000000004; every formula of Deployment
// costs recalculates to planner's value.
func TestLibreOfficeRoundsReplicasAsPlanner(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	var out, errs bytes.Buffer
	editBook(t, plan, func(f *excelize.File) error {
		if err := f.SetCellValue("Deployments", "F5", nil); err != nil {
			return err
		}
		if err := f.SetCellFloat("Deployments", "M5", 1002.8, -1, 64); err != nil {
			return err
		}
		return f.SetCellFloat("Deployments", "N5", 3008.4, -1, 64)
	})
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	if strings.Contains(errs.String(), "Deployments!") {
		t.Errorf("warned: %s", errs.String())
	}
	want := readSheet(t, plan, "Deployment costs")
	row := 0
	for i, r := range want.rows {
		if len(r) > 0 && r[0] == "70B, longer context or more concurrency" {
			row = i + 1
		}
	}
	replicas := fmt.Sprintf("E%d", row)
	if row == 0 || want.formulas[replicas] != "3" {
		t.Fatalf("Deployment costs row %d: planner's replicas %q, want 3", row, want.formulas[replicas])
	}
	lo := filepath.Join(dir, "lo")
	recalculate(t, []string{plan}, lo)
	sameNumbers(t, "plan.xlsx", "Deployment costs", want.formulas, filepath.Join(lo, "plan.xlsx"))
}

// recalculatedAsPlanner copies plan once for each case and makes the case's
// edit, lets LibreOffice recalculate every copy (and the files also), then
// evaluates each copy afresh and fails unless every live sheet's cells
// agree with LibreOffice's. It returns the fresh evaluations by case, and
// the folder of LibreOffice's files.
func recalculatedAsPlanner(t *testing.T, dir, plan string, cases map[string]func(path string), also ...string) (map[string]string, string) {
	t.Helper()
	edited := also
	for name, edit := range cases {
		path := filepath.Join(dir, name)
		copyFile(t, plan, path)
		edit(path)
		edited = append(edited, path)
	}
	lo := filepath.Join(dir, "lo")
	recalculate(t, edited, lo)
	fresh := map[string]string{}
	for name := range cases {
		fresh[name] = filepath.Join(dir, "fresh-"+name)
		var out, errs bytes.Buffer
		if code := run([]string{"eval", filepath.Join(dir, name), "--samples", "1000", "-o", fresh[name]}, &out, &errs); code != 0 {
			t.Fatal(errs.String())
		}
		for _, sheet := range liveSheets {
			sameCells(t, name, sheet, fresh[name], filepath.Join(lo, name))
		}
	}
	return fresh, lo
}
