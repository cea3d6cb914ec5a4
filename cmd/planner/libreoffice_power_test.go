package main

import (
	"bytes"
	"math"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"
)

// catalogCell is the GPUs sheet's cell of gpu under header, found by both.
func catalogCell(t *testing.T, path, gpu, header string) string {
	t.Helper()
	rows := readSheet(t, path, "GPUs").rows
	col, row := 0, 0
	for c, h := range rows[0] {
		if h == header {
			col = c + 1
		}
	}
	for r, cells := range rows {
		if len(cells) > 0 && cells[0] == gpu {
			row = r + 1
		}
	}
	if col == 0 || row == 0 {
		t.Fatalf("GPUs has no %s of %s", header, gpu)
	}
	cell, _ := excelize.CoordinatesToCellName(col, row)
	return cell
}

// rowOf is the first row (0-based) whose column col reads label, after from.
func rowOf(t *testing.T, rows [][]string, col int, label string, from int) int {
	t.Helper()
	for r := from; r < len(rows); r++ {
		if col < len(rows[r]) && rows[r][col] == label {
			return r
		}
	}
	t.Fatalf("no row %q in column %d", label, col)
	return -1
}

func gridNumber(t *testing.T, rows [][]string, r, c int) float64 {
	t.Helper()
	if r >= len(rows) || c >= len(rows[r]) {
		t.Fatalf("no cell at row %d, column %d", r+1, c+1)
	}
	v, err := strconv.ParseFloat(rows[r][c], 64)
	if err != nil {
		t.Fatalf("row %d, column %d: %v", r+1, c+1, err)
	}
	return v
}

// The power follows an edit live. The H100 SXM given 100 idle watts in the
// GPUs sheet: LibreOffice's Results price the base scenario's power a month
// at the board watts for the utilisation's half of the hours and the idle
// watts for the rest, (7.28 × 0.5 + 1.04 × 0.5) kW × 730 h × $0.12, and the
// Fleet sheet's H100 row draws 1.04 kW a node idle and its energy is the
// nodes idle all month plus each busy card-hour's difference to the full
// draw. site_kw set to 20: the Fleet's kW short is 36.4 − 20. Results,
// Deployment costs and Cash flow agree cell by cell with a fresh planner
// eval of each edit.
func TestLibreOfficeKeepsThePowerLive(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	idleCell := catalogCell(t, plan, "H100 SXM", "idle watts")
	_, lo := recalculatedAsPlanner(t, dir, plan, map[string]func(string){
		"idle.xlsx": func(path string) { setNumber(t, path, "GPUs", idleCell, 100) },
		"site.xlsx": func(path string) { setInputs(t, path, map[string]float64{"site_kw": 20}) },
	})
	const full, idle = 8 * 700 * 1.3 / 1000, 8 * 100 * 1.3 / 1000
	results := readSheet(t, filepath.Join(lo, "idle.xlsx"), "Results").rows
	power := rowOf(t, results, 1, "power_per_month", 0)
	if got, want := gridNumber(t, results, power, 3), (full*0.5+idle*0.5)*730*0.12; math.Abs(got-want) > 1e-9*want {
		t.Errorf("LibreOffice's base power a month %v, want %v by hand", got, want)
	}
	fleet := readSheet(t, filepath.Join(lo, "idle.xlsx"), "Fleet").rows
	header := rowOf(t, fleet, 0, "power", 0)
	h100 := rowOf(t, fleet, 0, "H100 SXM", header)
	nodes, busy := gridNumber(t, fleet, h100, 2), gridNumber(t, fleet, h100, 6)
	for c, want := range map[int]float64{3: full, 4: idle, 5: nodes * full, 7: nodes*idle*730 + busy*(full-idle)/8} {
		if got := gridNumber(t, fleet, h100, c); math.Abs(got-want) > 1e-9*math.Max(1, want) {
			col, _ := excelize.ColumnNumberToName(c + 1)
			t.Errorf("LibreOffice's Fleet!%s%d is %v, want %v by hand", col, h100+1, got, want)
		}
	}
	// Results shows the fleet's totals, live from the Fleet sheet: after
	// the edit, the draw and the energy of the rows above, summed.
	total := rowOf(t, fleet, 0, "the fleet", header)
	// (The owned nodes of the default fleet serve no deployment that gives
	// its tokens: none a kWh.)
	for label, col := range map[string]int{"Owned nodes' draw, with the PUE": 5, "Energy a month": 7, "Tokens per kWh": 9} {
		r := rowOf(t, results, 0, label, 0)
		if got, want := gridNumber(t, results, r, 3), gridNumber(t, fleet, total, col); math.Abs(got-want) > 1e-9*math.Max(1, want) || !(want > 0) && col != 9 {
			t.Errorf("Results' %s is %v after LibreOffice recalculates, the Fleet sheet's total %v", label, got, want)
		}
	}
	var kwh float64
	for r := header + 1; r < total; r++ {
		kwh += gridNumber(t, fleet, r, 7)
	}
	if got := gridNumber(t, results, rowOf(t, results, 0, "Energy a month", 0), 3); math.Abs(got-kwh) > 1e-9*kwh {
		t.Errorf("Results' energy a month %v, the GPUs' kWh add up to %v", got, kwh)
	}
	site := readSheet(t, filepath.Join(lo, "site.xlsx"), "Fleet").rows
	short := rowOf(t, site, 0, "kW short of the cheapest mix without the limit", 0)
	if got := gridNumber(t, site, short, 5); math.Abs(got-(5*full-20)) > 1e-9 {
		t.Errorf("LibreOffice's kW short is %v, want 5 × %v − 20", got, full)
	}
}
