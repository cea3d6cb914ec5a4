package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// At 8 % a year the annuity factor over 36 months is Σ 1.00667^-m, 31.91
// months: the terminal and Results show it to the same two decimals, not
// 31.91 in one and 32 in the other.
func TestAnnuityFactorSamePrecisionEverywhere(t *testing.T) {
	_, plan := freshPlan(t)
	setInputs(t, plan, map[string]float64{"cost_of_capital": 0.08})
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "100"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	var annuity float64
	for m := 1; m <= 36; m++ {
		annuity += math.Pow(1+0.08/12, -float64(m))
	}
	want := fmt.Sprintf("%.2f", annuity)
	if want != "31.91" {
		t.Fatalf("the annuity factor works out at %s", want)
	}
	var terminal []string
	for _, line := range strings.Split(out.String(), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "annuity_factor" {
			terminal = f
			break
		}
	}
	if len(terminal) < 3 || terminal[2] != want {
		t.Errorf("terminal: %q, want the base's %s", terminal, want)
	}
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Results")
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range rows {
		if len(row) > 3 && row[1] == "annuity_factor" {
			if row[3] != want {
				t.Errorf("Results shows the base's annuity factor as %q, want %s", row[3], want)
			}
			return
		}
	}
	t.Error("Results has no annuity_factor row")
}

// setRange gives an Assumptions input a low and a high, as a user would.
func setRange(t *testing.T, path, name string, low, high float64) {
	t.Helper()
	editBook(t, path, func(f *excelize.File) error {
		rows, err := f.GetRows("Assumptions")
		if err != nil {
			return err
		}
		for i, r := range rows {
			if len(r) > 0 && r[0] == name {
				if err := f.SetCellFloat("Assumptions", fmt.Sprintf("D%d", i+1), low, -1, 64); err != nil {
					return err
				}
				return f.SetCellFloat("Assumptions", fmt.Sprintf("E%d", i+1), high, -1, 64)
			}
		}
		return fmt.Errorf("no %s in Assumptions", name)
	})
}

// At the defaults an input left at 0 does not vary, so the base's $1.64 a
// GPU-hour lies within its samples' P5–P95 and nothing is said. A
// maintenance range of 0 to 30 % a year above its 0, drawn as
// triangular(0, 0, 0.3), adds 10 % of $285,000 a year on average ($0.41 a
// GPU-hour): the base lies below P5, and the terminal and Results say so
// at the scenario.
func TestBaseOutsideItsMonteCarloBand(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	if strings.Contains(out.String(), "lies below the P5–P95") || strings.Contains(out.String(), "lies above the P5–P95") {
		t.Errorf("at the defaults the base lies outside its band:\n%s", out.String())
	}
	setRange(t, plan, "maintenance_per_year", 0, 0.3)
	out.Reset()
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	mean := 1.64 + 285000*0.1/12/8/730
	if math.Round(mean*100) != 205 {
		t.Fatalf("mean %v", mean)
	}
	want := "Monte Carlo, scenario base: the base's cost per GPU-hour, $1.64, lies below the P5–P95 of Monte Carlo's samples ($"
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "mean $2.0") {
		t.Errorf("the terminal does not say the base lies below its band:\n%s", out.String())
	}
	found := false
	for _, row := range readSheet(t, plan, "Results").rows {
		if len(row) > 0 && strings.HasPrefix(row[0], "base: the base's cost per GPU-hour, $1.64, lies below the P5–P95") {
			found = true
		}
	}
	if !found {
		t.Error("Results does not say the base lies below its band")
	}
}

// Plain eval compares every scenario with the offers of its own GPU: the
// H200 and B200 nodes with RunPod's H200 and B200 and Lambda's B200 plan,
// which are then not listed as "not compared"; a B200 node at $450,000
// breaks even against RunPod's $5.98 at its cost per GPU-hour ÷ 5.98.
// Without a cost of capital owning is cheaper in exactly the samples its
// NPV is above zero: one line says both.
func TestEveryScenarioComparedInTheTerminal(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "--format", "json"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	var doc evalDoc
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	var b200 evalScenario
	for _, s := range doc.Scenarios {
		if s.Name == "B200 node" {
			b200 = s
		}
	}
	out.Reset()
	if code := run([]string{"eval", plan, "--samples", "200"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	text := out.String()
	var rows []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, "RunPod B200 ") || strings.Contains(line, "Lambda B200") || strings.Contains(line, "RunPod H200 ") {
			rows = append(rows, line)
		}
	}
	be := fmt.Sprintf("%.1f %%", 100*b200.Values["cost_per_gpu_hour"]/5.98)
	if len(rows) < 3 || !strings.Contains(rows[0]+rows[1]+rows[2], be) {
		t.Errorf("the terminal's rows of the H200 and B200 offers (want RunPod B200 at %s):\n%s", be, strings.Join(rows, "\n"))
	}
	if other := regexpLine(text, "Other GPUs, not compared:"); strings.Contains(other, "B200") || strings.Contains(other, "H200") {
		t.Errorf("offers a scenario compares are listed as not compared: %s", other)
	}
	if !strings.Contains(text, "Chance that owning is cheaper, and that its NPV is above zero: ") || strings.Contains(text, "Chance that owning's NPV is above zero") {
		t.Errorf("the chances are not one line:\n%s", text)
	}
	// The MonteCarlo sheet: one table of both shares.
	var titles []string
	for _, row := range readSheet(t, plan, "MonteCarlo").rows {
		if len(row) > 0 && strings.HasPrefix(row[0], "Probability that owning") {
			titles = append(titles, row[0])
		}
	}
	if len(titles) != 1 || !strings.HasSuffix(titles[0], "which is also the probability that its net present value is above zero") {
		t.Errorf("the MonteCarlo sheet's tables of shares: %q", titles)
	}
}

// regexpLine is the first line of text that starts with prefix, or "".
func regexpLine(text, prefix string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, prefix) {
			return line
		}
	}
	return ""
}

// Results gives the NPV and the payback of every scenario against the
// offers of its GPU, not only the base's: the H200 node at $315,000
// against RunPod's H200 at $3.59 saves, at half the month, the rent of
// 8 × 730 × 0.5 hours less $637.73 of power and $1,000 of rack a month,
// $8,844.96; over 36 months that is $3,422.59 above the price, repaid in
// the 36th month.
func TestResultsHasEveryScenariosNPVAndPayback(t *testing.T) {
	_, plan := freshPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "100"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	saving := 3.59*8*730*0.5 - (700*8*1.3/1000*730*0.12 + 1000)
	npv := -315000 + 36*saving
	months := math.Ceil(315000 / saving)
	rows := readSheet(t, plan, "Results").rows
	col, at := -1, -1
	for r, row := range rows {
		if len(row) > 2 && row[0] == "Offer" && row[2] == "Figure" {
			for c, v := range row {
				if v == "H200 node" {
					col = c
				}
			}
		}
		if col >= 0 && len(row) > 2 && row[0] == "RunPod H200" && row[2] == "NPV" {
			at = r
			break
		}
	}
	if at < 0 || len(rows[at]) <= col || len(rows[at+1]) <= col {
		t.Fatalf("Results has no NPV of the H200 node against RunPod H200 (column %d, row %d)", col, at)
	}
	if got, _ := strconv.ParseFloat(rows[at][col], 64); math.Abs(got-npv) > 1e-6 || math.Round(npv*100) != 342259 {
		t.Errorf("NPV %q, want %.2f", rows[at][col], npv)
	}
	if got := rows[at+1][col]; got != strconv.Itoa(int(months)) || months != 36 {
		t.Errorf("payback %q, want %v", got, months)
	}
}
