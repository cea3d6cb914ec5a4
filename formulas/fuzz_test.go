package formulas

import (
	"strings"
	"testing"
)

// FuzzCompile feeds the checker any text: it never panics, never accepts
// what the limits refuse, and every formula it accepts translates into
// Excel (the live workbook has no formula it cannot write).
func FuzzCompile(f *testing.F) {
	for _, lib := range Library() {
		f.Add(lib.Source)
	}
	for _, s := range []string{
		"capex / gpus", "a ** -b ** 2", `gpu == "H100 SXM" ? 1 : 0`, "max(a, b, 1e9) % 7", "let x = 1; x", "a.b",
		`$env["HOME"]`, "now()", "1..1000000000", `"a" + "b"`, "a ?? b", "a?.b", "map([1], #)", "a | abs()",
		strings.Repeat("(", 120) + "1" + strings.Repeat(")", 120), "sqrt", "abs(1, 2)", "pow(1)", "-(-(-a))",
	} {
		f.Add(s)
	}
	env := Env{"a": Number, "b": Number, "capex": Number, "gpus": Number, "gpu": Text}
	for _, name := range []string{"per_gpu_capex", "amortization_months", "hours_per_month", "residual", "amortization_hours",
		"gpu_watts", "pue", "node_kw", "electricity_price", "power_per_month", "rack_per_month", "capital_per_gpu_hour",
		"power_per_gpu_hour", "rack_per_gpu_hour", "cost_per_gpu_hour", "utilization", "offer_price", "cost_per_used_hour",
		"rent_node_per_month", "rent_used_per_month", "node_cost_per_month"} {
		env[name] = Number
	}
	f.Fuzz(func(t *testing.T, src string) {
		c, err := Check(Formula{Name: "x", Source: src}, env)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an error without a message")
			}
			return
		}
		if len(src) > MaxLength {
			t.Fatalf("accepted %d bytes", len(src))
		}
		for _, r := range c.Refs {
			if _, ok := env[r]; !ok {
				t.Fatalf("references %s, which is not in the environment", r)
			}
		}
		if _, err := c.Excel(env, func(name string) (string, error) { return name, nil }); err != nil {
			t.Fatalf("%q is accepted but does not translate into Excel: %v", src, err)
		}
	})
}
