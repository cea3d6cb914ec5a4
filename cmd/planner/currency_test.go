package main

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// euroOffer lists RunPod's H100 Community (Cloud row 2) at €2.30 an hour,
// with the FX sheet's rate of 1.17 dollars a euro on the date given.
func euroOffer(t *testing.T, plan, asOf string) {
	t.Helper()
	setCells(t, plan, map[string]any{
		"Cloud!D2": 2.30, "Cloud!N2": "EUR",
		"FX!A2": "EUR", "FX!B2": 1.17, "FX!C2": asOf, "FX!D2": "example rate",
	})
}

// evalJSON evaluates plan and decodes eval's JSON document.
func evalJSON(t *testing.T, plan string) (doc struct {
	Scenarios []struct {
		Name   string `json:"name"`
		Offers []struct {
			Offer          string   `json:"offer"`
			Price          float64  `json:"price_per_gpu_hour"`
			Listed         *float64 `json:"listed_price_per_gpu_hour"`
			ListedCurrency string   `json:"listed_currency"`
			Breakeven      *float64 `json:"breakeven_utilization"`
		} `json:"offers"`
	} `json:"scenarios"`
}, stderr string) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--format", "json", "--samples", "200", "--today", "2026-12-01"}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc, errs.String()
}

// An offer listed in euros is compared in dollars: its
// price times the FX rate, and the break-even is owning's cost over that.
func TestAnOfferInEurosIsConvertedAtTheStatedRate(t *testing.T) {
	_, plan := freshPlan(t)
	euroOffer(t, plan, "2026-11-30")
	doc, _ := evalJSON(t, plan)
	price := 2.30 * 1.17
	found := false
	for _, o := range doc.Scenarios[0].Offers {
		if o.Offer != "H100 SXM, Community" {
			continue
		}
		found = true
		if !near(o.Price, price) || o.Listed == nil || *o.Listed != 2.30 || o.ListedCurrency != "EUR" {
			t.Errorf("offer %+v, want price %v listed 2.30 EUR", o, price)
		}
		if want := owned(defaults()) / price; o.Breakeven == nil || !near(*o.Breakeven, want) {
			t.Errorf("break-even %v, want %v", o.Breakeven, want)
		}
	}
	if !found {
		t.Fatal("no offer H100 SXM, Community")
	}
	// Results' price cell reads Cloud's price times the rate, live.
	results := readSheet(t, plan, "Results")
	priceRow := rowNamed(t, results.rows, 0, "offer_price")
	if got := cellNumber(t, results.rows[priceRow], resultsBase); !near(got, price) {
		t.Errorf("Results' first offer price %v, want %v", got, price)
	}
	cell, _ := excelize.CoordinatesToCellName(resultsBase+1, priceRow+1)
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if f, _ := f.GetCellFormula("Results", cell); !strings.Contains(f, "Cloud!$D$2*FX!$B$2") {
		t.Errorf("Results!%s is %q, want Cloud's price times FX's rate", cell, f)
	}
}

// A price in yen is plausible as the dollars it converts to: ¥450 an
// hour is $3.015, no slip of the decimal point.
func TestAPriceInYenIsCheckedInDollars(t *testing.T) {
	_, plan := freshPlan(t)
	setCells(t, plan, map[string]any{
		"Cloud!D2": 450.0, "Cloud!N2": "JPY",
		"FX!A2": "JPY", "FX!B2": 0.0067, "FX!C2": "2026-11-30", "FX!D2": "example rate",
	})
	doc, errs := evalJSON(t, plan)
	if strings.Contains(errs, "Cloud!D2") {
		t.Errorf("the price in yen is warned about:\n%s", errs)
	}
	for _, o := range doc.Scenarios[0].Offers {
		if o.Offer == "H100 SXM, Community" && !near(o.Price, 450*0.0067) {
			t.Errorf("price %v, want %v", o.Price, 450*0.0067)
		}
	}
}

// A rate older than --max-price-age is warned about as a price is.
func TestAStaleRateIsWarnedAbout(t *testing.T) {
	_, plan := freshPlan(t)
	euroOffer(t, plan, "2026-06-01")
	_, errs := evalJSON(t, plan)
	days := int(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Sub(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)).Hours() / 24)
	want := "FX!C2: EUR: the rate is " + strconv.Itoa(days) + " days old on 2026-12-01 (--today), more than 90; check it and update the rate and its as-of date"
	if !strings.Contains(errs, want) {
		t.Errorf("no warning %q in\n%s", want, errs)
	}
}

// A currency without a rate is an error at the offer's cell that names
// the FX row to add; a code that is no currency is one naming the code.
func TestAMissingRateOrAnUnknownCodeIsAnError(t *testing.T) {
	for _, c := range []struct {
		cells map[string]any
		want  string
	}{
		{map[string]any{"Cloud!N2": "EUR"},
			"Cloud!N2: RunPod H100 SXM, Community: is listed in EUR, and sheet FX gives no rate for it; add a row to FX: currency EUR, rate (US dollars per 1 EUR), as of, source"},
		{map[string]any{"Cloud!N2": "EUX"},
			`Cloud!N2: RunPod H100 SXM, Community: "EUX" is not a currency planner knows; write its ISO 4217 code, such as EUR, or leave the cell empty for US dollars`},
		{map[string]any{"FX!A2": "EUX", "FX!B2": 1.17},
			`FX!A2: "EUX" is not a currency planner knows; write its ISO 4217 code, such as EUR`},
	} {
		evalRefuses(t, c.cells, c.want)
	}
}

// A new rate typed into FX moves Results and every live sheet after
// LibreOffice recalculates, to the figures planner computes at that rate.
func TestLibreOfficeRecalculatesAConvertedPrice(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	euroOffer(t, plan, "2026-11-30")
	// An API in euros, which the 70B service's tokens (Deployments row 5)
	// are compared with.
	setCells(t, plan, map[string]any{
		"APIs!A2": "Acme", "APIs!B2": "Llama 3.1 70B", "APIs!C2": 0.6, "APIs!D2": 2.4, "APIs!F2": "2026-11-30", "APIs!H2": "EUR",
		"Deployments!M5": 4000.0,
	})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	if !readsTheRate(t, plan, "Deployment costs") {
		t.Fatal("no formula of Deployment costs reads FX's rate: the API's price is not live")
	}
	fresh, _ := recalculatedAsPlanner(t, dir, plan, map[string]func(path string){
		"rate.xlsx": func(path string) { setNumber(t, path, "FX", "B2", 0.95) }, // a weaker euro: the offer's break-even rises
	})
	if flips := changedVerdicts(t, plan, fresh["rate.xlsx"]); flips == 0 {
		t.Error("no verdict changed; the test shows nothing")
	}
}

// readsTheRate reports whether a formula of the sheet reads FX!B2.
func readsTheRate(t *testing.T, path, sheet string) bool {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for r, row := range rows {
		for c := range row {
			cell, _ := excelize.CoordinatesToCellName(c+1, r+1)
			if formula, _ := f.GetCellFormula(sheet, cell); strings.Contains(formula, "*FX!$B$2)") {
				return true
			}
		}
	}
	return false
}

// A workbook made before Cloud had a currency column and the FX sheet
// existed takes both as a user adds them by hand: a header and a sheet.
func TestAnOlderWorkbookTakesRatesAddedByHand(t *testing.T) {
	_, plan := freshPlan(t)
	editBook(t, plan, func(f *excelize.File) error {
		if err := f.DeleteSheet("FX"); err != nil {
			return err
		}
		return f.SetCellValue("Cloud", "N1", nil)
	})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200"}, &out, &errs); code != 0 {
		t.Fatalf("a workbook without FX: exit %d: %s", code, errs.String())
	}
	setCells(t, plan, map[string]any{
		"Cloud!N1": "Currency", "FX!A1": "Currency", "FX!B1": "Rate", "FX!C1": "As of", "FX!D1": "Source",
	})
	euroOffer(t, plan, "2026-11-30")
	doc, _ := evalJSON(t, plan)
	for _, o := range doc.Scenarios[0].Offers {
		if o.Offer == "H100 SXM, Community" && !near(o.Price, 2.30*1.17) {
			t.Errorf("price %v, want %v", o.Price, 2.30*1.17)
		}
	}
}
