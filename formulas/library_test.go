package formulas

import (
	"planner/diag"
	"strings"
	"testing"
)

// The canonical names of the workbook contract, which the built-in library
// must define and reference.
var (
	canonicalInputs = []string{"capex", "gpus", "amortization_months", "residual", "gpu_watts", "pue",
		"electricity_price", "rack_per_month", "hours_per_month", "utilization"}
	canonicalOutputs = []string{"capital_per_gpu_hour", "power_per_gpu_hour", "rack_per_gpu_hour",
		"cost_per_gpu_hour", "cost_per_used_hour", "power_per_month", "breakeven_utilization"}
)

func TestLibraryChecksAgainstTheCanonicalInputs(t *testing.T) {
	lib := Library()
	e := Env{"offer_price": Number}
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
	want := "x.expr:1: a continuation line with no formula above it\nx.expr:2: expected name [unit] = expression, found \"not a definition\""
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
