package formulas

import (
	"planner/diag"
	"strings"
	"testing"
)

// The canonical names of the workbook contract, which the built-in library
// must define and reference.
var (
	canonicalInputs = []string{"capex", "gpus", "amortization_months", "residual", "gpu_watts", "gpu_idle_watts", "pue",
		"electricity_price", "rack_per_month", "hours_per_month", "utilization", "cost_of_capital", "maintenance_per_year", "staff_per_month",
		"network_per_month", "software_per_gpu_year", "tax_rate", "depreciation", "rent_price_change_per_year", "electricity_price_change_per_year"}
	canonicalOutputs = []string{"capital_per_gpu_hour", "power_per_gpu_hour", "rack_per_gpu_hour",
		"cost_per_gpu_hour", "cost_per_used_hour", "power_per_month", "breakeven_utilization", "capital_per_month",
		"maintenance_per_gpu_hour", "staff_per_gpu_hour", "network_per_gpu_hour", "npv_saving", "depreciation_per_month", "tax_shield_pv"}
)

func TestLibraryChecksAgainstTheCanonicalInputs(t *testing.T) {
	lib := Library()
	e := Env{"offer_price": Number, "offer_renewal_months": Number}
	for _, n := range canonicalInputs {
		e[n] = Number
	}
	for _, f := range lib {
		e[f.Name] = Number
	}
	for _, f := range lib {
		if _, err := Check(f, e); err != nil {
			t.Error(err)
		}
		if f.Doc == "" || f.Unit == "" {
			t.Errorf("%s: %s has no description or unit", f.Origin, f.Name)
		}
	}
	for _, n := range canonicalOutputs {
		if _, ok := e[n]; !ok {
			t.Errorf("the library does not define %s", n)
		}
	}
}

func TestParseLibrary(t *testing.T) {
	src := "# A file comment.\n\n# Capital per card.\n# Second line.\nper_gpu [$] = capex /\n    gpus\nplain = 1\n"
	fs, err := ParseLibrary("x.expr", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("got %d formulas, want 2", len(fs))
	}
	want := Formula{Name: "per_gpu", Source: "capex / gpus", Unit: "$", Doc: "Capital per card. Second line.", Origin: diag.Origin{File: "x.expr", Line: 5}}
	if fs[0] != want {
		t.Errorf("got %+v\nwant %+v", fs[0], want)
	}
	if fs[1].Doc != "" || fs[1].Unit != "" || fs[1].Source != "1" {
		t.Errorf("got %+v", fs[1])
	}
}

func TestParseLibraryErrors(t *testing.T) {
	_, err := ParseLibrary("x.expr", "  orphan\nnot a definition\n")
	want := "x.expr:1: a continuation line with no formula above it\nx.expr:2: expected name \"label\" [unit] = expression, found \"not a definition\""
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestMergeLetsTheWorkbookWinByName(t *testing.T) {
	base := []Formula{{Name: "a", Source: "1"}, {Name: "b", Source: "2"}, {Name: "c", Source: "3"}}
	own := []Formula{{Name: "b", Source: "20"}, {Name: "d", Source: "4"}}
	var got []string
	for _, f := range Merge(base, own) {
		got = append(got, f.Name+"="+f.Source)
	}
	if s := strings.Join(got, " "); s != "b=20 d=4 a=1 c=3" {
		t.Errorf("Merge = %s", s)
	}
}

func TestParseLibraryLabel(t *testing.T) {
	fs, err := ParseLibrary("x.expr", "per_gpu \"Capex per GPU\" [$] = capex / gpus\nunlabelled [$] = 1\n")
	if err != nil {
		t.Fatal(err)
	}
	if fs[0].Label != "Capex per GPU" || fs[0].Unit != "$" || fs[0].Source != "capex / gpus" {
		t.Errorf("got %+v", fs[0])
	}
	if fs[1].Label != "" || fs[1].Unit != "$" {
		t.Errorf("got %+v", fs[1])
	}
}

func TestEveryBuiltInHasALabel(t *testing.T) {
	for _, f := range Library() {
		if f.Label == "" {
			t.Errorf("%s: %s has no label", f.Origin, f.Name)
		}
	}
}

func TestReadable(t *testing.T) {
	for name, want := range map[string]string{
		"capital_per_gpu_hour":  "Capital per GPU-hour",
		"rent_per_gpu_month":    "Rent per GPU-month",
		"node_kw":               "Node kW",
		"weights_gb":            "Weights GB",
		"kv_gb_per_replica":     "KV GB per replica",
		"breakeven_utilization": "Break-even utilization",
		"capex":                 "Capex",
		"gpus":                  "GPUs",
		"gpu":                   "GPU",
		"pue":                   "PUE",
		"p95__cost_":            "P95 cost",
		"CamelCase":             "CamelCase",
		"_":                     "_",
		"extra_cost":            "Extra cost",
		"cost_per_node_hour":    "Cost per node-hour",
	} {
		if got := Readable(name); got != want {
			t.Errorf("Readable(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestLabelOf(t *testing.T) {
	for _, c := range []struct {
		f    Formula
		want string
	}{
		{Formula{Name: "cost_per_gpu_hour", Label: "What a GPU-hour costs"}, "What a GPU-hour costs"},
		// A Formulas sheet without labels keeps the built-in's.
		{Formula{Name: "cost_per_used_hour"}, "Cost per used GPU-hour"},
		{Formula{Name: "my_margin_per_gpu_hour"}, "My margin per GPU-hour"},
	} {
		if got := LabelOf(c.f); got != c.want {
			t.Errorf("LabelOf(%+v) = %q, want %q", c.f, got, c.want)
		}
	}
}
