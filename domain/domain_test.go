package domain

import (
	"slices"
	"testing"

	"planner/diag"
	"planner/sizing"
	"planner/units"
)

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"RunPod H100 SXM, Community": "runpod_h100_sxm_community",
		"  Lambda -- 8x H100 (SXM) ": "lambda_8x_h100_sxm",
		"":                           "",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSameGPU(t *testing.T) {
	if !SameGPU("H100  SXM", " h100 sxm") {
		t.Error("H100  SXM and h100 sxm are the same card")
	}
	if SameGPU("H100", "H200") || SameGPU("H100 SXM", "H100SXM") {
		t.Error("different names taken for the same card")
	}
}

// Two names have one GPUKey exactly when SameGPU calls them the same:
// case and spacing aside, and the letters Unicode folds together (the
// long s and s, the Kelvin sign and k) alike.
func TestGPUKeyIsSameGPU(t *testing.T) {
	names := []string{"H100 SXM", " h100  sxm", "H100SXM", "H200", "ſxm", "SXM", "sxm", "\u212a80", "k80", "K80",
		"Ǆ", "ǅ", "ǆ", "ß", "SS", "\xff", "\xfe", "", "  ", "A100\tPCIe", "a100 pcie"}
	for _, a := range names {
		for _, b := range names {
			if same := GPUKey(a) == GPUKey(b); same != SameGPU(a, b) {
				t.Errorf("%q and %q: SameGPU %v, their keys %q and %q", a, b, SameGPU(a, b), GPUKey(a), GPUKey(b))
			}
		}
	}
	if GPUKey("ſxm") != GPUKey("SXM") || GPUKey("H100SXM") == GPUKey("H100 SXM") {
		t.Errorf("keys %q %q %q %q", GPUKey("ſxm"), GPUKey("SXM"), GPUKey("H100SXM"), GPUKey("H100 SXM"))
	}
}

func TestValueString(t *testing.T) {
	for v, want := range map[Value]string{Num(0.5): "0.5", Num(285000): "285000", Num(1e-9): "1e-09", Text("H100 SXM"): `"H100 SXM"`} {
		if got := v.String(); got != want {
			t.Errorf("%#v prints %s, want %s", v, got, want)
		}
	}
}

// The 99.9th percentile of a standard normal is 3.09: a value beyond it is
// where the distribution never draws; the ends bound the others.
func TestOutsideDistribution(t *testing.T) {
	in := func(kind string, params ...float64) Input {
		return Input{Value: Num(0), Dist: &Distribution{Kind: kind, Params: params}}
	}
	cases := []struct {
		in   Input
		v    float64
		want bool
	}{
		{in("uniform", 1, 2), 2.5, true}, {in("uniform", 1, 2), 1.5, false},
		{in("triangular", 0, 1, 4), 4.01, true}, {in("pert", 0, 1, 4), 0, false},
		{in("normal", 0, 1), 3.2, true}, {in("normal", 0, 1), -3.0, false},
		{in("lognormal", 0, 1), 0, true}, {in("lognormal", 0, 1), 1, false},
		{Input{Value: Num(0)}, 1e9, false},
	}
	for _, c := range cases {
		if got := c.in.OutsideDistribution(c.v); got != c.want {
			t.Errorf("%v at %v: outside %v, want %v", c.in.Dist, c.v, got, c.want)
		}
	}
	ranged := Input{Value: Num(5), Low: 1, High: 10, HasRange: true}
	if !ranged.Outside(11) || ranged.Outside(10) || (Input{Value: Num(5)}).Outside(11) {
		t.Error("Outside should hold only beyond a range the input has")
	}
}

// A capex of 285 is the slip of a price typed in thousands; 285,000 is a
// node's price. A name planner does not know takes its unit's band.
func TestPlausibility(t *testing.T) {
	if f := Plausibility(units.USD, Capex, "$", 285); f == nil || !f.Slip || f.Type != "285000" {
		t.Errorf("capex 285: %+v, want the slip 285000", f)
	}
	if f := Plausibility(units.USD, Capex, "$", 285000); f != nil {
		t.Errorf("capex 285000: %+v, want none", f)
	}
	if _, ok := BandOf("my_own_input", ""); ok {
		t.Error("an input with no known name and no unit has no band")
	}
	if b, ok := BandOf(GPUWatts, ""); !ok || b.Unit != "W" {
		t.Errorf("gpu_watts's band: %+v, %v", b, ok)
	}
}

func TestSizingNames(t *testing.T) {
	want := []string{"weights_gb", "gpu_memory_gb", "min_cards", "usual_cards", "kv_gb_per_replica"}
	if got := SizingNames(); !slices.Equal(got, want) {
		t.Errorf("SizingNames() = %v, want %v", got, want)
	}
}

// catalogModel runs on H100s, whose board watts the GPUs sheet gives,
// with B200s beside them; watts, when not 0, are typed in Assumptions.
func catalogModel(watts float64) *Model {
	m := &Model{Where: diag.Origin{File: "plan.xlsx"}, Inputs: []Input{{Name: GPU, Value: Text("H100 SXM")}},
		GPUs: []sizing.GPUSpec{{Name: "H100 SXM", Watts: 700, MemoryGB: 80}, {Name: "B200", Watts: 1000, MemoryGB: 192}}}
	if watts > 0 {
		m.Inputs = append(m.Inputs, Input{Name: GPUWatts, Value: Num(watts), Origin: diag.Origin{File: "plan.xlsx", Sheet: "Assumptions", Row: 9, Col: 2}})
	}
	return m
}

func TestCatalogWatts(t *testing.T) {
	own := catalogModel(0)
	if !own.WattsFromCatalog() || !own.CatalogWatts(Scenario{}, "H100 SXM") {
		t.Error("with no gpu_watts in Assumptions the watts come from the catalog")
	}
	if own.CatalogWatts(Scenario{Set: map[string]Value{GPUWatts: Num(650)}}, "H100 SXM") {
		t.Error("a scenario's own gpu_watts holds over the catalog's")
	}
	typed := catalogModel(650)
	if typed.WattsFromCatalog() || typed.CatalogWatts(Scenario{}, "h100  sxm") {
		t.Error("the Assumptions' gpu_watts holds for the Assumptions' GPU")
	}
	if !typed.CatalogWatts(Scenario{}, "B200") {
		t.Error("a scenario on another GPU takes that GPU's watts from the catalog")
	}
}

func TestWattsWarnings(t *testing.T) {
	if w := catalogModel(700).WattsWarnings(); w != nil {
		t.Errorf("the catalog's own watts typed again: %v", w)
	}
	w := catalogModel(650).WattsWarnings()
	want := "plan.xlsx: Assumptions!B9: gpu_watts: 650 W here, but the GPUs sheet gives 700 W for H100 SXM; planner uses 650 W for every scenario on H100 SXM that does not set its own, and the GPUs sheet's watts for other GPUs: delete this row to take H100 SXM's watts from the GPUs sheet too"
	if len(w) != 1 || w[0].Error() != want {
		t.Errorf("warnings %v,\nwant %s", w, want)
	}
}
