package engine_test

import (
	"slices"
	"testing"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/formulas"
	"planner/sizing"
)

// catalogModel is the full model as init now writes it: no gpu_watts in
// Assumptions, the catalog's watts for every scenario's GPU, and a new GPU
// added at the bottom of the catalog.
func catalogModel() domain.Model {
	m := enginetest.FullModel()
	m.Inputs = slices.DeleteFunc(m.Inputs, func(in domain.Input) bool { return in.Name == domain.GPUWatts })
	m.GPUs = append(enginetest.CatalogGPUs(), sizing.GPUSpec{Name: "MI300X", MemoryGB: 192, Watts: 750,
		WattsAt: diag.Origin{File: "plan.xlsx", Sheet: "GPUs", Row: 8, Col: 3}})
	m.Scenarios = []domain.Scenario{
		{Name: "B200 node", Set: map[string]domain.Value{"gpu": domain.Text("B200"), "capex": domain.Num(450000)}},
		{Name: "MI300X node", Set: map[string]domain.Value{"gpu": domain.Text("MI300X")}},
		{Name: "MI300X at 900 W", Set: map[string]domain.Value{"gpu": domain.Text("MI300X"), domain.GPUWatts: domain.Num(900)}},
	}
	return m
}

// nodeKW is the article's node power: watts × cards × facility factor.
func nodeKW(watts float64) float64 { return watts * 8 * 1.3 / 1000 }

// wantNodeKW evaluates every scenario with the overrides and compares each
// node's power with the watts it should draw.
func wantNodeKW(t *testing.T, p *engine.Plan, overrides map[string]domain.Value, watts map[string]float64) []*engine.Result {
	t.Helper()
	results, err := p.EvalAll(overrides)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if got := r.Values["node_kw"]; !near(got, nodeKW(watts[r.Scenario])) {
			t.Errorf("%s: node_kw %v, want %v", r.Scenario, got, nodeKW(watts[r.Scenario]))
		}
	}
	return results
}

// Each scenario's node draws its own GPU's watts from the catalog; a
// scenario's own gpu_watts overrides them.
func TestWattsComeFromTheCatalog(t *testing.T) {
	p, err := engine.Build(catalogModel())
	if err != nil {
		t.Fatal(err)
	}
	results := wantNodeKW(t, p, nil, map[string]float64{domain.Base: 700, "B200 node": 1000, "MI300X node": 750, "MI300X at 900 W": 900})
	for _, r := range results {
		if fromCatalog := r.CatalogWatts != nil; fromCatalog == (r.Scenario == "MI300X at 900 W") {
			t.Errorf("%s: from the catalog %v", r.Scenario, fromCatalog)
		}
	}
	// --set gpu switches the base's GPU, and with it the watts.
	r, err := p.Eval(domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{domain.GPU: domain.Text("B200")}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Values["node_kw"]; !near(got, nodeKW(1000)) {
		t.Errorf("--set gpu=B200: node_kw %v", got)
	}
	if _, ok := p.Settable(domain.GPUWatts); !ok {
		t.Error("gpu_watts cannot be overridden")
	}
}

// A scenario on a GPU the catalog gives no watts for is refused at the
// scenario's gpu cell, with the catalog cell to fill; a --set that moves
// the node onto such a GPU, at the --set.
func TestMissingWattsAreAskedFor(t *testing.T) {
	m := catalogModel()
	m.Where.File = "plan.xlsx"
	m.GPUs[4].WattsAt = diag.Origin{File: "plan.xlsx", Sheet: "GPUs", Row: 6, Col: 3} // RTX 5090
	m.Scenarios = append(m.Scenarios, domain.Scenario{Name: "desk", Origin: diag.Origin{File: "plan.xlsx", Sheet: "Scenarios", Row: 1, Col: 5},
		Set:   map[string]domain.Value{"gpu": domain.Text("RTX 5090")},
		Where: map[string]diag.Origin{"gpu": {File: "plan.xlsx", Sheet: "Scenarios", Row: 3, Col: 5}}})
	evalAll := func(m domain.Model, overrides map[string]domain.Value) error {
		p, err := engine.Build(m)
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.EvalAll(overrides)
		return err
	}
	err := evalAll(m, nil)
	want := "plan.xlsx: Scenarios!E3: desk: the GPUs sheet gives no board watts for RTX 5090, which the node's power needs; " +
		"type them in GPUs!C6 (the maker's figure for one card), or add a row gpu_watts with this scenario's watts to the Scenarios sheet"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	// Followed literally, either way, the advice works.
	m.GPUs[4].Watts = 575
	if err := evalAll(m, nil); err != nil {
		t.Errorf("with the watts typed: %v", err)
	}
	m.GPUs[4].Watts = 0
	m.Scenarios[len(m.Scenarios)-1].Set[domain.GPUWatts] = domain.Num(575)
	if err := evalAll(m, nil); err != nil {
		t.Errorf("with gpu_watts in the scenario: %v", err)
	}
	m = catalogModel()
	m.Where.File = "plan.xlsx"
	if err, want := evalAll(m, map[string]domain.Value{domain.GPU: domain.Text("L40S")}),
		"plan.xlsx: --set gpu=L40S: the GPUs sheet gives no board watts for L40S, which the node's power needs; type them in the GPUs sheet (the maker's figure for one card), or add --set gpu_watts=WATTS"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	if err := evalAll(m, map[string]domain.Value{domain.GPU: domain.Text("L40S"), domain.GPUWatts: domain.Num(350)}); err != nil {
		t.Errorf("with --set gpu_watts: %v", err)
	}
	// The Assumptions' GPU lacks watts: a --set onto another GPU still works.
	m.Inputs[slices.IndexFunc(m.Inputs, func(in domain.Input) bool { return in.Name == domain.GPU })].Value = domain.Text("H100 PCIe")
	if err := evalAll(m, map[string]domain.Value{domain.GPU: domain.Text("H100 SXM")}); err != nil {
		t.Errorf("--set gpu=H100 SXM on an H100 PCIe workbook: %v", err)
	}
}

// --set gpu_watts is the watts of the base's GPU: scenarios on another GPU
// keep their catalog's.
func TestSetWattsHoldForTheBaseGPU(t *testing.T) {
	p, err := engine.Build(catalogModel())
	if err != nil {
		t.Fatal(err)
	}
	wantNodeKW(t, p, map[string]domain.Value{domain.GPUWatts: domain.Num(650)}, map[string]float64{domain.Base: 650, "B200 node": 1000, "MI300X node": 750, "MI300X at 900 W": 900})
	if got, want := p.OverrideWarnings(map[string]domain.Value{domain.GPUWatts: domain.Num(650)}).Error(),
		"--set gpu_watts=650 is the watts of H100 SXM: the scenarios on other GPUs keep their own (B200 node, MI300X node, MI300X at 900 W)"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// Workbooks with gpu_watts in Assumptions keep it for the Assumptions'
// GPU; other GPUs take the catalog's, and a number that differs from the
// catalog's for that GPU is pointed out.
func TestAssumptionsWattsHoldForTheirGPU(t *testing.T) {
	m := catalogModel()
	m.Inputs = append(m.Inputs, domain.Input{Name: domain.GPUWatts, Unit: "W", Value: domain.Num(650), Origin: diag.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: 10, Col: 2}})
	m.GPUs[0].WattsAt = diag.Origin{File: "plan.xlsx", Sheet: "GPUs", Row: 2, Col: 3}
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	wantNodeKW(t, p, nil, map[string]float64{domain.Base: 650, "B200 node": 1000, "MI300X node": 750, "MI300X at 900 W": 900})
	w := "plan.xlsx: Assumptions!B10: gpu_watts: 650 W here, but GPUs!C2 gives 700 W for H100 SXM; planner uses 650 W for every scenario on H100 SXM that does not set its own, " +
		"and the GPUs sheet's watts for other GPUs: delete this row to take H100 SXM's watts from the GPUs sheet too"
	if got := p.Warnings().Error(); got != w {
		t.Errorf("warning\n%s\nwant\n%s", got, w)
	}
}

// A formula may not take the name planner gives the catalog's watts.
func TestWattsNameIsPlanners(t *testing.T) {
	m := catalogModel()
	m.Formulas = append(m.Formulas, formulas.Formula{Name: domain.GPUWatts, Source: "700", Origin: diag.Origin{File: "plan.xlsx", Sheet: "Formulas", Row: 20, Col: 2}})
	_, err := engine.Build(m)
	want := "plan.xlsx: Formulas!B20: gpu_watts: gpu_watts is set by planner from the GPUs sheet's board watts of the scenario's GPU; choose another name"
	if err == nil || err.Error() != want {
		t.Errorf("got %v", err)
	}
}
