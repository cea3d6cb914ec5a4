package engine_test

import (
	"fmt"
	"testing"

	"planner/diag"
	"planner/domain"
	"planner/engine"
	"planner/engine/enginetest"
	"planner/formulas"
)

func TestOfferWords(t *testing.T) {
	p, _ := engine.Build(enginetest.FullModel())
	r, _ := p.Eval(domain.Scenario{Name: domain.Base})
	o := enginetest.Offer(t, r, "RunPod", "H100 SXM, Community")
	if want := "rent: busy 50.0 % of the month, break-even against RunPod H100 SXM, Community is 60.8 %"; o.Words != want {
		t.Errorf("got %q\nwant %q", o.Words, want)
	}
	// A break-even above 100 %: no utilisation reaches it, and the words say so.
	r, _ = p.Eval(domain.Scenario{Name: domain.Base, Set: map[string]domain.Value{"capex": domain.Num(515000)}})
	if o := enginetest.Offer(t, r, "RunPod", "H100 SXM, Community"); o.Words != "rent: busy 50.0 % of the month, break-even against RunPod H100 SXM, Community is above 100 %: owning never pays" {
		t.Errorf("got %q", o.Words)
	}
}

// Each scenario sizes its model on its own GPU, and formulas may use it.
func TestScenarioSizing(t *testing.T) {
	m := enginetest.FullModel()
	m.Formulas = append(m.Formulas, formulas.Formula{Name: "replicas_per_node", Source: "floor(gpus / usual_cards)"})
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{domain.Base: 4, "H200 node": 8, "B200 node": 8}
	for _, r := range results {
		if got := r.Values["replicas_per_node"]; got != want[r.Scenario] || r.Values[domain.UsualCardsName] != 8/want[r.Scenario] {
			t.Errorf("%s: %v replicas per node, usual cards %v", r.Scenario, got, r.Values[domain.UsualCardsName])
		}
	}
	// A model that does not fit gives the formula an error that says why.
	r, err := p.Eval(domain.Scenario{Name: "tiny", Set: map[string]domain.Value{"gpu": domain.Text("RTX 5090"), domain.ModelName: domain.Text("Llama 3.1 405B"), domain.GPUWatts: domain.Num(575)}})
	if err != nil {
		t.Fatal(err)
	}
	e := r.Errors["replicas_per_node"]
	if e == nil || e.Msg != "usual_cards has no value: the weights fit 16×RTX 5090, but with the KV reserve a replica needs more than 16 cards" {
		t.Errorf("got %v", e)
	}
}

func TestScenarioProblemsNameTheirCells(t *testing.T) {
	m := enginetest.FullModel()
	cell := func(col int) diag.Origin {
		return diag.Origin{File: "plan.xlsx", Sheet: "Scenarios", Row: 4, Col: col}
	}
	m.Scenarios = append(m.Scenarios,
		domain.Scenario{Name: "typo", Set: map[string]domain.Value{"capx": domain.Num(1)}, Where: map[string]diag.Origin{"capx": cell(4)}},
		domain.Scenario{Name: "odd GPU", Set: map[string]domain.Value{"gpu": domain.Text("H2000")}, Where: map[string]diag.Origin{"gpu": cell(5)}},
		domain.Scenario{Name: "odd precision", Set: map[string]domain.Value{domain.Precision: domain.Text("FP3")}, Where: map[string]diag.Origin{domain.Precision: cell(6)}},
		domain.Scenario{Name: "text capex", Set: map[string]domain.Value{"capex": domain.Text("lots")}, Where: map[string]diag.Origin{"capex": cell(7)}})
	_, err := engine.Build(m)
	want := `plan.xlsx: Scenarios!D4: capx: the scenario typo sets capx, which is not an input (did you mean capex?)
plan.xlsx: Scenarios!E4: gpu: the GPU "H2000" is not in the GPUs sheet (did you mean H200?); known GPUs: B200, H100 PCIe, H100 SXM, H200, L40S, RTX 5090
plan.xlsx: Scenarios!F4: precision: the precision "FP3" is not known; use one of BF16, FP16, FP32, FP4, FP8, INT4, INT8
plan.xlsx: Scenarios!G4: capex: the scenario text capex sets capex to the text "lots", but capex is a number`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// A scenario that takes capex from its Assumptions cell takes a --set of
// capex too; one with its own number keeps it.
func TestLinkedScenarioFollowsTheOverride(t *testing.T) {
	m := enginetest.FullModel()
	for i, in := range m.Inputs {
		m.Inputs[i].Origin = diag.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: i + 2, Col: 2}
		if in.Name == "capex" {
			m.Scenarios = append(m.Scenarios, domain.Scenario{Name: "mid", Set: map[string]domain.Value{"capex": domain.Num(285000)},
				Links: map[string]string{"capex": fmt.Sprintf("Assumptions!B%d", i+2)}})
		}
	}
	p, err := engine.Build(m)
	if err != nil {
		t.Fatal(err)
	}
	results, _ := p.EvalAll(map[string]domain.Value{"capex": domain.Num(515000)})
	for _, r := range results {
		want := map[string]float64{"mid": 515000, domain.Base: 515000, "H200 node": 315000, "B200 node": 450000}[r.Scenario]
		if r.Values["capex"] != want {
			t.Errorf("%s: capex %v, want %v", r.Scenario, r.Values["capex"], want)
		}
	}
}
