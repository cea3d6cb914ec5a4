package main

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The finance case of the cash flow: 8 % a year, 30 % residual, 5 %
// maintenance, $400 staff and $150 network a month, typed into Assumptions.
var financeCase = map[string]float64{"cost_of_capital": 0.08, "residual": 0.3, "maintenance_per_year": 0.05,
	"staff_per_month": 400, "network_per_month": 150}

// cashCase is the default node with the finance case, worked out month by
// month for an offer's price over n months at half the month busy.
type cashCase struct{ n int }

func (c cashCase) running() float64 {
	return 700*8*1.3/1000*730*0.12 + 1000 + 285000*0.05/12 + 400 + 150
}

func (c cashCase) npv(price float64) float64 {
	i := 0.08 / 12
	v := -285000.0
	for m := 1; m <= c.n; m++ {
		v += (price*8*730*0.5 - c.running()) * math.Pow(1+i, -float64(m))
	}
	return v + 0.3*285000*math.Pow(1+i, -float64(c.n))
}

func (c cashCase) payback(price float64) string {
	cumulative := -285000.0
	for m := 1; m <= c.n; m++ {
		if cumulative += price*8*730*0.5 - c.running(); cumulative >= 0 {
			return strconv.Itoa(m)
		}
	}
	// The sale for the 30 % residual at the end, as the NPV counts it.
	if cumulative+0.3*285000 >= 0 {
		return fmt.Sprintf("%d months, with the sale at the end", c.n)
	}
	return fmt.Sprintf("no payback within %d months", c.n)
}

// offerPrices are the H100 SXM offers the default workbook compares, in
// the Cash flow sheet's order.
var offerPrices = []float64{2.69, 3.29, 3.99, 5.97}

// checkCashFlowSummary compares the Cash flow sheet's NPV and payback of
// each offer (rows 5 to 8, columns E and F) with the case's.
func checkCashFlowSummary(t *testing.T, path string, c cashCase) {
	t.Helper()
	f, err := excelize.OpenFile(path, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for j, price := range offerPrices {
		npv, _ := f.GetCellValue("Cash flow", fmt.Sprintf("E%d", 5+j))
		payback, _ := f.GetCellValue("Cash flow", fmt.Sprintf("F%d", 5+j))
		got, err := strconv.ParseFloat(npv, 64)
		if want := c.npv(price); err != nil || math.Abs(got-want) > 1e-6 {
			t.Errorf("%s: NPV against $%.2f is %q, want %.6f", filepath.Base(path), price, npv, want)
		}
		if want := c.payback(price); payback != want {
			t.Errorf("%s: payback against $%.2f is %q, want %q", filepath.Base(path), price, payback, want)
		}
	}
}

// The Cash flow sheet planner writes holds, for every offer, the NPV and
// payback worked out month by month in this test, and a row per month.
func TestCashFlowOfTheFinanceCase(t *testing.T) {
	dir := t.TempDir()
	path := initPlan(t, dir, "plan.xlsx")
	setInputs(t, path, financeCase)
	if code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx", "--samples", "200"); code != 0 {
		t.Fatal(errs)
	}
	checkCashFlowSummary(t, path, cashCase{n: 36})
	rows := readSheet(t, path, "Cash flow").rows
	last, header := len(rows), 0
	for r, row := range rows {
		if len(row) > 0 && row[0] == "month" {
			header = r + 1
		}
	}
	if header == 0 || last-header != 37 {
		t.Fatalf("the month table has %d rows after its header (row %d), want months 0 to 36", last-header, header)
	}
	// Owning's cumulative cash at the last month: the price, 36 months of
	// running cost, and the residual back.
	got, _ := strconv.ParseFloat(rows[last-1][3], 64)
	if want := -285000 - 36*(cashCase{}).running() + 0.3*285000; math.Abs(got-want) > 1e-6 {
		t.Errorf("owning's cumulative cash at month 36 is %v, want %v", got, want)
	}
}

// Shortening the amortisation in the spreadsheet leaves the months after
// it empty and the NPV right, recalculated by LibreOffice; lengthening it
// past the table's rows turns the NPV into #N/A until planner eval lays the
// sheet out again, never a number for other months.
func TestCashFlowFollowsTheAmortisation(t *testing.T) {
	needLibreOffice(t)
	dir := t.TempDir()
	path := initPlan(t, dir, "plan.xlsx")
	setInputs(t, path, financeCase)
	if code, _, errs := plannerTimed(t, dir, "eval", "plan.xlsx", "--samples", "200"); code != 0 {
		t.Fatal(errs)
	}
	shorter, longer := filepath.Join(dir, "shorter.xlsx"), filepath.Join(dir, "longer.xlsx")
	copyFile(t, path, shorter)
	copyFile(t, path, longer)
	setInputs(t, shorter, map[string]float64{"amortization_months": 24})
	setInputs(t, longer, map[string]float64{"amortization_months": 48})
	lo := filepath.Join(dir, "lo")
	recalculate(t, []string{shorter, longer}, lo)
	checkCashFlowSummary(t, filepath.Join(lo, "shorter.xlsx"), cashCase{n: 24})
	f, err := excelize.OpenFile(filepath.Join(lo, "longer.xlsx"), excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for j := range offerPrices {
		if v, _ := f.GetCellValue("Cash flow", fmt.Sprintf("E%d", 5+j)); v != "#N/A" {
			t.Errorf("longer.xlsx: NPV %d is %q, want #N/A", j, v)
		}
	}
	rows := readSheet(t, filepath.Join(lo, "shorter.xlsx"), "Cash flow").rows
	for _, row := range rows[len(rows)-12:] { // months 25 to 36
		for c, v := range row[1:] {
			if v != "" {
				t.Fatalf("shorter.xlsx: month %s column %d is %q after the amortisation", row[0], c+2, v)
			}
		}
	}
}
