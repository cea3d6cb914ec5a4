package review

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"planner/domain"
	"planner/wording"
	"planner/workbooks"
)

// The default plan's owning side by SPEC's cost model, computed here and
// not by planner: an 8-GPU node of 700 W cards at PUE 1.3, $0.12/kWh, a
// $1,000 rack, written off over 36 months of 730 hours, no residual.
func nodePerMonth(capex float64) float64 {
	const gpus, hours = 8.0, 730.0
	capital := capex / gpus / (36 * hours)
	power := gpus * 700 * 1.3 / 1000 * hours * 0.12 / gpus / hours
	rack := 1000 / gpus / hours
	return (capital + power + rack) * gpus * hours
}

// ownSaving is own_saving_per_month by SPEC: what renting the node's used
// hours would cost, less what owning it costs.
func ownSaving(capex, price, utilization float64) float64 {
	return price*8*730*utilization - nodePerMonth(capex)
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

func money(v *float64) string {
	if v == nil {
		return "nil"
	}
	return fmt.Sprintf("%.6f", *v)
}

// Capex up to $300,000 and utilisation down to 48 % flips the base and
// H100 mid (whose capex is the Assumptions' own) against RunPod Secure,
// and the H200 node against RunPod H200, from buy to rent, and nothing
// else; the diff leads with them, most money a month first, and says what
// owning saves a month on either side.
func TestFlippedVerdictLeads(t *testing.T) {
	old := workbooks.DefaultModel()
	edited := workbooks.DefaultModel()
	set(&edited, "capex", 300000)
	set(&edited, "utilization", 0.48)
	for _, sc := range edited.Scenarios {
		if sc.Links["capex"] == "Assumptions!B6" { // H100 mid takes the Assumptions' capex, as a workbook reads it
			sc.Set["capex"] = domain.Num(300000)
		}
	}
	d := Compare(side(t, "old", old), side(t, "new", edited), Tolerance{})

	type want struct {
		scenario, offer string
		old, new        float64 // own saving a month
	}
	secure := want{"base", "RunPod H100 SXM, Secure", ownSaving(285000, 3.29, 0.5), ownSaving(300000, 3.29, 0.48)}
	mid := secure
	mid.scenario = "H100 mid"
	// The H200 node: $315,000, the same 700 W class, rented at $3.59.
	h200 := want{"H200 node", "RunPod H200", ownSaving(315000, 3.59, 0.5), ownSaving(315000, 3.59, 0.48)}
	wants := []want{secure, mid, h200}
	if len(d.Decisions) != len(wants) {
		t.Fatalf("%d decisions changed, want %d: %+v", len(d.Decisions), len(wants), d.Decisions)
	}
	for i, w := range wants {
		got := d.Decisions[i]
		if got.Scenario != w.scenario || got.Offer != w.offer || got.Deployment != "" || got.Old != wording.Buy || got.New != wording.Rent || got.Only != "" {
			t.Errorf("decision %d: %s %s %q → %q (only %q), want %s vs %s buy → rent", i, got.Scenario, got.Offer, got.Old, got.New, got.Only, w.scenario, w.offer)
		}
		if got.OldSaving == nil || got.NewSaving == nil || !near(*got.OldSaving, w.old) || !near(*got.NewSaving, w.new) {
			t.Errorf("decision %d: owning saves %s → %s a month, want %.6f → %.6f", i, money(got.OldSaving), money(got.NewSaving), w.old, w.new)
		}
		if c, ok := got.Change(); !ok || !near(c, w.new-w.old) {
			t.Errorf("decision %d: change %v, want %v", i, c, w.new-w.old)
		}
	}
	// By hand: $52.41 saved becomes $748.53 lost, against Secure.
	if math.Round(secure.old*100) != 5241 || math.Round(secure.new*100) != -74853 {
		t.Errorf("the SPEC model gives %.2f → %.2f", secure.old, secure.new)
	}
	rows := d.Report().Decisions.Rows
	if want := []string{"base vs RunPod H100 SXM, Secure", "buy", "rent", "$52.41 → -$748.53", "-$800.94"}; !slices.Equal(rows[0], want) {
		t.Errorf("first row %q, want %q", rows[0], want)
	}

	// The headline figures come next, and only they: cost per GPU-hour,
	// per used hour and break-evens.
	rest := 0
	for i, r := range d.Results {
		isHeadline := r.Name == domain.CostPerGPUHour || r.Name == domain.CostPerUsedHour || r.Name == domain.Breakeven
		if r.Headline != isHeadline {
			t.Errorf("%s: headline %v", r.Key(), r.Headline)
		}
		if r.Headline && rest > 0 {
			t.Errorf("%s: a headline figure after %d others", r.Key(), rest)
		}
		if !r.Headline {
			rest++
			if i > 0 && !d.Results[i-1].Headline && r.Stake > d.Results[i-1].Stake {
				t.Errorf("%s (%v a month) after %s (%v): not most money first", r.Key(), r.Stake, d.Results[i-1].Key(), d.Results[i-1].Stake)
			}
		}
	}
	if d.Results[0].Key() != `"base" cost_per_gpu_hour` {
		t.Errorf("the headline starts with %s", d.Results[0].Key())
	}
	// The rest starts where the most money a month moved: the base's saving
	// against AWS ($5.97), by the node's rise and the used hours' fall.
	first := d.Results[len(d.Results)-rest]
	aws := ownSaving(300000, 5.97, 0.48) - ownSaving(285000, 5.97, 0.5)
	if first.Key() != `"base" "AWS p5.48xlarge Capacity Block, US East (N. Virginia)" own_saving_per_month` || !near(first.Abs, aws) || !near(first.Stake, math.Abs(aws)) {
		t.Errorf("the rest starts with %s (%v, stake %v), want the base's saving against AWS (%v)", first.Key(), first.Abs, first.Stake, aws)
	}
}

// A deployment added is a decision and results: its rent a month, what
// owning a node for it would cost, and the verdict between them; removed,
// the same on the other side.
func TestAddedDeploymentIsAChange(t *testing.T) {
	old := workbooks.DefaultModel()
	added := workbooks.DefaultModel()
	added.Deployments = append(added.Deployments, domain.Deployment{Name: "70B BF16 on 4×H100", Model: "Llama 3.1 70B",
		Precision: "BF16", GPU: "H100 SXM", Cards: 4, Replicas: 1, HoursPerMonth: 220, Offer: "RunPod H100 SXM, Community"})
	d := Compare(side(t, "old", old), side(t, "new", added), Tolerance{})

	rent := 4 * 2.69 * 220.0 // four cards at $2.69 for 220 hours
	own := nodePerMonth(285000)
	if len(d.Facts) != 1 || len(d.Decisions) != 1 {
		t.Fatalf("facts %+v, decisions %+v", d.Facts, d.Decisions)
	}
	got := d.Decisions[0]
	if got.Deployment != "70B BF16 on 4×H100" || got.Old != "" || got.New != wording.Rent || got.Only != "new" ||
		got.OldSaving != nil || got.NewSaving == nil || !near(*got.NewSaving, rent-own) {
		t.Errorf("decision %+v (saves %s a month), want a new rent saving %v", got, money(got.NewSaving), rent-own)
	}
	wantResults := map[string]float64{"cards_per_replica": 4, "rent_per_replica_hour": 4 * 2.69, "rent_per_month": rent,
		"own_nodes": 1, "own_node_busy": 4 * 220.0 / (8 * 730), "own_per_month": own}
	if len(d.Results) != len(wantResults) {
		t.Errorf("%d results changed, want %d", len(d.Results), len(wantResults))
	}
	for _, r := range d.Results {
		want, ok := wantResults[r.Name]
		if r.Deployment != "70B BF16 on 4×H100" || !ok || r.Only != "new" || r.New == nil || !near(*r.New, want) {
			t.Errorf("%s: %s (only %q), want %v", r.Key(), money(r.New), r.Only, want)
		}
	}
	if s := d.Report().Summary; s != "old → new: 1 fact changed, 1 decision changed, 6 results changed" {
		t.Errorf("summary %q", s)
	}

	back := Compare(side(t, "new", added), side(t, "old", old), Tolerance{})
	if len(back.Decisions) != 1 || back.Decisions[0].Only != "old" || back.Decisions[0].Old != wording.Rent || back.Decisions[0].New != "" {
		t.Fatalf("removed: %+v", back.Decisions)
	}
	if row := back.Report().Decisions.Rows[0]; !slices.Equal(row, []string{"deployment 70B BF16 on 4×H100", "rent", "—",
		fmt.Sprintf("-$%s → —", commas(own-rent)), ""}) {
		t.Errorf("removed: row %q", row)
	}
	if rent := find(t, back, `deployment "70B BF16 on 4×H100" rent_per_month`); rent.Only != "old" || rent.Old == nil {
		t.Errorf("removed: rent %+v", rent)
	}
}

// commas writes dollars and cents with commas between thousands: 7,187.19.
func commas(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	for i := len(s) - 6; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// An edit that moves numbers but no verdict says so, counting the
// verdicts it compared.
func TestNoDecisionChanged(t *testing.T) {
	old := workbooks.DefaultModel()
	edited := workbooks.DefaultModel()
	set(&edited, "electricity_price", 0.11)
	newSide := side(t, "new", edited)
	d := Compare(side(t, "old", old), newSide, Tolerance{})
	verdicts := 0
	for _, v := range newSide.Verdicts {
		if v.Verdict != "" {
			verdicts++
		}
	}
	if len(d.Decisions) != 0 || verdicts < 30 {
		t.Fatalf("decisions %+v of %d verdicts", d.Decisions, verdicts)
	}
	if got, want := d.Report().NoDecision, fmt.Sprintf("No decision changed: %d verdicts, buy or rent, as before.", verdicts); got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if same := Compare(side(t, "old", old), side(t, "old", old), Tolerance{}); same.Report().NoDecision != "" || !same.Same() {
		t.Errorf("the same plan: %+v", same.Report())
	}
}
