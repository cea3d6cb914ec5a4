package engine

import (
	"fmt"
	"testing"

	"planner/formulas"
	"planner/sizing"
)

// The GPU catalog of SPEC.md §1 (B200 at NVIDIA's 192 GB, not Lambda's 180).
var catalogGPUs = []sizing.GPUSpec{
	{Name: "H100 SXM", MemoryGB: 80, Watts: 700}, {Name: "H100 PCIe", MemoryGB: 80},
	{Name: "H200", MemoryGB: 141, Watts: 700}, {Name: "B200", MemoryGB: 192, Watts: 1000},
	{Name: "RTX 5090", MemoryGB: 32}, {Name: "L40S", MemoryGB: 48},
}

// fullModel is specModel with the catalogs, the sizing inputs, two
// scenarios and SPEC.md §5's deployment cases.
func fullModel() Model {
	m := specModel()
	m.GPUs = catalogGPUs
	m.Catalog = []sizing.ModelSpec{
		{Name: "Llama 3.1 8B", TotalParamsB: 8, Precision: "BF16"},
		{Name: "Llama 3.1 70B", TotalParamsB: 70, Precision: "FP8"},
		{Name: "Llama 3.1 405B", TotalParamsB: 405, Precision: "FP8"},
	}
	m.Inputs = append(m.Inputs,
		Input{Name: ModelName, Value: Text("Llama 3.1 70B")},
		Input{Name: Precision, Value: Text("FP8")},
		Input{Name: KVHeadroom, Value: Num(0.4)})
	m.Scenarios = []Scenario{
		{Name: "H200 node", Set: map[string]Value{"gpu": Text("H200"), "capex": Num(315000)}},
		{Name: "B200 node", Set: map[string]Value{"gpu": Text("B200"), "capex": Num(450000), "gpu_watts": Num(1000)}},
	}
	workdays := 12.0 * 22
	m.Deployments = []Deployment{
		{Name: "internal 8B assistant", Model: "Llama 3.1 8B", GPU: "RTX 5090", Replicas: 1, HoursPerMonth: 8 * 22},
		{Name: "public 70B FP8, workdays", Model: "Llama 3.1 70B", GPU: "H100 SXM", Replicas: 1, HoursPerMonth: workdays, Offer: "RunPod H100 SXM, Community"},
		{Name: "70B FP8 on one H200", Model: "Llama 3.1 70B", GPU: "H200", Replicas: 1, HoursPerMonth: workdays},
		{Name: "one H100 all month", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 1, Replicas: 1, HoursPerMonth: 730, Offer: "RunPod H100 SXM, Community"},
		{Name: "one H100, workdays", Model: "Llama 3.1 70B", GPU: "H100 SXM", Cards: 1, Replicas: 1, HoursPerMonth: workdays, Offer: "RunPod H100 SXM, Community"},
		{Name: "8 cards, Community", Model: "Llama 3.1 405B", GPU: "H100 SXM", Cards: 8, Replicas: 1, HoursPerMonth: 730, Offer: "RunPod H100 SXM, Community"},
		{Name: "8 cards, Lambda", Model: "Llama 3.1 405B", GPU: "H100 SXM", Replicas: 1, HoursPerMonth: 730, Offer: "Lambda H100, 8-GPU plan"},
		{Name: "8 cards, AWS", Model: "Llama 3.1 405B", GPU: "H100 SXM", Replicas: 1, HoursPerMonth: 730, Offer: "AWS p5.48xlarge Capacity Block"},
	}
	return m
}

func TestOfferWords(t *testing.T) {
	p, _ := Build(fullModel())
	r, _ := p.Eval(Scenario{Name: Base})
	o := offer(t, r, "RunPod", "H100 SXM, Community")
	if want := "rent: busy 50.0 % of the month, break-even against RunPod H100 SXM, Community is 60.8 %"; o.Words != want {
		t.Errorf("got %q\nwant %q", o.Words, want)
	}
	// A break-even above 100 %: no utilisation reaches it, and the words say so.
	r, _ = p.Eval(Scenario{Name: Base, Set: map[string]Value{"capex": Num(515000)}})
	if o := offer(t, r, "RunPod", "H100 SXM, Community"); o.Words != "rent: busy 50.0 % of the month, break-even against RunPod H100 SXM, Community is above 100 %: owning never pays" {
		t.Errorf("got %q", o.Words)
	}
	// Half a per mille rounds away from zero, as a spreadsheet's FIXED does.
	if got := percent(0.12345); got != "12.3 %" {
		t.Errorf("12.345 %% is written %s", got)
	}
	if got := percent(0.0125); got != "1.3 %" {
		t.Errorf("1.25 %% is written %s", got)
	}
}

// Each scenario sizes its model on its own GPU, and formulas may use it.
func TestScenarioSizing(t *testing.T) {
	m := fullModel()
	m.Formulas = append(m.Formulas, formulas.Formula{Name: "replicas_per_node", Source: "floor(gpus / usual_cards)"})
	p, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	results, err := p.EvalAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{Base: 4, "H200 node": 8, "B200 node": 8}
	for _, r := range results {
		if got := r.Values["replicas_per_node"]; got != want[r.Scenario] || r.Values[sizing.UsualCardsName] != 8/want[r.Scenario] {
			t.Errorf("%s: %v replicas per node, usual cards %v", r.Scenario, got, r.Values[sizing.UsualCardsName])
		}
	}
	// A model that does not fit gives the formula an error that says why.
	r, err := p.Eval(Scenario{Name: "tiny", Set: map[string]Value{"gpu": Text("RTX 5090"), ModelName: Text("Llama 3.1 405B"), GPUWatts: Num(575)}})
	if err != nil {
		t.Fatal(err)
	}
	e := r.Errors["replicas_per_node"]
	if e == nil || e.Msg != "usual_cards has no value: the weights fit 16×RTX 5090, but with the KV reserve a replica needs more than 16 cards" {
		t.Errorf("got %v", e)
	}
}

func TestScenarioProblemsNameTheirCells(t *testing.T) {
	m := fullModel()
	cell := func(col int) formulas.Origin {
		return formulas.Origin{File: "plan.xlsx", Sheet: "Scenarios", Row: 4, Col: col}
	}
	m.Scenarios = append(m.Scenarios,
		Scenario{Name: "typo", Set: map[string]Value{"capx": Num(1)}, Where: map[string]formulas.Origin{"capx": cell(4)}},
		Scenario{Name: "odd GPU", Set: map[string]Value{"gpu": Text("H2000")}, Where: map[string]formulas.Origin{"gpu": cell(5)}},
		Scenario{Name: "odd precision", Set: map[string]Value{Precision: Text("FP3")}, Where: map[string]formulas.Origin{Precision: cell(6)}},
		Scenario{Name: "text capex", Set: map[string]Value{"capex": Text("lots")}, Where: map[string]formulas.Origin{"capex": cell(7)}})
	_, err := Build(m)
	want := `plan.xlsx: Scenarios!D4: capx: the scenario typo sets capx, which is not an input (did you mean capex?)
plan.xlsx: Scenarios!E4: gpu: the GPU "H2000" is not in the GPUs sheet; known GPUs: B200, H100 PCIe, H100 SXM, H200, L40S, RTX 5090
plan.xlsx: Scenarios!F4: precision: the precision "FP3" is not known; use one of BF16, FP16, FP32, FP4, FP8, INT4, INT8
plan.xlsx: Scenarios!G4: capex: the scenario text capex sets capex to the text "lots", but capex is a number`
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// A scenario that takes capex from its Assumptions cell takes a --set of
// capex too; one with its own number keeps it.
func TestLinkedScenarioFollowsTheOverride(t *testing.T) {
	m := fullModel()
	for i, in := range m.Inputs {
		m.Inputs[i].Origin = formulas.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: i + 2, Col: 2}
		if in.Name == "capex" {
			m.Scenarios = append(m.Scenarios, Scenario{Name: "mid", Set: map[string]Value{"capex": Num(285000)},
				Links: map[string]string{"capex": fmt.Sprintf("Assumptions!B%d", i+2)}})
		}
	}
	p, err := Build(m)
	if err != nil {
		t.Fatal(err)
	}
	results, _ := p.EvalAll(map[string]Value{"capex": Num(515000)})
	for _, r := range results {
		want := map[string]float64{"mid": 515000, Base: 515000, "H200 node": 315000, "B200 node": 450000}[r.Scenario]
		if r.Values["capex"] != want {
			t.Errorf("%s: capex %v, want %v", r.Scenario, r.Values["capex"], want)
		}
	}
}
