package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// init --currency EUR writes a workbook in euros: its input currency says
// EUR, Assumptions' money reads € in its units and formats, and its eval
// writes € in every money cell and none in dollars. Its figures are the
// article's, unconverted, which init warns of: an offer's break-even is
// owning's cost over the price as typed.
func TestInitInTheWorkbooksCurrency(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "plan.xlsx")
	var out, errs bytes.Buffer
	if code := run([]string{"init", plan, "--currency", "eur"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	warning := "warning: " + plan + ": the workbook is in EUR, but its prices and amounts are the article's US dollar figures, not converted " +
		"(capex, the electricity price and the rest of Assumptions, every price of Cloud): type your own in EUR over them; " +
		"an offer you keep at its dollar price needs USD in its currency cell on Cloud and a row of FX for USD, its rate in EUR per US dollar\n"
	if !strings.HasPrefix(errs.String(), warning) {
		t.Errorf("init says\n%s\nwant it to begin\n%s", errs.String(), warning)
	}
	assumptions := readSheet(t, plan, "Assumptions").rows
	if row := assumptions[rowIndex(t, plan, "currency")]; row[1] != "EUR" {
		t.Errorf("Assumptions' currency row is %q, want EUR", row)
	}
	capex := rowIndex(t, plan, "capex")
	if got := assumptions[capex][2]; got != "€" {
		t.Errorf("capex's unit is %q, want €", got)
	}
	if got := numberFormat(t, plan, "Assumptions", "B"+assumptionsRow(t, plan, "capex")); !strings.HasPrefix(got, `"€"`) {
		t.Errorf("capex's number format is %q, want one in euros", got)
	}
	if got := numberFormat(t, plan, "Cloud", "D2"); !strings.HasPrefix(got, `"€"`) {
		t.Errorf("Cloud's first price has the number format %q, want one in euros", got)
	}
	listed := cloudPrice(t, plan, "D2")

	doc, stderr := evalJSON(t, plan)
	if strings.Contains(stderr, "error") {
		t.Errorf("eval says %s", stderr)
	}
	found := false
	for _, o := range doc.Scenarios[0].Offers {
		if o.Offer != "H100 SXM, Community" {
			continue
		}
		found = true
		if o.Price != listed || o.Listed != nil {
			t.Errorf("offer %+v, want the price %v as typed, not converted", o, listed)
		}
		if want := owned(defaults()) / listed; o.Breakeven == nil || !near(*o.Breakeven, want) {
			t.Errorf("break-even %v, want %v", o.Breakeven, want)
		}
	}
	if !found {
		t.Fatal("no offer H100 SXM, Community")
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"eval", plan, "--samples", "200", "--today", "2026-12-01"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if want := "€" + strings.TrimPrefix(money(285000/8.0, 0), "$"); !strings.Contains(out.String(), want) {
		t.Errorf("eval's table has no %s (capex per GPU):\n%s", want, out.String())
	}
	formattedInEuros(t, plan)
}

// An unknown code is refused before anything is written, with the flag,
// what is wrong and the command to type.
func TestInitRefusesAnUnknownCurrency(t *testing.T) {
	plan := filepath.Join(t.TempDir(), "plan.xlsx")
	var out, errs bytes.Buffer
	if code := run([]string{"init", plan, "--currency", "EUX"}, &out, &errs); code == 0 {
		t.Fatal("init accepted the currency EUX")
	}
	want := `--currency "EUX" is not an ISO 4217 currency code; type the three letters of one, such as USD, EUR, GBP or CHF: planner init ` + plan + " --currency EUR\n"
	if errs.String() != want {
		t.Errorf("init says\n%q\nwant\n%q", errs.String(), want)
	}
	if _, err := excelize.OpenFile(plan); err == nil {
		t.Error("init wrote the workbook all the same")
	}
}

// rowIndex is the index in Assumptions' rows of the row of input name.
func rowIndex(t *testing.T, plan, name string) int {
	t.Helper()
	for i, r := range readSheet(t, plan, "Assumptions").rows {
		if len(r) > 0 && r[0] == name {
			return i
		}
	}
	t.Fatalf("Assumptions has no row %s", name)
	return 0
}

// numberFormat is the custom number format of a cell, or "".
func numberFormat(t *testing.T, plan, sheet, cell string) string {
	t.Helper()
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	id, err := f.GetCellStyle(sheet, cell)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil || st.CustomNumFmt == nil {
		return ""
	}
	return *st.CustomNumFmt
}

// The shell completes --currency with the codes planner writes with a
// sign of their own, and no file names.
func TestInitCompletesTheCurrency(t *testing.T) {
	var out, errs bytes.Buffer
	if code := run([]string{"__complete", "init", "plan.xlsx", "--currency", ""}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	want := "EUR\nGBP\nINR\nJPY\nKRW\nUSD\n:4\n"
	if out.String() != want {
		t.Errorf("completions\n%q\nwant\n%q", out.String(), want)
	}
}
