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

	"planner/units"
)

// gainDeployment is the default workbook's deployment that gives its
// tokens per second per replica, and the peak gainPlan gives it.
const (
	gainDeployment = "70B, longer context or more concurrency"
	gainPeak       = 9000.0
)

// gainPlan is the default workbook with a row throughput_gain_per_year
// added to Assumptions at gain, and gainDeployment sized from a peak of
// gainPeak tokens a second (its replicas cell cleared). It returns the
// workbook, the deployment's tokens per second per replica and the
// Assumptions cell of the gain.
func gainPlan(t *testing.T, gain float64) (plan string, perReplica float64, gainCell string) {
	t.Helper()
	_, plan = freshPlan(t)
	gainCell = strings.TrimPrefix(assumptionCell(t, plan, "throughput_gain_per_year"), "Assumptions!")
	deployments := readSheet(t, plan, "Deployments").rows
	col := func(header string) string {
		for c, h := range deployments[0] {
			if h == header {
				name, _ := excelize.ColumnNumberToName(c + 1)
				return name
			}
		}
		t.Fatalf("Deployments has no column %q", header)
		return ""
	}
	row := 0
	for i, r := range deployments {
		if len(r) > 0 && r[0] == gainDeployment {
			row = i + 1
		}
	}
	if row == 0 {
		t.Fatalf("Deployments has no row %q", gainDeployment)
	}
	tokensAt := col("tokens per second per replica") + strconv.Itoa(row)
	perReplica, err := strconv.ParseFloat(deployments[row-1][slicesIndex(deployments[0], "tokens per second per replica")], 64)
	if err != nil {
		t.Fatalf("Deployments!%s: %v", tokensAt, err)
	}
	editBook(t, plan, func(f *excelize.File) error {
		for cell, v := range map[string]any{
			"Assumptions!" + gainCell: gain,
			"Deployments!" + col("peak tokens per second") + strconv.Itoa(row): gainPeak,
			"Deployments!" + col("replicas") + strconv.Itoa(row):               nil,
		} {
			sheet, at, _ := strings.Cut(cell, "!")
			if err := f.SetCellValue(sheet, at, v); err != nil {
				return err
			}
		}
		return nil
	})
	return plan, perReplica, gainCell
}

func slicesIndex(row []string, v string) int {
	for i, x := range row {
		if x == v {
			return i
		}
	}
	return -1
}

// termRent is, from first principles, the replicas of each year of a
// 36-month term with the tokens per second per replica growing by gain a
// year, and the rent a month over the term at rent a replica-month.
func termRent(peak, perReplica, gain, rentPerReplica float64) (years []int, perMonth float64) {
	for year := 0; year < 3; year++ {
		need := peak / (perReplica * math.Pow(1+gain, float64(year)))
		n := max(1, int(math.Ceil(need-1e-9)))
		years = append(years, n)
		perMonth += 12 * float64(n) * rentPerReplica / 36
	}
	return years, perMonth
}

// deploymentJSON is the deployment called name of eval's JSON for plan.
func gainDeploymentJSON(t *testing.T, plan string, args ...string) (rent, own float64, replicas int, figures map[string]json.RawMessage) {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run(append([]string{"eval", plan, "--format", "json", "--samples", "200"}, args...), &out, &errs); code != 0 {
		t.Fatalf("eval: %s", errs.String())
	}
	var doc struct {
		Deployments []struct {
			Name     string  `json:"name"`
			Replicas int     `json:"replicas"`
			Rent     float64 `json:"rent_per_month"`
			Own      *struct {
				PerMonth float64 `json:"cost_per_month"`
			} `json:"own"`
			Figures map[string]json.RawMessage `json:"figures"`
		} `json:"deployments"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, d := range doc.Deployments {
		if d.Name == gainDeployment {
			if d.Own != nil {
				own = d.Own.PerMonth
			}
			return d.Rent, own, d.Replicas, d.Figures
		}
	}
	t.Fatalf("no deployment %q in %s", gainDeployment, out.String())
	return 0, 0, 0, nil
}

// A deployment sized from its demand rents fewer replicas in later years
// as the tokens per second per replica grow: its replicas by year and its
// rent a month over the term are computed here year by year, while the
// month it compares, year 1's, stays what it is without a gain.
func TestThroughputGainShrinksTheReplicas(t *testing.T) {
	const gain = 0.3
	plan, perReplica, _ := gainPlan(t, gain)
	rent, _, replicas, figures := gainDeploymentJSON(t, plan)
	if want := int(math.Ceil(gainPeak / perReplica)); replicas != want {
		t.Fatalf("%d replicas in year 1, want ⌈%v ÷ %v⌉ = %d", replicas, gainPeak, perReplica, want)
	}
	years, perMonth := termRent(gainPeak, perReplica, gain, rent/float64(replicas))
	var byYear, overTerm struct {
		Value *float64 `json:"value"`
		Words string   `json:"words"`
	}
	if err := json.Unmarshal(figures["replicas_by_year"], &byYear); err != nil {
		t.Fatalf("replicas_by_year: %v in %s", err, figures)
	}
	if err := json.Unmarshal(figures["rent_per_month_over_term"], &overTerm); err != nil {
		t.Fatalf("rent_per_month_over_term: %v in %s", err, figures)
	}
	if want := strings.Trim(strings.ReplaceAll(fmt.Sprint(years), " ", ", "), "[]"); byYear.Words != want {
		t.Errorf("replicas by year %q, want %q", byYear.Words, want)
	}
	if overTerm.Value == nil || !near(*overTerm.Value, perMonth) {
		t.Errorf("rent over the term %v, want %v", overTerm.Value, perMonth)
	}
	if years[2] >= years[0] {
		t.Errorf("the replicas %v do not fall: pick a peak whose replicas do", years)
	}
	// At no gain, the figures are not there, and year 1's month is the same.
	flat, _, flatReplicas, flatFigures := gainDeploymentJSON(t, plan, "--set", "throughput_gain_per_year=0")
	if flat != rent || flatReplicas != replicas || flatFigures["replicas_by_year"] != nil || flatFigures["rent_per_month_over_term"] != nil {
		t.Errorf("at no gain: rent %v, %d replicas, figures %s; want %v, %d and none", flat, flatReplicas, flatFigures, rent, replicas)
	}
}

// A deployment whose replicas are typed, not sized from a demand, keeps
// them: it has no replicas by year.
func TestThroughputGainKeepsTypedReplicas(t *testing.T) {
	plan, _, _ := gainPlan(t, 0.3)
	_, _, _, figures := gainDeploymentJSON(t, plan)
	if figures["replicas_by_year"] == nil {
		t.Fatal("the deployment sized from its demand has no replicas by year")
	}
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--format", "json", "--samples", "200"}, &out, &errs); code != 0 {
		t.Fatalf("eval: %s", errs.String())
	}
	var doc struct {
		Deployments []struct {
			Name    string                     `json:"name"`
			Figures map[string]json.RawMessage `json:"figures"`
		} `json:"deployments"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, d := range doc.Deployments {
		if d.Name != gainDeployment && (d.Figures["replicas_by_year"] != nil || d.Figures["rent_per_month_over_term"] != nil) {
			t.Errorf("%s, whose replicas are typed, has %s", d.Name, d.Figures)
		}
	}
}

// gainCells are the replicas by year and the rent over the term of
// gainDeployment on the Deployment costs sheet of path, with its rent per
// month and replicas, found by their headers.
func gainCells(t *testing.T, path string) (byYear string, overTerm, rent, replicas float64) {
	t.Helper()
	rows := readSheet(t, path, "Deployment costs").rows
	header := rowStarting(t, rows, 0, "deployment")
	at := func(label string) int {
		i := slicesIndex(rows[header], label)
		if i < 0 {
			t.Fatalf("Deployment costs has no column %q: %v", label, rows[header])
		}
		return i
	}
	for _, r := range rows[header+1:] {
		if len(r) > 0 && r[0] == gainDeployment {
			return r[at("replicas by year")], cellNumber(t, r, at("rent per month over the term")), cellNumber(t, r, at("rent per month")), cellNumber(t, r, at("replicas"))
		}
	}
	t.Fatalf("Deployment costs has no row %q", gainDeployment)
	return "", 0, 0, 0
}

// The replicas by year and the rent over the term are live: LibreOffice,
// recalculating after the gain is edited in Assumptions, gives planner's
// values and those computed here year by year.
func TestLibreOfficeRecalculatesTheThroughputGain(t *testing.T) {
	needLibreOffice(t)
	plan, perReplica, _ := gainPlan(t, 0.3)
	dir := filepath.Dir(plan)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	gains := map[string]float64{"slow.xlsx": 0.1, "fast.xlsx": 0.8}
	edits := map[string]func(path string){}
	for name, gain := range gains {
		edits[name] = func(path string) { setInputs(t, path, map[string]float64{"throughput_gain_per_year": gain}) }
	}
	_, lo := recalculatedAsPlanner(t, dir, plan, edits)
	for name, gain := range gains {
		byYear, overTerm, rent, replicas := gainCells(t, filepath.Join(lo, name))
		years, perMonth := termRent(gainPeak, perReplica, gain, rent/replicas)
		t.Logf("%s: replicas by year %q, %v a month over the term", name, byYear, overTerm)
		if want := strings.Trim(strings.ReplaceAll(fmt.Sprint(years), " ", ", "), "[]"); byYear != want || !near(overTerm, perMonth) {
			t.Errorf("%s: LibreOffice gives replicas by year %q and %v a month over the term; computed %q and %v", name, byYear, overTerm, want, perMonth)
		}
	}
}

// docs/finance.md's throughput over the term: the default workbook with a
// gain of 30 % a year and gainDeployment sized from a peak of 9,000 tokens
// a second. Worked here year by year, as the page works it by hand, and
// against planner's run and the table the page shows.
func TestWorkedThroughputExample(t *testing.T) {
	const gain = 0.3
	plan, perReplica, _ := gainPlan(t, gain)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200"}, &out, &errs); code != 0 {
		t.Fatalf("eval: %s", errs.String())
	}
	rent, _, replicas, _ := gainDeploymentJSON(t, plan)
	hours := 12.0 * 22
	perReplicaMonth := 4 * specPrices["RunPod H100 SXM, Community"] * hours
	if !near(rent, float64(replicas)*perReplicaMonth) {
		t.Fatalf("rent %v, computed %d × %v", rent, replicas, perReplicaMonth)
	}
	years, term := termRent(gainPeak, perReplica, gain, perReplicaMonth)
	text := page(t, "docs/finance.md")
	need := gainPeak / perReplica
	quotes(t, "docs/finance.md", text,
		fmt.Sprintf("%s ÷ %s = %.2f replicas' worth, %s replicas in year 1", units.Plain(gainPeak)[:1]+","+units.Plain(gainPeak)[1:], "3,438", need, bold(strconv.Itoa(years[0]))),
		fmt.Sprintf("%.2f ÷ 1.3 = %.2f, still %s in year", need, need/1.3, bold(strconv.Itoa(years[1]))),
		fmt.Sprintf("%.2f ÷ 1.69 = %.2f, %s in year 3", need, need/1.69, bold(strconv.Itoa(years[2]))),
		fmt.Sprintf("4 × $2.69 × 264 h = %s a month", money(perReplicaMonth, 2)),
		fmt.Sprintf("3 × %s = %s", money(perReplicaMonth, 2), bold(money(rent, 2))),
		fmt.Sprintf("(12 × %d + 12 × %d + 12 × %d) ÷ 36 × %s = %s", years[0], years[1], years[2], money(perReplicaMonth, 2), bold(money(term, 2))))
	// The page's row of the deployments table is the terminal's.
	found := false
	for _, line := range strings.Split(out.String(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), gainDeployment+" ") && strings.Contains(line, "×4") {
			found = true
			quotes(t, "docs/finance.md", text, strings.Join(strings.Fields(line), " "))
		}
	}
	if !found {
		t.Errorf("eval's deployments table has no row %q:\n%s", gainDeployment, out.String())
	}
}
