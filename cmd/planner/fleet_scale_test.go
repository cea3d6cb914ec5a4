package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"planner/fleet"
)

// deploymentsPlan is a fresh workbook whose Deployments sheet holds only
// n deployments of the 70B model on H100 SXM nodes of 8, rented all month
// from RunPod Community at $2.69 a GPU-hour: the i-th named by name(i),
// of cards per replica and replicas.
func deploymentsPlan(t *testing.T, n int, name func(i int) string, cards, replicas int) string {
	t.Helper()
	_, plan := freshPlan(t)
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := f.GetRows("Deployments")
	if err != nil {
		t.Fatal(err)
	}
	for range len(rows) - 1 {
		if err := f.RemoveRow("Deployments", 2); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		row := []any{name(i), "Llama 3.1 70B", nil, "H100 SXM", cards, replicas, nil, nil, 730, "RunPod H100 SXM, Community"}
		if err := f.SetSheetRow("Deployments", fmt.Sprintf("A%d", i+2), &row); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Save(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// fleetDoc is the JSON's fleet, as far as these tests read it.
type fleetDoc struct {
	GPUs []struct {
		Nodes   int       `json:"nodes"`
		ByNodes []float64 `json:"per_month_by_owned_nodes"`
		AtNodes []struct {
			Nodes    int     `json:"nodes"`
			PerMonth float64 `json:"per_month"`
		} `json:"per_month_at_owned_nodes"`
		BestNodes    int     `json:"best_nodes"`
		BestPerMonth float64 `json:"best_per_month"`
		NotProven    string  `json:"not_proven"`
	} `json:"gpus"`
	Best struct {
		Own      []string `json:"own"`
		Rent     []string `json:"rent"`
		PerMonth float64  `json:"per_month"`
		Words    string   `json:"words"`
		AtLeast  *float64 `json:"cheapest_at_least_per_month"`
	} `json:"best"`
}

// evalFleet evaluates the workbook, writing it, and returns the JSON's
// fleet.
func evalFleet(t *testing.T, plan string) fleetDoc {
	t.Helper()
	var out, errs bytes.Buffer
	if code := run([]string{"eval", plan, "--samples", "200", "--format", "json"}, &out, &errs); code != 0 {
		t.Fatalf("eval exited %d: %s", code, errs.String())
	}
	var doc struct {
		Fleet fleetDoc `json:"fleet"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Fleet
}

// h100Node is SPEC.md §3's H100 node a month: capital over 36 months, 700
// W cards × 8 × 1.3 at $0.12/kWh for 730 h, rack $1,000.
const h100Node = 285000.0/36 + 0.7*8*1.3*730*0.12 + 1000

// fleetRows are the Fleet sheet's rows, and the tallest row's height.
func fleetRows(t *testing.T, plan string) ([][]string, float64) {
	t.Helper()
	f, err := excelize.OpenFile(plan)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Fleet")
	if err != nil {
		t.Fatal(err)
	}
	tallest := 0.0
	for r := range rows {
		h, err := f.GetRowHeight("Fleet", r+1)
		if err != nil {
			t.Fatal(err)
		}
		tallest = max(tallest, h)
	}
	return rows, tallest
}

// Forty deployments of two cards whose names run to 44 characters: the
// Fleet sheet once put all their names in one row, taller than a row can
// be. Four of them fill a node and save more than its month, so all forty
// are owned on 10 nodes; the sheet lists one name a row, the words name
// five and count the rest.
func TestFortyDeploymentsOfLongNames(t *testing.T) {
	name := func(i int) string { return fmt.Sprintf("deployment %02d of the public 70B FP8 service", i) }
	plan := deploymentsPlan(t, 40, name, 2, 1)
	fl := evalFleet(t, plan)
	rentAll := 40 * 2 * 2.69 * 730
	words := fmt.Sprintf(`own "%s", "%s", "%s", "%s", "%s" and 35 other deployments on 10 H100 SXM nodes: $%s a month, $%s less than renting everything`,
		name(0), name(1), name(2), name(3), name(4), thousands(10*h100Node), thousands(rentAll-10*h100Node))
	if len(fl.Best.Own) != 40 || math.Abs(fl.Best.PerMonth-10*h100Node) > 1e-6 || fl.Best.Words != words {
		t.Errorf("own %d at %v: %s\nwant 40 at %v: %s", len(fl.Best.Own), fl.Best.PerMonth, fl.Best.Words, 10*h100Node, words)
	}
	rows, tallest := fleetRows(t, plan)
	listed := map[string]int{}
	for _, r := range rows {
		if len(r) > 1 && r[0] == "H100 SXM" && strings.HasPrefix(r[1], "deployment ") {
			listed[r[1]]++
		}
	}
	if len(listed) != 40 || tallest > 409 {
		t.Errorf("%d names listed a row each, the tallest row %v points", len(listed), tallest)
	}
}

func thousands(v float64) string {
	s := fmt.Sprint(int64(math.Round(v)))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A thousand deployments of one card evaluate: eight fill a node and save
// more than its month, so all are owned on 125 nodes; the JSON lists them
// all, the words name five, the curve is sampled.
func TestThousandDeployments(t *testing.T) {
	plan := deploymentsPlan(t, 1000, func(i int) string { return fmt.Sprintf("replica set %d", i) }, 1, 1)
	fl := evalFleet(t, plan)
	if len(fl.Best.Own) != 1000 || math.Abs(fl.Best.PerMonth-125*h100Node) > 1e-6 || len(fl.Best.Words) > 200 ||
		len(fl.GPUs) != 1 || fl.GPUs[0].BestNodes != 125 || len(fl.GPUs[0].AtNodes) != fleet.CurvePoints {
		t.Errorf("own %d at %v: %q; %+v", len(fl.Best.Own), fl.Best.PerMonth, fl.Best.Words, fl.GPUs)
	}
}

// Replicas by the million: three deployments of 16 cards a million times
// over take 2,000,000 nodes each and one of a million cards a million
// times over 125,000,000,000; each saves more than its nodes cost, so all
// are owned. The curve of the month by the nodes owned is sampled, its
// lowest point the cheapest mix's, and the sheet and JSON hold no row or
// point per node.
func TestMillionsOfReplicas(t *testing.T) {
	for _, c := range []struct {
		n, cards, nodes int
	}{{3, 16, 3 * 2000000}, {1, 1000000, 125000000000}} {
		plan := deploymentsPlan(t, c.n, func(i int) string { return fmt.Sprintf("fleet %d", i) }, c.cards, 1000000)
		fl := evalFleet(t, plan)
		g := fl.GPUs[0]
		want := float64(c.nodes) * h100Node
		if len(fl.Best.Own) != c.n || g.BestNodes != c.nodes || g.Nodes != c.nodes || math.Abs(g.BestPerMonth-want) > 1e-9*want || len(g.AtNodes) != fleet.CurvePoints {
			t.Fatalf("%d × %d cards: own %d on %d of %d nodes at %v (%d points), want %v", c.n, c.cards, len(fl.Best.Own), g.BestNodes, g.Nodes, g.BestPerMonth, len(g.AtNodes), want)
		}
		if last := g.AtNodes[len(g.AtNodes)-1]; last.Nodes != c.nodes || last.PerMonth != g.BestPerMonth {
			t.Errorf("the curve ends at %+v, not the cheapest mix", last)
		}
		if rows, _ := fleetRows(t, plan); len(rows) > 200 {
			t.Errorf("the Fleet sheet has %d rows", len(rows))
		}
	}
}
