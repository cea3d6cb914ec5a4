package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"testing"
)

// termWalk is owning against renting month by month along the paths, in
// today's money at the monthly cost of capital, without tax: each month m
// the rent of a used GPU-hour and the electricity are (1 + change) to the
// years since month 1, the rack stays.
type termWalk struct {
	rent, power, rate float64 // yearly changes; the cost of capital a year
}

// sums are, over the article's 36 months, what a flat dollar a month, a
// dollar of this month's rent and one of this month's power are worth
// today.
func (w termWalk) sums() (flat, rent, power float64) {
	n := articleNode()
	for m := 1; m <= int(n["amortization_months"]); m++ {
		d := math.Pow(1+w.rate/12, -float64(m))
		year := float64((m - 1) / 12)
		flat += d
		rent += d * math.Pow(1+w.rent, year)
		power += d * math.Pow(1+w.power, year)
	}
	return flat, rent, power
}

// owning is what owning costs over the term in today's money: the price and
// the running cost month by month.
func (w termWalk) owning() float64 {
	n := articleNode()
	n["cost_of_capital"] = w.rate
	l := n.lines()
	flat, _, power := w.sums()
	return n["capex"] + l["power_per_month"]*power + n["rack_per_month"]*flat
}

// breakeven is the utilisation at which owning's NPV against price is
// zero: the rent of the used hours over the term covers owning's cost.
func (w termWalk) breakeven(price float64) float64 {
	n := articleNode()
	_, rent, _ := w.sums()
	return w.owning() / (n["gpus"] * n["hours_per_month"] * price * rent)
}

// The Breakeven sheet's curves cross each offer's line where Results'
// break-even is, with and without a path: each crossing, each curve point
// (owning's cost over the term per used GPU-hour, spread over the
// annuity's months) and each offer's line (its price over the term) are
// computed here month by month.
func TestBreakevenCurvesFollowThePaths(t *testing.T) {
	slow(t, "evaluates the default workbook four times")
	prices := map[string]float64{"RunPod H100 SXM, Community": 2.69, "RunPod H100 SXM, Secure": 3.29, "Lambda H100, 8-GPU plan": 3.99,
		"AWS p5.48xlarge Capacity Block, US East (N. Virginia)": 5.97}
	for _, w := range []termWalk{{}, {rent: -0.3}, {rent: -0.3, power: 0.2, rate: 0.06}, {power: 0.1}} {
		t.Run(fmt.Sprintf("rent %g, power %g, capital %g", w.rent, w.power, w.rate), func(t *testing.T) {
			_, plan := freshPlan(t)
			book := filepath.Join(t.TempDir(), "paths.xlsx")
			var out, errs bytes.Buffer
			if code := run([]string{"eval", plan, "--samples", "200", "--format", "json", "-o", book,
				"--set", fmt.Sprintf("rent_price_change_per_year=%g", w.rent), "--set", fmt.Sprintf("electricity_price_change_per_year=%g", w.power),
				"--set", fmt.Sprintf("cost_of_capital=%g", w.rate)}, &out, &errs); code != 0 {
				t.Fatalf("eval: %s", errs.String())
			}
			var doc struct {
				Scenarios []struct {
					Offers []struct {
						Provider  string   `json:"provider"`
						Offer     string   `json:"offer"`
						Breakeven *float64 `json:"breakeven_utilization"`
					} `json:"offers"`
				} `json:"scenarios"`
			}
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			results := map[string]float64{}
			for _, o := range doc.Scenarios[0].Offers {
				if o.Breakeven != nil {
					results[o.Provider+" "+o.Offer] = *o.Breakeven
				}
			}
			rows := readSheet(t, book, "Breakeven").rows
			top := rowStarting(t, rows, 0, "utilization")
			n := articleNode()
			flat, rent, _ := w.sums()
			for offer, price := range prices {
				want := w.breakeven(price)
				if got, ok := results[offer]; !ok || math.Abs(got-want) > 1e-9 {
					t.Errorf("%s: Results' break-even is %v, computed %v", offer, got, want)
				}
				cross := -1
				for i := 0; i < top; i++ {
					if len(rows[i]) > 3 && rows[i][0] == "base" && rows[i][1] == offer {
						cross = i
					}
				}
				if cross < 0 {
					t.Fatalf("no crossing of base with %s", offer)
				}
				if got := cellNumber(t, rows[cross], 3); math.Abs(got-want) > 1e-9 {
					t.Errorf("%s: the crossing is at %v, computed %v", offer, got, want)
				}
				col := slices.Index(rows[top], offer)
				if col < 0 {
					t.Fatalf("the curves' table has no line of %s: %v", offer, rows[top])
				}
				line := price * rent / flat
				for i := 1; i <= 100; i++ {
					u := float64(i) / 100
					cost := w.owning() / (n["gpus"] * n["hours_per_month"] * flat * u)
					r := rows[top+i]
					if !near(cellNumber(t, r, 1), cost) || !near(cellNumber(t, r, col), line) {
						t.Errorf("%d %%: curve %v, line %v; computed %v, %v", i, r[1], r[col], cost, line)
					}
					if above := cost > line; above != (u < want) {
						t.Errorf("%d %%: the curve %v is on the wrong side of %s's line %v, which it crosses at %v", i, cost, offer, line, want)
					}
				}
			}
		})
	}
}
