package enginetest

import (
	"testing"

	"planner/domain"
	"planner/engine"
	"planner/formulas"
	"planner/sizing"
)

// SpecModel is SPEC.md's default node: an 8×H100 SXM server at the $285,000
// midpoint, the nine cloud offers of 2026-10-10, and the built-in formulas;
// no cost of capital, maintenance, staff or network, as in the article.
func SpecModel() domain.Model {
	m := domain.Model{Formulas: formulas.Library()}
	for _, in := range []struct {
		name string
		v    float64
	}{
		{"capex", 285000}, {"gpus", 8}, {"amortization_months", 36}, {"residual", 0}, {"gpu_watts", 700},
		{"pue", 1.3}, {"electricity_price", 0.12}, {"rack_per_month", 1000}, {"hours_per_month", 730},
		{"utilization", 0.5},
	} {
		m.Inputs = append(m.Inputs, domain.Input{Name: in.name, Value: domain.Num(in.v)})
	}
	for _, name := range append(domain.LaterInputs(), domain.LaterNPVInputs()...) {
		m.Inputs = append(m.Inputs, domain.Input{Name: name, Value: domain.Num(0)})
	}
	m.Inputs = append(m.Inputs, domain.Input{Name: "gpu", Value: domain.Text("H100 SXM")})
	m.Offers = []domain.Offer{
		{Provider: "RunPod", Name: "H100 SXM, Community", GPU: "H100 SXM", Price: 2.69},
		{Provider: "RunPod", Name: "H100 SXM, Secure", GPU: "H100 SXM", Price: 3.29},
		{Provider: "RunPod", Name: "H100 PCIe, Community", GPU: "H100 PCIe", Price: 1.99},
		{Provider: "RunPod", Name: "H200", GPU: "H200", Price: 3.59},
		{Provider: "RunPod", Name: "B200", GPU: "B200", Price: 5.98},
		{Provider: "RunPod", Name: "RTX 5090, Community", GPU: "RTX 5090", Price: 0.69},
		{Provider: "Lambda", Name: "H100, 8-GPU plan", GPU: "H100 SXM", Price: 3.99},
		{Provider: "Lambda", Name: "B200, 8-GPU plan", GPU: "B200", Price: 6.69},
		{Provider: "AWS", Name: "p5.48xlarge Capacity Block", GPU: "H100 SXM", Price: 5.97},
	}
	return m
}

// RangedSpecModel is SpecModel with the price guide's ranges of capex,
// residual, electricity price and utilisation, and the inputs' units.
func RangedSpecModel() domain.Model {
	m := SpecModel()
	ranges := map[string][2]float64{"capex": {250000, 320000}, "residual": {0, 0.3}, "electricity_price": {0.08, 0.2}, "utilization": {0.25, 0.9}}
	unit := map[string]string{"capex": "$", "residual": "%", "utilization": "%", "electricity_price": "$/kWh", "gpus": "GPUs"}
	for i, in := range m.Inputs {
		if r, ok := ranges[in.Name]; ok {
			m.Inputs[i].Low, m.Inputs[i].High, m.Inputs[i].HasRange = r[0], r[1], true
		}
		m.Inputs[i].Unit = unit[in.Name]
	}
	return m
}

// CatalogGPUs is the GPU catalog of SPEC.md §1 (B200 at NVIDIA's 192 GB,
// not Lambda's 180).
func CatalogGPUs() []sizing.GPUSpec {
	return []sizing.GPUSpec{
		{Name: "H100 SXM", MemoryGB: 80, Watts: 700}, {Name: "H100 PCIe", MemoryGB: 80},
		{Name: "H200", MemoryGB: 141, Watts: 700}, {Name: "B200", MemoryGB: 192, Watts: 1000},
		{Name: "RTX 5090", MemoryGB: 32}, {Name: "L40S", MemoryGB: 48},
	}
}

// FullModel is SpecModel with the catalogs, the sizing inputs, two
// scenarios and SPEC.md §5's deployment cases.
func FullModel() domain.Model {
	m := SpecModel()
	m.GPUs = CatalogGPUs()
	m.Catalog = []sizing.ModelSpec{
		{Name: "Llama 3.1 8B", TotalParamsB: 8, Precision: "BF16"},
		{Name: "Llama 3.1 70B", TotalParamsB: 70, Precision: "FP8"},
		{Name: "Llama 3.1 405B", TotalParamsB: 405, Precision: "FP8"},
	}
	m.Inputs = append(m.Inputs,
		domain.Input{Name: domain.ModelName, Value: domain.Text("Llama 3.1 70B")},
		domain.Input{Name: domain.Precision, Value: domain.Text("FP8")},
		domain.Input{Name: domain.KVHeadroom, Value: domain.Num(0.4)})
	m.Scenarios = []domain.Scenario{
		{Name: "H200 node", Set: map[string]domain.Value{"gpu": domain.Text("H200"), "capex": domain.Num(315000)}},
		{Name: "B200 node", Set: map[string]domain.Value{"gpu": domain.Text("B200"), "capex": domain.Num(450000), "gpu_watts": domain.Num(1000)}},
	}
	workdays := 12.0 * 22
	m.Deployments = []domain.Deployment{
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

// Eval evaluates SpecModel's base scenario with the values set.
func Eval(t testing.TB, set map[string]domain.Value) *engine.Result {
	t.Helper()
	p, err := engine.Build(SpecModel())
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Eval(domain.Scenario{Name: domain.Base, Set: set})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Offer is the result of the offer of provider called name.
func Offer(t testing.TB, r *engine.Result, provider, name string) engine.OfferResult {
	t.Helper()
	for _, o := range r.Offers {
		if o.Offer.Provider == provider && o.Offer.Name == name {
			return o
		}
	}
	t.Fatalf("no offer %s %s", provider, name)
	return engine.OfferResult{}
}

// Formulas parses formulas written in the library's format, one per line.
func Formulas(lines ...string) []formulas.Formula {
	var out []formulas.Formula
	for _, l := range lines {
		fs, err := formulas.ParseLibrary("test", l)
		if err != nil {
			panic(err)
		}
		out = append(out, fs...)
	}
	return out
}
