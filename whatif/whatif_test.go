package whatif

import (
	"math"
	"strings"
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/units"
)

// The tornado's swings equal the target evaluated at each end, independently.
func TestTornadoSwings(t *testing.T) {
	p, err := engine.Build(enginetest.RangedSpecModel())
	if err != nil {
		t.Fatal(err)
	}
	targets, err := Targets(p, domain.Scenario{Name: domain.Base}, []string{"cost_per_gpu_hour", domain.Breakeven})
	if err != nil {
		t.Fatal(err)
	}
	if len(targets) != 5 || targets[1].Label() != "breakeven_utilization vs RunPod H100 SXM, Community" {
		t.Fatalf("targets %v", targets)
	}
	tors, err := Tornadoes(p, domain.Scenario{Name: domain.Base}, targets)
	if err != nil {
		t.Fatal(err)
	}
	cost := tors[0]
	names := []string{}
	for _, b := range cost.Bars {
		names = append(names, b.Input.Name)
	}
	// A 30 % residual moves the cost more than the price range; utilisation
	// does not move the cost per GPU-hour at all: last.
	if got := strings.Join(names, " "); got != "residual capex electricity_price utilization" {
		t.Errorf("order %s", got)
	}
	for _, b := range cost.Bars {
		low := enginetest.Eval(t, map[string]domain.Value{b.Input.Name: domain.Num(b.Input.Low)}).Values["cost_per_gpu_hour"]
		high := enginetest.Eval(t, map[string]domain.Value{b.Input.Name: domain.Num(b.Input.High)}).Values["cost_per_gpu_hour"]
		if b.AtLow != low || b.AtHigh != high || b.Swing != math.Abs(high-low) {
			t.Errorf("%s: %v..%v swing %v, independently %v..%v", b.Input.Name, b.AtLow, b.AtHigh, b.Swing, low, high)
		}
	}
	// capex moves the cost by $70,000 / 8 / 26,280 h.
	if want := 70000.0 / 8 / 26280; math.Abs(cost.Bars[1].Swing-want) > 1e-12 {
		t.Errorf("capex swing %v, want %v", cost.Bars[1].Swing, want)
	}
}

func TestDataTableCells(t *testing.T) {
	p, _ := engine.Build(enginetest.RangedSpecModel())
	spec := domain.TableSpec{Name: "t", Output: "cost_per_used_hour", Row: domain.Axis{Input: "utilization", From: 0.1, To: 1, Steps: 10},
		Col: &domain.Axis{Input: "capex", From: 250000, To: 320000, Steps: 8}}
	if problems := checkTables(p, []domain.TableSpec{spec}); len(problems) > 0 {
		t.Fatal(problems)
	}
	tab, err := DataTable(p, domain.Scenario{Name: domain.Base}, spec)
	if err != nil {
		t.Fatal(err)
	}
	for i, u := range tab.RowValues {
		for j, c := range tab.ColValues {
			want := enginetest.Eval(t, map[string]domain.Value{"utilization": domain.Num(u), "capex": domain.Num(c)}).Values["cost_per_used_hour"]
			if tab.Cells[i][j] != want {
				t.Errorf("u=%v capex=%v: %v, independently %v", u, c, tab.Cells[i][j], want)
			}
		}
	}
	offers := domain.TableSpec{Name: "o", Output: "own_minus_rent_per_used_hour", Row: domain.Axis{Input: "utilization", From: 0.5, To: 0.5, Steps: 1}, Col: &domain.Axis{Offers: true}}
	tab, _ = DataTable(p, domain.Scenario{Name: domain.Base}, offers)
	if len(tab.ColLabels) != 4 || math.Abs(tab.Cells[0][0]-(1.636026484018264/0.5-2.69)) > 1e-12 {
		t.Errorf("offers table %v %v", tab.ColLabels, tab.Cells)
	}
}

func TestDataTableMistakes(t *testing.T) {
	p, _ := engine.Build(enginetest.RangedSpecModel())
	bad := []domain.TableSpec{
		{Name: "a", Output: "cost_per_usd_hour", Row: domain.Axis{Input: "utilization", From: 0, To: 1, Steps: 5}},
		{Name: "b", Output: "cost_per_used_hour", Row: domain.Axis{Input: "utilisation", From: 0, To: 1, Steps: 0}},
		{Name: "c", Output: "cost_per_used_hour", Row: domain.Axis{Input: "utilization", From: 1, To: 0, Steps: 5000}},
		{Name: "d", Output: "cost_per_used_hour", Row: domain.Axis{Input: "utilization", From: 0, To: 1, Steps: 5}, Col: &domain.Axis{Offers: true}},
	}
	var msgs []string
	for _, e := range checkTables(p, bad) {
		msgs = append(msgs, e.Error())
	}
	want := []string{
		"a: cost_per_usd_hour is not a formula (did you mean cost_per_used_hour?)",
		"b: utilisation is not an input (did you mean utilization?)",
		"b: 0 steps: use between 1 and 1000",
		"c: 5000 steps: use between 1 and 1000",
		"c: runs from 1 to 0; the start must not be above the end",
		"d: a table across offers needs an output evaluated per offer (one that uses offer_price); cost_per_used_hour is not",
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(msgs, "\n"), strings.Join(want, "\n"))
	}
}

// Goal seek lands on the article's break-even: 61 % at $2.69 is the
// utilisation at which the cost per used hour equals 2.69.
func TestSolveBreakeven(t *testing.T) {
	p, _ := engine.Build(enginetest.RangedSpecModel())
	sol, err := Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "utilization", Target: "cost_per_used_hour", Value: 2.69})
	if err != nil {
		t.Fatal(err)
	}
	be := enginetest.Offer(t, enginetest.Eval(t, nil), "RunPod", "H100 SXM, Community").Values[domain.Breakeven]
	if !sol.Found || math.Abs(sol.X-be) > 1e-9 || math.Round(sol.X*100) != 61 {
		t.Errorf("solved %+v, break-even %v", sol, be)
	}
	// The highest capex that breaks even at 40 % against $2.69 lies outside
	// the price guide's range: goal seek widens its search and finds it.
	sol, _ = Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "capex", Target: "cost_per_used_hour", Value: 2.69,
		With: map[string]domain.Value{"utilization": domain.Num(0.4)}})
	check := enginetest.Eval(t, map[string]domain.Value{"utilization": domain.Num(0.4), "capex": domain.Num(sol.X)}).Values["cost_per_used_hour"]
	if !sol.Found || math.Abs(check-2.69) > 1e-9 || sol.X > 250000 {
		t.Errorf("capex %v gives %v", sol.X, check)
	}
	// The residual at which owning beats Lambda at 35 %: break-even = 35 %.
	sol, _ = Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "residual", Target: domain.Breakeven, Value: 0.35, Offer: "Lambda H100, 8-GPU plan"})
	o := enginetest.Offer(t, enginetest.Eval(t, map[string]domain.Value{"residual": domain.Num(sol.X)}), "Lambda", "H100, 8-GPU plan")
	if !sol.Found || math.Abs(o.Values[domain.Breakeven]-0.35) > 1e-9 {
		t.Errorf("residual %v gives break-even %v", sol.X, o.Values[domain.Breakeven])
	}
}

// No bracket: a clear message with the values at the ends, never a number.
func TestSolveWithoutABracket(t *testing.T) {
	p, _ := engine.Build(enginetest.RangedSpecModel())
	sol, err := Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "utilization", Target: "cost_per_used_hour", Value: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	full := enginetest.Eval(t, map[string]domain.Value{"utilization": domain.Num(1)}).Values["cost_per_used_hour"]
	idle := enginetest.Eval(t, map[string]domain.Value{"utilization": domain.Num(1e-9)}).Values["cost_per_used_hour"]
	want := "no value of utilization between 0.0 % and 100.0 % makes cost_per_used_hour reach $0.50: it is " +
		units.Format(idle, "$/GPU-h") + " at 0.0 % and " + units.Format(full, "$/GPU-h") + " at 100.0 %"
	if sol.Found || sol.Why != want {
		t.Errorf("got %+v\nwant %s", sol, want)
	}
	_, err = Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "gpu", Target: "cost_per_used_hour", Value: 1})
	if err == nil || err.Error() != "goal g: gpu is text; goal seek solves for a number input" {
		t.Errorf("got %v", err)
	}
	_, err = Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "capex", Target: domain.Breakeven, Value: 0.4})
	if err == nil || !strings.HasPrefix(err.Error(), "goal g: breakeven_utilization is evaluated per offer; name the offer (one of AWS p5.48xlarge Capacity Block; ") {
		t.Errorf("got %v", err)
	}
}

// The break-even curve crosses each offer's price at the break-even.
func TestBreakevenCurve(t *testing.T) {
	p, _ := engine.Build(enginetest.RangedSpecModel())
	c, err := BreakevenCurve(p, []domain.Scenario{{Name: domain.Base}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Utilization) != 100 || c.Cost[0][49] != enginetest.Eval(t, map[string]domain.Value{"utilization": domain.Num(0.5)}).Values["cost_per_used_hour"] {
		t.Errorf("curve at 50 %%: %v", c.Cost[0][49])
	}
	r := enginetest.Eval(t, nil)
	for _, cr := range c.Crossings {
		be := enginetest.Offer(t, r, cr.Offer.Provider, cr.Offer.Name).Values[domain.Breakeven]
		if math.Abs(cr.Utilization-be) > 1e-9 {
			t.Errorf("%s: crosses at %v, break-even %v", cr.Offer.Label(), cr.Utilization, be)
		}
	}
}

// A sign change across a division by zero is not a root.
func TestSolveRefusesAJump(t *testing.T) {
	p, _ := engine.Build(enginetest.RangedSpecModel())
	sol, err := Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "utilization", Target: "cost_per_used_hour", Value: 0, Low: -1, High: 1, HasRange: true})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Found || sol.Why != "cost_per_used_hour jumps across $0.00 near utilization = 0.0 % without reaching it (a division by zero?)" {
		t.Errorf("got %+v", sol)
	}
}

// The default targets include what utilisation moves, so the tornado
// never reads as if utilisation did not matter.
func TestDefaultTargetsShowUtilisation(t *testing.T) {
	p, err := engine.Build(enginetest.RangedSpecModel())
	if err != nil {
		t.Fatal(err)
	}
	w, err := Run(p, []domain.Scenario{{Name: domain.Base}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := map[string]bool{}
	for _, tor := range w.Tornadoes {
		if top := tor.Bars[0]; top.Input.Name == domain.Utilization && top.Swing > 0 {
			moved[tor.Target.Name] = true
		}
	}
	if !moved["cost_per_used_hour"] || !moved["own_saving_per_month"] {
		t.Errorf("utilisation is the widest swing of: %v; want cost_per_used_hour and own_saving_per_month", moved)
	}
}

// The cost of capital at which owning stops paying against Lambda's $3.99
// at half the month: the rate at which the purchase's cash flow, worked out
// month by month here, is worth nothing today.
func TestSolveCostOfCapital(t *testing.T) {
	p, _ := engine.Build(enginetest.RangedSpecModel())
	sol, err := Solve(p, domain.Scenario{Name: domain.Base}, domain.Goal{Name: "g", For: "cost_of_capital", Target: domain.NPVSaving,
		Value: 0, Offer: "Lambda H100, 8-GPU plan", Low: 0, High: 0.5, HasRange: true})
	if err != nil || !sol.Found {
		t.Fatalf("solved %+v, %v", sol, err)
	}
	npv := func(rate float64) float64 {
		saving := 3.99*8*730*0.5 - (700*8*1.3/1000*730*0.12 + 1000)
		v := -285000.0
		for m := 1; m <= 36; m++ {
			v += saving * math.Pow(1+rate/12, -float64(m))
		}
		return v
	}
	if math.Abs(npv(sol.X)) > 1e-3 || npv(sol.X-1e-6) <= 0 || npv(sol.X+1e-6) >= 0 {
		t.Errorf("rate %v: NPV %v, at ±1e-6 %v and %v", sol.X, npv(sol.X), npv(sol.X-1e-6), npv(sol.X+1e-6))
	}
	// It is also the rate at which break-even reaches the utilisation.
	o := enginetest.Offer(t, enginetest.Eval(t, map[string]domain.Value{"cost_of_capital": domain.Num(sol.X)}), "Lambda", "H100, 8-GPU plan")
	if math.Abs(o.Values[domain.Breakeven]-0.5) > 1e-9 || math.Round(sol.X*1000) != 160 {
		t.Errorf("rate %v: break-even %v", sol.X, o.Values[domain.Breakeven])
	}
}
