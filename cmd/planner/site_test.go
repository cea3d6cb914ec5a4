package main

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// siteFleet is what the tests read of eval's JSON fleet.
type siteFleet struct {
	Fleet struct {
		GPUs []struct {
			GPU       string    `json:"gpu"`
			Scenario  string    `json:"scenario"`
			ByNodes   []float64 `json:"per_month_by_owned_nodes"`
			BestNodes int       `json:"best_nodes"`
			BestMonth float64   `json:"best_per_month"`
		} `json:"gpus"`
		Best struct {
			Nodes    int     `json:"nodes"`
			PerMonth float64 `json:"per_month"`
		} `json:"best"`
		Power struct {
			KW      float64 `json:"kw"`
			ShortKW float64 `json:"short_kw"`
			Binds   bool    `json:"limit_binds"`
		} `json:"power"`
	} `json:"fleet"`
}

func siteEval(t *testing.T, plan string, args ...string) siteFleet {
	t.Helper()
	var doc siteFleet
	out := mustRun(t, append([]string{"eval", plan, "--format", "json", "--samples", "500"}, args...)...)
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return doc
}

// assumptionCell is the value cell of the Assumptions row named name,
// found by its label.
func assumptionCell(t *testing.T, plan, name string) string {
	t.Helper()
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows("Assumptions")
	for i, r := range rows {
		if len(r) > 0 && r[0] == name {
			return fmt.Sprintf("Assumptions!B%d", i+1)
		}
	}
	t.Fatalf("Assumptions has no row %s", name)
	return ""
}

// The README's fleet under a 20 kW site. Each owned node draws 8 × 700 W ×
// 1.3; the default fleet's cheapest mix owns 5 of them. Within 20 kW at
// most two fit, and the cheapest month of two nodes at most is, by hand,
// the least over the owned GPUs' months by nodes owned (each its curve)
// whose nodes add up to two or fewer, plus the GPUs only rented. The
// README quotes the warning eval prints at the site_kw cell.
func TestWorkedSiteLimitExample(t *testing.T) {
	_, plan := freshPlan(t)
	const nodeKW = 8 * 700 * 1.3 / 1000
	free := siteEval(t, plan)
	if free.Fleet.Best.Nodes != 5 || math.Abs(free.Fleet.Power.KW-5*nodeKW) > 1e-9 || free.Fleet.Power.Binds {
		t.Fatalf("without a limit the mix owns %d nodes, %v kW; want 5 nodes, %v kW", free.Fleet.Best.Nodes, free.Fleet.Power.KW, 5*nodeKW)
	}
	most := int(math.Floor(20 / nodeKW))
	least, rentedOnly := math.Inf(1), 0.0
	var curves [][]float64
	for _, g := range free.Fleet.GPUs {
		if g.Scenario == "" {
			rentedOnly += g.BestMonth
			continue
		}
		curves = append(curves, g.ByNodes)
	}
	if len(curves) != 2 {
		t.Fatalf("the default fleet owns %d GPUs' nodes, want 2 (H100 SXM and H200)", len(curves))
	}
	for a, ma := range curves[0] {
		for b, mb := range curves[1] {
			if a+b <= most {
				least = math.Min(least, ma+mb)
			}
		}
	}
	limited := siteEval(t, plan, "--set", "site_kw=20")
	pw := limited.Fleet.Power
	if most != 2 || limited.Fleet.Best.Nodes != 2 || math.Abs(pw.KW-2*nodeKW) > 1e-9 || !pw.Binds || math.Abs(pw.ShortKW-(5*nodeKW-20)) > 1e-9 {
		t.Errorf("within 20 kW: %d nodes, %v kW, short %v kW, binds %v; want %d nodes, %v kW, short %v kW", limited.Fleet.Best.Nodes, pw.KW, pw.ShortKW, pw.Binds, most, 2*nodeKW, 5*nodeKW-20)
	}
	if want := least + rentedOnly; math.Abs(limited.Fleet.Best.PerMonth-want) > 1e-6 {
		t.Errorf("within 20 kW the month is $%v; by hand over the curves $%v", limited.Fleet.Best.PerMonth, want)
	}
	out := mustRun(t, "eval", plan, "--set", "site_kw=20", "--samples", "500")
	out = strings.ReplaceAll(out, plan, "plan.xlsx")
	out = strings.ReplaceAll(out, filepath.Dir(plan)+"/", "")
	var warning string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, ": site_kw: ") {
			warning = l
		}
	}
	at := assumptionCell(t, plan, "site_kw")
	want := fmt.Sprintf("warning: plan.xlsx: %s: site_kw: the fleet's cheapest mix owns 5 nodes drawing 36.4 kW, 16.4 kW more than the site's 20 kW; within it the mix owns 2 nodes (14.56 kW) and rents the rest, for %s a month instead of %s: to own the cheaper mix, raise site_kw to 36.4",
		at, money(limited.Fleet.Best.PerMonth, 0), money(free.Fleet.Best.PerMonth, 0))
	if warning != want {
		t.Errorf("eval warned\n%s\nwant\n%s", warning, want)
	}
	readme := page(t, "README.md")
	quotes(t, "README.md", readme, strings.Join(strings.Fields(warning), " "), "8 × 700 W × 1.3 = 7.28 kW: 36.4 kW", "keeps two nodes (14.56 kW; a third would draw 21.84)")
	if fmt.Sprintf("%.2f", 3*nodeKW) != "21.84" || fmt.Sprintf("%.2f", nodeKW) != "7.28" {
		t.Errorf("a node draws %v kW by hand", nodeKW)
	}
}
