package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/diag"
	"planner/workbooks"
)

// What init and eval write is what their help and the guide say they
// write: the sheets (counted and named), and which of planner's sheets
// carry charts. The help is generated from the code's lists; this test
// holds those lists, and the guide, to the sheets a run really writes.
func TestSheetsAsDocumented(t *testing.T) {
	dir := t.TempDir()
	path := initPlan(t, dir, "plan.xlsx")
	inputs := sheetNames(t, path)
	if code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx", "--samples", "200"); code != 0 {
		t.Fatalf("eval: %s", errs)
	}
	owned := sheetNames(t, path)[len(inputs):] // eval adds its sheets after the others
	if !slices.Equal(inputs, workbooks.InputSheets()) || !slices.Equal(owned, workbooks.OwnedSheets()) {
		t.Fatalf("init wrote %q and eval %q; the code's lists are %q and %q", inputs, owned, workbooks.InputSheets(), workbooks.OwnedSheets())
	}
	charts := map[string]bool{}
	found, err := chartsOf(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range found {
		charts[c.sheet] = true
	}

	// The help says so.
	for cmd, want := range map[string][]string{
		"init": {fmt.Sprintf("init writes the %d sheets a plan is kept in", len(inputs)), diag.ListAnd(inputs)},
		"eval": {fmt.Sprintf("writes planner's own %d sheets back into the same workbook", len(owned)), diag.ListAnd(owned)},
	} {
		_, help, _ := plannerTimed(t, dir, cmd, "--help")
		for _, w := range want {
			if !strings.Contains(strings.Join(strings.Fields(help), " "), w) {
				t.Errorf("planner %s --help does not say %q:\n%s", cmd, w, help)
			}
		}
	}

	// The guide says so, each page where it says it.
	root := moduleRoot(t)
	page := func(heading string) string {
		return strings.Join(strings.Fields(docSection(t, root, heading)), " ")
	}
	workbook := page("The workbook")
	m := regexp.MustCompile("`planner init plan.xlsx` writes (\\w+) sheets for you to edit; `planner eval` writes (\\w+) more").FindStringSubmatch(workbook)
	if m == nil || m[1] != numberWords[len(inputs)] || m[2] != numberWords[len(owned)] {
		t.Errorf("docs/workbook.md: %q, but init writes %s sheets and eval %s", m, numberWords[len(inputs)], numberWords[len(owned)])
	}
	for heading, claim := range map[string]string{
		"Security: what planner promises about your file, and what it refuses": "It touches only the sheets it owns (" + backticked(owned, ", ") + ")",
		"Commands":         "`eval` writes " + diag.ListAnd(owned) + " in place",
		"What eval prints": "plan.xlsx: wrote " + diag.ListAnd(owned) + " ```",
	} {
		if !strings.Contains(page(heading), claim) {
			t.Errorf("the guide's section %q does not say %q", heading, claim)
		}
	}
	// Which what-if sheets have charts, and which are tables.
	m = regexp.MustCompile("Every eval also writes (\\w+) what-if sheets: (.+?) with native Excel charts, re-created identically on every run, and (.+?), which are tables").FindStringSubmatch(page("What would have to be true: sensitivity, data tables, break-even, goal seek"))
	if m == nil {
		t.Fatal("docs/what-ifs.md has no sentence \"Every eval also writes N what-if sheets: … with native Excel charts, re-created identically on every run, and …, which are tables\"")
	}
	withCharts, tables := quoted(m[2]), quoted(m[3])
	if m[1] != numberWords[len(withCharts)+len(tables)] {
		t.Errorf("docs/what-ifs.md counts %s what-if sheets and names %d", m[1], len(withCharts)+len(tables))
	}
	for _, s := range append(withCharts, tables...) {
		if !slices.Contains(owned, s) {
			t.Errorf("docs/what-ifs.md names a what-if sheet %s, which eval does not write", s)
		}
		if has := slices.Contains(withCharts, s); charts[s] != has {
			t.Errorf("docs/what-ifs.md says %s has charts: %v; it has: %v", s, has, charts[s])
		}
	}
	// Each of planner's sheets in the table of sheets: a chart is
	// mentioned where there is one, and only there.
	rows := regexp.MustCompile("\\| `([^`]+)` \\| ([^|]*) \\| ([^|]*) \\|").FindAllStringSubmatch(workbook, -1)
	described := map[string]string{}
	for _, r := range rows {
		described[r[1]] = r[2] + " | " + r[3]
	}
	for _, s := range slices.Concat(inputs, owned) {
		row, ok := described[s]
		switch {
		case !ok:
			t.Errorf("docs/workbook.md's table of sheets has no row for %s", s)
		case strings.Contains(row, "chart") != charts[s]:
			t.Errorf("docs/workbook.md's row for %s (%q) and the sheet's charts (%v) disagree", s, row, charts[s])
		}
	}
}

var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
	"eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}

// backticked is `a`, `b`, `c`.
func backticked(names []string, sep string) string {
	return "`" + strings.Join(names, "`"+sep+"`") + "`"
}

// quoted are the `names` in s.
func quoted(s string) []string {
	var out []string
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

func sheetNames(t *testing.T, path string) []string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return f.GetSheetList()
}
