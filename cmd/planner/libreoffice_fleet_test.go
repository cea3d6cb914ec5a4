package main

import (
	"bytes"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// The Fleet sheet follows an edit live where a formula can say it, and
// says when planner's own figures are stale. The default workbook, its
// public 70B service (2 cards, 12 h × 22 days on Community at $2.69) at 3
// replicas instead of 1: LibreOffice's recalculation gives the H100 SXM
// row 4 more cards (44), 6 nodes (the sizes 8, 4, 2 and 1 divide each
// other and the node, so ⌈44 ÷ 8⌉), owning all at 6 nodes, and a rent of
// all $2,840.64 more, the Deployment costs' rents of its rows added; each
// live cell is what a fresh planner eval of the edit writes; and the flag
// says stale. Unedited, the flag says up to date. The close calls' flag on
// Results turns stale with the capex edited, not with the deployments.
func TestLibreOfficeKeepsTheFleetLive(t *testing.T) {
	needLibreOffice(t)
	dir, plan := freshPlan(t)
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "1000"}, &out, &errs); code != 0 {
		t.Fatal(errs.String())
	}
	before := readSheet(t, plan, "Fleet").rows
	fresh, lo := recalculatedAsPlanner(t, dir, plan, map[string]func(string){
		"replicas.xlsx": func(path string) { setNumber(t, path, "Deployments", "F3", 3) },
		"capex.xlsx":    func(path string) { setInputs(t, path, map[string]float64{"capex": 300000}) },
	}, plan)
	// The close calls' flag on Results: Monte Carlo reads the capex, not
	// the deployments.
	for file, want := range map[string]string{"plan.xlsx": "up to date: the inputs are as planner eval read them",
		"replicas.xlsx": "up to date: the inputs are as planner eval read them", "capex.xlsx": "inputs changed since planner eval: run it again"} {
		if got := closeCallFlag(t, filepath.Join(lo, file)); got != want {
			t.Errorf("%s: the close calls' flag says %q, want %q", file, got, want)
		}
	}
	if s := readSheet(t, filepath.Join(lo, "capex.xlsx"), "Fleet").rows[2][0]; s != "inputs changed since planner eval: run it again" {
		t.Errorf("the capex edited, the Fleet's flag says %q", s)
	}
	got := readSheet(t, filepath.Join(lo, "replicas.xlsx"), "Fleet").rows
	want := readSheet(t, fresh["replicas.xlsx"], "Fleet").rows
	if s := got[2][0]; s != "inputs changed since planner eval: run it again" {
		t.Errorf("edited, the flag says %q", s)
	}
	if s := readSheet(t, filepath.Join(lo, "plan.xlsx"), "Fleet").rows[2][0]; s != "up to date: the inputs are as planner eval read them" {
		t.Errorf("unedited, the flag says %q", s)
	}
	num := func(rows [][]string, cell string) float64 {
		c, r, _ := excelize.CellNameToCoordinates(cell)
		if r-1 >= len(rows) || c-1 >= len(rows[r-1]) {
			return math.NaN()
		}
		v, err := strconv.ParseFloat(rows[r-1][c-1], 64)
		if err != nil {
			return math.NaN()
		}
		return v
	}
	node := num(before, "D5")
	rentDelta := 2 * (2 * 12 * 22 * 2.69)
	costs := readSheet(t, filepath.Join(lo, "replicas.xlsx"), "Deployment costs").rows
	h100Rents := 0.0
	for r, row := range costs {
		if r >= 4 && len(row) > 9 && row[2] == "H100 SXM" {
			h100Rents += num(costs, "J"+strconv.Itoa(r+1))
		}
	}
	for cell, v := range map[string]float64{
		"E5": 44, "F5": 6, "H5": 6 * node, "I5": num(before, "I5") + rentDelta,
		"I8": num(before, "I8") + rentDelta, "H8": 6*node + num(before, "H6") + num(before, "I7"),
	} {
		if g := num(got, cell); math.Abs(g-v) > 1e-6*math.Max(1, v) {
			t.Errorf("LibreOffice's Fleet!%s is %v, want %v", cell, g, v)
		}
	}
	if g := num(got, "I5"); math.Abs(g-h100Rents) > 1e-6 {
		t.Errorf("Fleet!I5 is %v, the H100 SXM rents of Deployment costs add up to %v", g, h100Rents)
	}
	f, err := excelize.OpenFile(filepath.Join(lo, "replicas.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	live := 0
	for r := 5; r <= 8; r++ {
		for c := 3; c <= 9; c++ {
			cell, _ := excelize.CoordinatesToCellName(c, r)
			if formula, _ := f.GetCellFormula("Fleet", cell); formula == "" {
				continue
			}
			live++
			if g, w := num(got, cell), num(want, cell); math.Abs(g-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("Fleet!%s: LibreOffice %v, a fresh planner eval %v", cell, g, w)
			}
		}
	}
	if live < 15 {
		t.Errorf("only %d live cells in the Fleet table", live)
	}
}

// closeCallFlag is the line under the close calls' title on Results.
func closeCallFlag(t *testing.T, path string) string {
	t.Helper()
	rows := readSheet(t, path, "Results").rows
	for r, row := range rows {
		if len(row) > 0 && strings.HasPrefix(row[0], "Close calls") && r+1 < len(rows) && len(rows[r+1]) > 0 {
			return rows[r+1][0]
		}
	}
	t.Fatalf("%s: no close calls on Results", path)
	return ""
}
