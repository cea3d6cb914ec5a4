package facts

import (
	"testing"

	"planner/domain"
	"planner/sizing"
	"planner/units"
)

// An input held because its value left the range is shown so by show.
func TestHeldInputFact(t *testing.T) {
	in := domain.Input{Name: "capex", Unit: "$", Value: domain.Num(412000), Low: 250000, High: 320000, HasRange: true}
	if got := inputFact(in, units.USD); got != "412000 $ [250000..320000] held: the value lies outside its range" {
		t.Errorf("fact %q", got)
	}
}

// A field left blank is left out of what show prints, not shown as a zero;
// what was given is shown.
func TestBlankFieldsAreLeftOut(t *testing.T) {
	cases := []struct{ got, want string }{
		{modelFact(sizing.ModelSpec{TotalParamsB: 70, Precision: "FP8"}, false), "70B params, FP8"},
		{modelFact(sizing.ModelSpec{TotalParamsB: 671, ActiveParamsB: 37, Precision: "FP8"}, false), "671B params (37B active), FP8"},
		{modelFact(sizing.ModelSpec{TotalParamsB: 13, BytesPerParam: 0.56}, false), "13B params, 0.56 bytes per param"},
		{gpuFact(sizing.GPUSpec{MemoryGB: 48}, false), "48 GB, no board watts given"},
		{gpuFact(sizing.GPUSpec{MemoryGB: 80, Watts: 700, Interconnect: "SXM (NVLink)"}, false), "80 GB, 700 W, SXM (NVLink)"},
		{deploymentFact(domain.Deployment{Model: "Llama 3.1 8B", GPU: "RTX 5090", Replicas: 1, HoursPerMonth: 176}, false),
			`model "Llama 3.1 8B", gpu "RTX 5090", cards per replica sized, replicas 1, 176 h a month`},
		{deploymentFact(domain.Deployment{Model: "Llama 3.1 70B", Precision: "BF16", GPU: "H100 SXM", Cards: 4, Replicas: 2,
			HoursPerMonth: 264, Offer: "Lambda H100, 8-GPU plan", Scenario: "H100 low"}, false),
			`model "Llama 3.1 70B", precision BF16, gpu "H100 SXM", cards per replica 4, replicas 2, 264 h a month, offer "Lambda H100, 8-GPU plan", scenario "H100 low"`},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got  %s\nwant %s", c.got, c.want)
		}
	}
}
