package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/xuri/excelize/v2"
)

// diffJSON is what a program reads of planner diff --format json.
type diffJSON struct {
	Decisions []struct {
		Scenario, Offer, Deployment string
		Fleet                       bool
		Old, New                    string
		OldPerMonth                 *float64 `json:"old_per_month"`
		PerMonth                    *float64 `json:"per_month"`
		Change                      *float64
		Words                       string
	}
	Results []struct {
		Scenario, Offer, Deployment, Name, Unit string
		Fleet                                   string
		Headline                                bool
		Old, New                                *float64
		Change, Points, Relative                *float64
	}
}

// diffPlans writes the default workbook and a copy edited by edit, and
// returns planner diff --format json of the two, which must exit 1.
func diffPlans(t *testing.T, edit func(f *excelize.File) error) diffJSON {
	t.Helper()
	dir := t.TempDir()
	old, edited := filepath.Join(dir, "old.xlsx"), filepath.Join(dir, "new.xlsx")
	var out, errs bytes.Buffer
	if code := run([]string{"init", old}, &out, &errs); code != 0 {
		t.Fatalf("init: %s", errs.String())
	}
	data, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(edited, data, 0o644); err != nil {
		t.Fatal(err)
	}
	editBook(t, edited, edit)
	out.Reset()
	if code := run([]string{"diff", old, edited, "--format", "json"}, &out, &errs); code != 1 {
		t.Fatalf("diff exits %d: %s", code, errs.String())
	}
	var doc diffJSON
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return doc
}

// nodeMonth is what owning the default 8×H100 node costs a month by SPEC:
// capex over 36 months of 730 hours, 7.28 kW at $0.12/kWh, a $1,000 rack.
func nodeMonth(capex float64) float64 { return capex/36 + 7.28*730*0.12 + 1000 }

func closeTo(got *float64, want float64) bool {
	return got != nil && math.Abs(*got-want) <= 1e-9*math.Max(1, math.Abs(want))
}

// The JSON leads with the decisions: capex to $300,000 and utilisation to
// 48 % turn the base against RunPod Secure ($3.29) from buy to rent, and
// the money a month is SPEC's: the used hours rented less the node owned.
func TestDiffJSONDecisionFlipped(t *testing.T) {
	doc := diffPlans(t, func(f *excelize.File) error {
		if err := f.SetCellFloat("Assumptions", "B6", 300000, -1, 64); err != nil {
			return err
		}
		return f.SetCellFloat("Assumptions", "B14", 0.48, -1, 64)
	})
	if len(doc.Decisions) != 3 {
		t.Fatalf("%d decisions: %+v", len(doc.Decisions), doc.Decisions)
	}
	d := doc.Decisions[0]
	was, now := 3.29*8*730*0.5-nodeMonth(285000), 3.29*8*730*0.48-nodeMonth(300000)
	if d.Scenario != "base" || d.Offer != "RunPod H100 SXM, Secure" || d.Deployment != "" || d.Old != "buy" || d.New != "rent" ||
		!closeTo(d.OldPerMonth, was) || !closeTo(d.PerMonth, now) || !closeTo(d.Change, now-was) {
		t.Errorf("first decision %+v (%v → %v), want base vs RunPod Secure buy → rent, %v → %v a month", d, *d.OldPerMonth, *d.PerMonth, was, now)
	}
	breakeven := (300000/8/(36*730.0) + 7.28*0.12/8 + 1000/8/730.0) / 3.29
	if want := "rent: busy 48.0 % of the month, break-even against RunPod H100 SXM, Secure is 51.9 %"; d.Words != want || math.Round(breakeven*1000) != 519 {
		t.Errorf("words %q, want %q (break-even %v)", d.Words, want, breakeven)
	}
	// The results: the headline figures first, flagged.
	headline := map[string]bool{"cost_per_gpu_hour": true, "cost_per_used_hour": true, "breakeven_utilization": true}
	seenRest := false
	for _, r := range doc.Results {
		if r.Headline != headline[r.Name] || (r.Headline && seenRest) {
			t.Fatalf("%s %s %s: headline %v out of place", r.Scenario, r.Offer, r.Name, r.Headline)
		}
		seenRest = seenRest || !r.Headline
	}
	if r := doc.Results[0]; r.Scenario != "base" || r.Name != "cost_per_gpu_hour" || !closeTo(r.New, nodeMonth(300000)/(8*730)) {
		t.Errorf("first result %+v", r)
	}
}

// A deployment added is a decision, and its costs are results: four H100s
// for 10 hours on 22 days rent at 4 × $2.69 × 220 h a month. The fleet's
// cheapest mix rents it too, a second decision.
func TestDiffJSONDeploymentAdded(t *testing.T) {
	row := []any{"70B BF16 on 4×H100", "Llama 3.1 70B", "BF16", "H100 SXM", 4, 1, 10, 22, nil, "RunPod H100 SXM, Community"}
	doc := diffPlans(t, func(f *excelize.File) error { return f.SetSheetRow("Deployments", "A13", &row) })
	rent := 4 * 2.69 * 10 * 22
	if len(doc.Decisions) != 2 || !doc.Decisions[1].Fleet || doc.Decisions[1].Deployment != "70B BF16 on 4×H100" || doc.Decisions[1].New != "rent" {
		t.Fatalf("decisions %+v", doc.Decisions)
	}
	if d := doc.Decisions[0]; d.Deployment != "70B BF16 on 4×H100" || d.Scenario != "" || d.Old != "" || d.New != "rent" ||
		d.OldPerMonth != nil || !closeTo(d.PerMonth, rent-nodeMonth(285000)) || d.Change != nil {
		t.Errorf("decision %+v, want a new deployment to rent, owning saving %v a month", d, rent-nodeMonth(285000))
	}
	got := map[string]*float64{}
	fleet := map[string]*float64{}
	for _, r := range doc.Results {
		if r.Fleet == "H100 SXM (base)" {
			fleet[r.Name] = r.New
			continue
		}
		if r.Fleet != "" {
			continue // the whole fleet's months
		}
		if r.Deployment != "70B BF16 on 4×H100" || r.Old != nil {
			t.Errorf("result %+v", r)
		}
		got[r.Name] = r.New
	}
	if !closeTo(got["rent_per_month"], rent) || !closeTo(got["own_per_month"], nodeMonth(285000)) || len(got) != 6 {
		t.Errorf("results %v, want rent %v and own %v a month", got, rent, nodeMonth(285000))
	}
	// The default H100 fleet's 40 cards filled 5 nodes; four more take a
	// sixth, since the 2, 4, 1 and 1 card replicas fill one node already.
	if c, n := fleet["cards"], fleet["nodes"]; c == nil || *c != 44 || n == nil || *n != 6 {
		t.Errorf("fleet %v, want 44 cards on 6 nodes", fleet)
	}
}

// The JSON gives a share's change in points beside its change as a
// fraction, and no relative change for a value that crosses zero: owning
// against RunPod Secure saves $52.41 a month, then loses $748.53.
func TestDiffJSONInItsUnits(t *testing.T) {
	doc := diffPlans(t, func(f *excelize.File) error {
		if err := f.SetCellFloat("Assumptions", "B6", 300000, -1, 64); err != nil {
			return err
		}
		return f.SetCellFloat("Assumptions", "B14", 0.48, -1, 64)
	})
	seen := 0
	for _, r := range doc.Results {
		if r.Scenario != "base" || r.Offer != "RunPod H100 SXM, Secure" {
			continue
		}
		switch r.Name {
		case "breakeven_utilization":
			was, now := nodeMonth(285000)/(8*730)/3.29, nodeMonth(300000)/(8*730)/3.29
			if !closeTo(r.Change, now-was) || !closeTo(r.Points, (now-was)*100) || !closeTo(r.Relative, now/was-1) {
				t.Errorf("break-even %+v, want change %v, %v points, relative %v", r, now-was, (now-was)*100, now/was-1)
			}
			seen++
		case "own_saving_per_month":
			was, now := 3.29*8*730*0.5-nodeMonth(285000), 3.29*8*730*0.48-nodeMonth(300000)
			if !closeTo(r.Change, now-was) || r.Points != nil || r.Relative != nil {
				t.Errorf("saving %+v, want change %v and neither points nor a relative change", r, now-was)
			}
			seen++
		}
	}
	if seen != 2 {
		t.Errorf("%d of the two results found", seen)
	}
}
