package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// usdRate is what one US dollar is worth in euros, the rate a workbook in
// euros gives US dollars (its currency per one unit of the row's): one over
// the ECB's 1.1403 dollars a euro of 2026-09-25 (ecbRate), to five places.
const usdRate = 0.87696

// euroPlan is the default workbook in euros: the input currency EUR, the
// Community offer (Cloud row 2) listed in US dollars with FX's rate for
// them, and the goal whose default name quotes a dollar price renamed.
// It returns the folder, the workbook, and the offer's listed price.
func euroPlan(t *testing.T) (dir, plan string, listed float64) {
	t.Helper()
	dir, plan = freshPlan(t)
	row := assumptionsRow(t, plan, "currency")
	listed = cloudPrice(t, plan, "D2")
	setCells(t, plan, map[string]any{
		"Assumptions!B" + row: "EUR", "Cloud!N2": "USD",
		"FX!A2": "USD", "FX!B2": usdRate, "FX!C2": "2026-09-25", "FX!D2": "ECB euro reference rate, 1.1403 dollars a euro, inverted",
		"Goals!A3": "highest capex that breaks even at 40 % against the Community price",
	})
	return dir, plan, listed
}

// assumptionsRow is the row of Assumptions that holds input name.
func assumptionsRow(t *testing.T, plan, name string) string {
	t.Helper()
	for i, r := range readSheet(t, plan, "Assumptions").rows {
		if len(r) > 0 && r[0] == name {
			return strconv.Itoa(i + 1)
		}
	}
	t.Fatalf("Assumptions has no row %s", name)
	return ""
}

// cloudPrice is the number in a cell of Cloud.
func cloudPrice(t *testing.T, plan, cell string) float64 {
	t.Helper()
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	v, err := f.GetCellValue("Cloud", cell, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	var x float64
	if err := json.Unmarshal([]byte(v), &x); err != nil {
		t.Fatalf("Cloud!%s is %q, not a number", cell, v)
	}
	return x
}

// In a workbook in euros, the terminal writes every amount in euros and
// none in dollars; an offer listed in dollars is compared at its price
// times FX's rate.
func TestAWorkbookInEurosSpeaksEuros(t *testing.T) {
	_, plan, listed := euroPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "--today", "2026-12-01"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	text := out.String() + errs.String()
	if i := strings.Index(text, "$"); i >= 0 {
		t.Errorf("the terminal says $ in a workbook in euros: %q", text[max(0, i-80):min(len(text), i+40)])
	}
	for _, want := range []string{"€35,625", "€/GPU-h", "€1.64", "€/month"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in\n%s", want, out.String())
		}
	}
	doc, _ := evalJSON(t, plan)
	price := listed * usdRate
	for _, o := range doc.Scenarios[0].Offers {
		if o.Offer != "H100 SXM, Community" {
			continue
		}
		if !near(o.Price, price) || o.Listed == nil || *o.Listed != listed || o.ListedCurrency != "USD" {
			t.Errorf("offer %+v, want price %v listed %v USD", o, price, listed)
		}
		if want := owned(defaults()) / price; o.Breakeven == nil || !near(*o.Breakeven, want) {
			t.Errorf("break-even %v, want %v", o.Breakeven, want)
		}
	}
}

// eval's JSON says the currency, and its words write amounts in it.
func TestAWorkbookInEurosWritesEurosInItsJSON(t *testing.T) {
	_, plan, _ := euroPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--format", "json", "--samples", "200", "--today", "2026-12-01"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	var doc struct {
		Currency    string `json:"currency"`
		Deployments []struct {
			Words string `json:"words"`
		} `json:"deployments"`
		Fleet struct {
			Words string `json:"words"`
		} `json:"fleet"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Currency != "EUR" {
		t.Errorf("currency %q, want EUR", doc.Currency)
	}
	if len(doc.Deployments) == 0 || !strings.Contains(doc.Deployments[0].Words, "€") {
		t.Errorf("the deployments' words are not in euros: %+v", doc.Deployments)
	}
	if strings.Contains(out.String(), "$") {
		i := strings.Index(out.String(), "$")
		t.Errorf("the JSON says $: %q", out.String()[max(0, i-80):i+20])
	}
}

// Every money cell of planner's sheets shows euros: no number format
// spells a dollar, and the money cells' spell the euro.
func TestAWorkbookInEurosFormatsItsCellsInEuros(t *testing.T) {
	_, plan, _ := euroPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "--today", "2026-12-01"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	formattedInEuros(t, plan)
}

// formattedInEuros fails the test where a cell of planner's sheets in the
// evaluated workbook plan reads or is formatted in dollars, or where a
// sheet of money has no cell formatted in euros.
func formattedInEuros(t *testing.T, plan string) {
	t.Helper()
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	typed := typedWords(t, f)
	euros := map[string]int{}
	for _, sheet := range []string{"Results", "Deployment costs", "Fleet", "Cash flow", "MonteCarlo", "Sensitivity", "Data tables", "Breakeven", "Goal seek"} {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for r, row := range rows {
			for c, v := range row {
				cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
				if strings.Contains(typed.Replace(v), "$") {
					t.Errorf("%s!%s reads %q", sheet, cell, v)
				}
				id, err := f.GetCellStyle(sheet, cell)
				if err != nil {
					t.Fatal(err)
				}
				st, err := f.GetStyle(id)
				if err != nil || st.CustomNumFmt == nil {
					continue
				}
				if strings.Contains(*st.CustomNumFmt, "$") {
					t.Errorf("%s!%s has the number format %q", sheet, cell, *st.CustomNumFmt)
				}
				if strings.Contains(*st.CustomNumFmt, `"€"`) {
					euros[sheet]++
				}
			}
		}
	}
	for _, sheet := range []string{"Results", "Deployment costs", "Fleet", "Cash flow", "MonteCarlo"} {
		if euros[sheet] == 0 {
			t.Errorf("no cell of %s is formatted in euros", sheet)
		}
	}
}

// typedWords removes from a text what the user typed in the input sheets
// (notes, names): those are the user's words, which planner copies as they
// are, dollars and all.
func typedWords(t *testing.T, f *excelize.File) *strings.Replacer {
	t.Helper()
	var pairs []string
	for _, sheet := range []string{"Assumptions", "Scenarios", "Cloud", "APIs", "FX", "GPUs", "Models", "Deployments", "Correlations", "Targets", "Tables", "Goals"} {
		rows, err := f.GetRows(sheet)
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows {
			for _, v := range row {
				if strings.Contains(v, "$") && len(v) > 12 {
					pairs = append(pairs, v, "")
				}
			}
		}
	}
	return strings.NewReplacer(pairs...)
}

// The currency must be one ISO 4217 knows; an offer in a currency FX has
// no rate for names the row to add, in the workbook's currency.
func TestAWorkbookCurrencyIsChecked(t *testing.T) {
	_, plan := freshPlan(t)
	row := assumptionsRow(t, plan, "currency")
	for _, c := range []struct {
		cells map[string]any
		want  string
	}{
		{map[string]any{"Assumptions!B" + row: "EUX"},
			"Assumptions!B" + row + `: currency: "EUX" is not a currency planner knows; write its ISO 4217 code, such as USD or EUR`},
		{map[string]any{"Assumptions!B" + row: "EUR", "Cloud!N2": "USD"},
			"Cloud!N2: RunPod H100 SXM, Community: is listed in USD, and sheet FX gives no rate for it; add a row to FX: currency USD, rate (EUR per 1 USD), as of, source"},
		{map[string]any{"Assumptions!B" + row: "EUR", "FX!A2": "EUR", "FX!B2": 1.0},
			"FX!A2: EUR: is the workbook's own currency (the input currency), which needs no rate; clear the row"},
	} {
		evalRefuses(t, c.cells, c.want)
	}
}

// LibreOffice's recalculation writes the verdicts' words in euros, as
// planner does, at a new rate typed into FX.
func TestLibreOfficeWritesEurosInTheWords(t *testing.T) {
	needLibreOffice(t)
	dir, plan, _ := euroPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	_, lo := recalculatedAsPlanner(t, dir, plan, map[string]func(path string){
		"rate.xlsx": func(path string) { setNumber(t, path, "FX", "B2", 0.80) },
	})
	costs := readSheet(t, filepath.Join(lo, "rate.xlsx"), "Deployment costs")
	euros := 0
	for _, row := range costs.rows {
		for _, v := range row {
			if strings.Contains(v, "$") {
				t.Errorf("LibreOffice's Deployment costs read %q", v)
			}
			if strings.Contains(v, " a month rented from ") && strings.Contains(v, "€") {
				euros++
			}
		}
	}
	if euros == 0 {
		t.Error("no verdict of Deployment costs writes euros after LibreOffice's recalculation")
	}
}

// A workbook in euros is told of a slip in euros: the bands are the same
// numbers in every currency, and the message writes them in the
// workbook's. show, formulas and diff tell units and amounts in euros,
// and --set cannot change the currency every amount is in.
func TestAWorkbookInEurosIsToldInEuros(t *testing.T) {
	dir, plan, _ := euroPlan(t)
	before := filepath.Join(dir, "before.xlsx")
	copyFile(t, plan, before)
	row := assumptionsRow(t, plan, "electricity_price")
	// The unit typed with the euro's sign reads as planner's "$/kWh".
	setCells(t, plan, map[string]any{"Assumptions!B" + row: 120.0, "Assumptions!C" + row: "€/kWh"})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "--today", "2026-12-01"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	want := "Assumptions!B" + row + ": electricity_price: 120 €/kWh lies above the plausible 0 to 2 €/kWh for an electricity price: did you mean 0.120 (120 €/MWh)? if so, type 0.120"
	if !strings.Contains(errs.String(), want) {
		t.Errorf("no warning\n%s\nin\n%s", want, errs.String())
	}
	if i := strings.Index(errs.String(), "$"); i >= 0 {
		t.Errorf("a warning says $: %q", errs.String()[max(0, i-80):min(errs.Len(), i+40)])
	}
	out.Reset()
	errs.Reset()
	if code := run([]string{"show", plan}, &out, &errs); code != 0 {
		t.Fatalf("show: exit %d: %s", code, errs.String())
	}
	for _, want := range []string{"assumption capex = 285000 € [250000..320000]", "assumption electricity_price = 120 €/kWh [0.08..0.2]", "fx USD = 0.87696 EUR per USD, as of 2026-09-25",
		`offer "RunPod H100 SXM, Secure" = 3.29 €/GPU-h`, "[€/GPU-h]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("show says no %q", want)
		}
	}
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.Contains(line, "$") && !strings.HasPrefix(line, "source ") {
			t.Errorf("show says $ outside the notes, the user's own words: %q", line)
		}
	}
	for _, args := range [][]string{{"formulas", plan}, {"formulas", plan, "--excel"}, {"diff", before, plan}, {"diff", before, plan, "--format", "markdown"}} {
		out.Reset()
		if code := run(args, &out, &errs); code > 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errs.String())
		}
		if !strings.Contains(out.String(), "€") || strings.Contains(out.String(), "$") {
			t.Errorf("%v writes no euros, or dollars:\n%s", args, out.String())
		}
	}
	if code := run([]string{"eval", plan, "--set", "currency=USD"}, &out, &errs); code == 0 ||
		!strings.Contains(errs.String(), "--set currency=USD: the currency is the workbook's, the one every amount of it is in; change it in the sheet Assumptions") {
		t.Errorf("--set currency: exit %d, %s", code, errs.String())
	}
}

// docs/currency.md's workbook in euros: RunPod's $2.69 converts at one
// over the ECB's rate, and owning's €1.636 (the article's figures, read as
// euros) breaks even at their quotient. The page and the README quote the
// figures, and the page's printed lines are a run's.
func TestWorkedWorkbookInEurosExample(t *testing.T) {
	if math.Abs(usdRate-1/ecbRate) > 5e-6 {
		t.Fatalf("%g is not one over %g to five places", usdRate, ecbRate)
	}
	_, plan, listed := euroPlan(t)
	if listed != fallbackPrice {
		t.Fatalf("Cloud!D2 is %v, not RunPod's $%v", listed, fallbackPrice)
	}
	d, _ := exampleEval(t, plan)
	own := articleNode().lines()["cost_per_gpu_hour"]
	price := fallbackPrice * usdRate
	o := exampleOffer(t, d, "RunPod H100 SXM, Community")
	if !near(o.Price, price) || !near(o.Values["breakeven"], own/price) || o.Verdict != "rent" {
		t.Errorf("the offer in dollars: €%v, break-even %v, %q; want €%v, %v, rent", o.Price, o.Values["breakeven"], o.Verdict, price, own/price)
	}
	euros := func(v float64, decimals int) string { return strings.Replace(money(v, decimals), "$", "€", 1) }
	quotes(t, "docs/currency.md", page(t, "docs/currency.md"),
		fmt.Sprintf("$%.2f × %g = ", fallbackPrice, usdRate)+bold(euros(price, 4)), "= "+bold(percent(own/price)),
		fmt.Sprintf("1.1403 dollars a euro"), fmt.Sprintf("`rate` %g", usdRate))
	quotes(t, "README.md", page(t, "README.md"), euros(price, 4), fmt.Sprintf("%g euros a dollar", usdRate), percent(own/price))

	slow(t, "evaluates the worked example at 10,000 samples")
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--today", exampleToday}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	printed := "\n" + out.String() + "\n"
	lines := printedBlock(t, "docs/currency.md", "## A workbook in euros")
	if len(lines) < 2 {
		t.Fatal("docs/currency.md: no printed block in its workbook in euros")
	}
	for _, line := range lines {
		if !strings.Contains(printed, "\n"+line+"\n") {
			t.Errorf("docs/currency.md prints a line planner does not:\n%s", line)
		}
	}
}
