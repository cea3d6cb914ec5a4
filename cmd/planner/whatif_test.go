package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// owned is the article's cost of one owned H100 per calendar hour with
// some of its inputs changed, worked out by hand (see node.lines).
func owned(in map[string]float64) float64 {
	n := articleNode()
	for name, v := range in {
		n[name] = v
	}
	return n.lines()["cost_per_gpu_hour"]
}

// defaults are the default workbook's values, as SPEC.md gives them.
func defaults() map[string]float64 {
	return map[string]float64{"capex": 285000, "residual": 0, "pue": 1.3, "electricity_price": 0.12, "rack_per_month": 1000, "utilization": 0.5,
		"cost_of_capital": 0, "maintenance_per_year": 0, "staff_per_month": 0, "network_per_month": 0}
}

func with(name string, v float64) map[string]float64 {
	in := defaults()
	in[name] = v
	return in
}

// rowStarting is the index of the first row whose first cell starts with
// prefix, at or after from.
func rowStarting(t *testing.T, rows [][]string, from int, prefix string) int {
	t.Helper()
	for i := from; i < len(rows); i++ {
		if len(rows[i]) > 0 && strings.HasPrefix(rows[i][0], prefix) {
			return i
		}
	}
	t.Fatalf("no row starts with %q", prefix)
	return 0
}

func near(got, want float64) bool { return math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)) }

// The tornado's bars, read back from the Sensitivity sheet, equal the cost
// computed here with each input at its low and its high.
func TestSensitivitySheet(t *testing.T) {
	path := evalWorkbook(t)
	rows := readSheet(t, path, "Sensitivity").rows
	// The inputs the defaults leave at 0 (residual, cost of capital,
	// maintenance, staff, network) have no range: they do not swing.
	ranges := map[string][2]float64{"capex": {250000, 320000}, "pue": {1.2, 1.4},
		"electricity_price": {0.08, 0.2}, "rack_per_month": {750, 1500}, "utilization": {0.25, 0.9}, "kv_headroom": {0.25, 0.55}}
	section := rowStarting(t, rows, 0, "cost_per_gpu_hour: $1.64 at base")
	var order []string
	lastSwing := math.Inf(1)
	for _, r := range rows[section+2 : section+2+len(ranges)] {
		name := r[0]
		order = append(order, name)
		rg, ok := ranges[name]
		if !ok {
			t.Fatalf("unexpected input %s", name)
		}
		low, high := owned(with(name, rg[0])), owned(with(name, rg[1]))
		if name == "utilization" || name == "kv_headroom" {
			low, high = owned(defaults()), owned(defaults())
		}
		atLow, atHigh, swing := cellNumber(t, r, 4), cellNumber(t, r, 5), cellNumber(t, r, 6)
		if !near(atLow, low) || !near(atHigh, high) || !near(swing, math.Abs(high-low)) {
			t.Errorf("%s: %v..%v swing %v; computed %v..%v", name, atLow, atHigh, swing, low, high)
		}
		if d := cellNumber(t, r, 7); !near(d, low-owned(defaults())) {
			t.Errorf("%s: change at low %v, computed %v", name, d, low-owned(defaults()))
		}
		if swing > lastSwing {
			t.Errorf("%s: swing %v after a smaller one", name, swing)
		}
		lastSwing = swing
	}
	// Capex swings the cost by $70,000 ÷ 8 ÷ 26,280 h = $0.33, rack by
	// $750 ÷ 8 ÷ 730 h = $0.13, electricity by 12 cents × 7.28 kW ÷ 8 = $0.11.
	if got := strings.Join(order[:3], " "); got != "capex rack_per_month electricity_price" {
		t.Errorf("widest swings %s", got)
	}
	// The break-even against RunPod Community moves as the cost over $2.69.
	section = rowStarting(t, rows, 0, "breakeven_utilization vs RunPod H100 SXM, Community: 60.8 % at base")
	r := rows[section+2]
	if r[0] != "capex" || !near(cellNumber(t, r, 5), owned(with("capex", 320000))/2.69) {
		t.Errorf("break-even row %v, computed %v at a capex of $320,000", r, owned(with("capex", 320000))/2.69)
	}
}

// The data tables' cells equal the cost computed here at each point.
func TestDataTablesSheet(t *testing.T) {
	path := evalWorkbook(t)
	rows := readSheet(t, path, "Data tables").rows
	top := rowStarting(t, rows, 0, "utilization \\ capex")
	for i := 1; i <= 10; i++ {
		r := rows[top+i]
		u := cellNumber(t, r, 0)
		if !near(u, float64(i)/10) {
			t.Fatalf("row %d: utilisation %v", i, u)
		}
		for j := 1; j <= 8; j++ {
			capex := cellNumber(t, rows[top], j)
			if want := owned(with("capex", capex)) / u; !near(cellNumber(t, r, j), want) {
				t.Errorf("u=%v capex=%v: %v, computed %v", u, capex, r[j], want)
			}
		}
	}
	if got := strings.Join(rows[top][1:], " "); got != "250000 260000 270000 280000 290000 300000 310000 320000" {
		t.Errorf("capex steps %s", got)
	}
	byOffer := rowStarting(t, rows, top, "utilization \\ offer")
	prices := map[string]float64{"RunPod H100 SXM, Community": 2.69, "RunPod H100 SXM, Secure": 3.29, "Lambda H100, 8-GPU plan": 3.99,
		"AWS p5.48xlarge Capacity Block, US East (N. Virginia)": 5.97}
	if len(rows[byOffer]) != 5 {
		t.Fatalf("offers %v", rows[byOffer])
	}
	for i := 1; i <= 10; i++ {
		r := rows[byOffer+i]
		for j, label := range rows[byOffer][1:] {
			if want := owned(defaults())/cellNumber(t, r, 0) - prices[label]; !near(cellNumber(t, r, j+1), want) {
				t.Errorf("%s at %s: %v, computed %v", label, r[0], r[j+1], want)
			}
		}
	}
	// Buy green, rent red: the cells below the threshold are green.
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	formats, err := f.GetConditionalFormats("Data tables")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		fmt.Sprintf("B%d:I%d", top+2, top+11):         "less than 2.69 green, greater than 2.69 red",
		fmt.Sprintf("B%d:E%d", byOffer+2, byOffer+11): "less than 0 green, greater than 0 red",
	}
	for ref, rule := range want {
		var got []string
		for _, c := range formats[ref] {
			style, err := f.GetConditionalStyle(*c.Format)
			if err != nil {
				t.Fatal(err)
			}
			fill := style.Fill.Color[0]
			colour := map[string]string{"C6EFCE": "green", "FFC7CE": "red"}[fill[len(fill)-6:]]
			got = append(got, c.Criteria+" "+c.Value+" "+colour)
		}
		if strings.Join(got, ", ") != rule {
			t.Errorf("%s: %q, want %q", ref, strings.Join(got, ", "), rule)
		}
	}
}

// Goal seek lands on the article's break-even, and on the answers solved
// here by hand.
func TestGoalSeekSheet(t *testing.T) {
	path := evalWorkbook(t)
	rows := readSheet(t, path, "Goal seek").rows
	answer := func(prefix string) float64 {
		return cellNumber(t, rows[rowStarting(t, rows, 0, prefix)], 6)
	}
	base := defaults()
	power := 700 * 8 * base["pue"] / 1000 * base["electricity_price"] / 8
	rack := base["rack_per_month"] / 8 / 730
	u := answer("utilisation at which owning matches RunPod Community")
	if !near(u, owned(base)/2.69) || math.Round(u*100) != 61 {
		t.Errorf("break-even utilisation %v, computed %v (the article's 61 %%)", u, owned(base)/2.69)
	}
	capex := answer("highest capex that breaks even at 40 %")
	if want := (2.69*0.4 - power - rack) * 8 * 36 * 730; !near(capex, want) {
		t.Errorf("capex %v, computed %v", capex, want)
	}
	residual := answer("residual at which owning beats Lambda at 35 %")
	if want := 1 - (0.35*3.99-power-rack)*8*36*730/285000; !near(residual, want) {
		t.Errorf("residual %v, computed %v", residual, want)
	}
}

// The break-even curve is the cost over each utilisation, and its
// crossings are the break-evens.
func TestBreakevenSheet(t *testing.T) {
	path := evalWorkbook(t)
	rows := readSheet(t, path, "Breakeven").rows
	cross := rows[rowStarting(t, rows, 0, "base")]
	if cross[1] != "RunPod H100 SXM, Community" || !near(cellNumber(t, cross, 3), owned(defaults())/2.69) {
		t.Errorf("crossing %v, computed %v", cross, owned(defaults())/2.69)
	}
	top := rowStarting(t, rows, 0, "utilization")
	if rows[top][1] != "base" {
		t.Fatalf("curve header %v", rows[top])
	}
	for i := 1; i <= 100; i++ {
		r := rows[top+i]
		if want := owned(defaults()) / (float64(i) / 100); !near(cellNumber(t, r, 1), want) {
			t.Errorf("%d %%: %v, computed %v", i, r[1], want)
		}
	}
}

// Every chart points at the rows of its own table, and changing what the
// tornado follows takes the old charts away.
func TestChartsPointAtTheirTables(t *testing.T) {
	path := evalWorkbook(t)
	charts, err := chartsOf(path)
	if err != nil {
		t.Fatal(err)
	}
	var summary []string
	for _, c := range charts {
		summary = append(summary, c.sheet+" "+c.kind+" "+strconv.Itoa(len(c.refs)))
	}
	want := "Fleet scatterChart 6, Cash flow scatterChart 15, MonteCarlo barChart 3, " + strings.Repeat("Sensitivity barChart 6, ", 14) + "Breakeven scatterChart 45"
	if got := strings.Join(summary, ", "); got != want {
		t.Fatalf("charts %s\nwant %s", got, want)
	}
	sens := readSheet(t, path, "Sensitivity").rows
	// The default inputs with a range: kv_headroom, capex, pue,
	// electricity_price, rack_per_month and utilization.
	const ranged = 6
	for i, c := range charts[3:17] {
		header := rowStarting(t, sens, 0, "input")
		for k := 0; k < i; k++ {
			header = rowStarting(t, sens, header+1, "input")
		}
		n := header + 1 // 1-based row of the header
		want := fmt.Sprintf("Sensitivity!$H$%d Sensitivity!$A$%d:$A$%d Sensitivity!$H$%d:$H$%d Sensitivity!$I$%d Sensitivity!$A$%d:$A$%d Sensitivity!$I$%d:$I$%d",
			n, n+1, n+ranged, n+1, n+ranged, n, n+1, n+ranged, n+1, n+ranged)
		if got := strings.Join(c.refs, " "); got != want {
			t.Errorf("tornado %d: %s\nwant %s", i+1, got, want)
		}
		if sens[header][7] != "change at low" || sens[header+ranged][0] == "" || len(sens) > header+ranged+1 && len(sens[header+ranged+1]) > 0 && sens[header+ranged+1][0] != "" {
			t.Errorf("tornado %d does not cover its table's %d inputs", i+1, ranged)
		}
	}
	curve := charts[17]
	be := readSheet(t, path, "Breakeven").rows
	header := rowStarting(t, be, 0, "utilization") + 1
	if got := curve.refs[:3]; strings.Join(got, " ") != fmt.Sprintf("Breakeven!$B$%d Breakeven!$A$%d:$A$%d Breakeven!$B$%d:$B$%d", header, header+1, header+100, header+1, header+100) {
		t.Errorf("curve series %v", got)
	}
	// One target: one tornado, and the old charts are gone.
	dir := strings.TrimSuffix(path, "plan.xlsx")
	var out, errs strings.Builder
	if code := run([]string{"eval", path, "--target", "cost_per_gpu_hour", "-o", dir + "one.xlsx"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	charts, err = chartsOf(dir + "one.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	summary = nil
	for _, c := range charts {
		summary = append(summary, c.sheet+" "+c.part)
	}
	if got := strings.Join(summary, ", "); got != "Fleet xl/charts/chart1.xml, Cash flow xl/charts/chart2.xml, MonteCarlo xl/charts/chart3.xml, Sensitivity xl/charts/chart4.xml, Breakeven xl/charts/chart5.xml" {
		t.Errorf("charts after --target: %s", got)
	}
	if n := countParts(t, dir+"one.xlsx", "xl/charts/"); n != 5 {
		t.Errorf("%d chart parts, want 5", n)
	}
}
