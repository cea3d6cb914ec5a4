package formulas

import (
	"planner/diag"
	"strings"
	"testing"
)

var env = Env{"capex": Number, "gpus": Number, "residual": Number, "gpu": Text}

func at(row int) diag.Origin {
	return diag.Origin{File: "plan.xlsx", Sheet: "Formulas", Row: row, Col: 2}
}

func TestCheckErrorsAreWholeMessages(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{"capx / gpus", "plan.xlsx: Formulas!B7:1: total: unknown name capx (did you mean capex?)\n | capx / gpus\n | ^"},
		{"capex / zzz", "plan.xlsx: Formulas!B7:9: total: unknown name zzz; add it to Assumptions or define it in Formulas\n | capex / zzz\n | ........^"},
		{"capex +", "plan.xlsx: Formulas!B7:7: total: unexpected token EOF\n | capex +\n | ......^"},
		{"now()", "plan.xlsx: Formulas!B7:1: total: unknown function now; formulas may call abs, ceil, exp, floor, log, log10, max, min, pow, round, sqrt\n | now()\n | ^"},
		{`env("HOME")`, "plan.xlsx: Formulas!B7:1: total: unknown function env; formulas may call abs, ceil, exp, floor, log, log10, max, min, pow, round, sqrt\n | env(\"HOME\")\n | ^"},
		{"capex.x", "plan.xlsx: Formulas!B7:7: total: fields and indexes (a.b, a[0]) are not part of planner's formulas; every name is a plain input or formula\n | capex.x\n | ......^"},
		{"capex > 1", "plan.xlsx: Formulas!B7: total: gives true or false, not a number; write condition ? 1 : 0 to turn it into one"},
		{`gpu + 1`, "plan.xlsx: Formulas!B7:5: total: invalid operation: + (mismatched types string and int)\n | gpu + 1\n | ....^"},
		{"sqrt", "plan.xlsx: Formulas!B7:1: total: sqrt is a function; call it with parentheses, e.g. sqrt(x)\n | sqrt\n | ^"},
		{"  ", "plan.xlsx: Formulas!B7: total: the expression is empty; write one such as capex / gpus"},
		{`capex in [1, 2]`, "plan.xlsx: Formulas!B7:7: total: the operator \"in\" is not part of planner's formulas; use arithmetic, comparisons, and, or, not and ?:\n | capex in [1, 2]\n | ......^"},
		{strings.Repeat("(", 101) + "1" + strings.Repeat(")", 101), "plan.xlsx: Formulas!B7: total: parentheses nest 101 deep; formulas are limited to 100: split it into named parts"},
		{strings.Repeat("1+", 2500) + "1", "plan.xlsx: Formulas!B7: total: the expression is 5001 characters long; formulas are limited to 4096: split it into named parts"},
	}
	for _, tt := range tests {
		_, err := Check(Formula{Name: "total", Source: tt.src, Origin: at(7)}, env)
		if err == nil {
			t.Errorf("Check(%q) succeeded, want %q", tt.src, tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("Check(%q):\n got %q\nwant %q", tt.src, err.Error(), tt.want)
		}
	}
}

func TestCheckReportsEveryUnknownName(t *testing.T) {
	_, err := Check(Formula{Name: "total", Source: "capx + gpuz", Origin: at(3)}, env)
	list, ok := err.(diag.Diagnostics)
	if !ok || len(list) != 2 {
		t.Fatalf("got %v, want a list of two errors", err)
	}
	if !strings.Contains(list[0].Error(), "unknown name capx") || !strings.Contains(list[1].Error(), "unknown name gpuz (did you mean gpu?)") {
		t.Errorf("got %v", err)
	}
}

func TestCheckListsReferencesSortedOnce(t *testing.T) {
	c, err := Check(Formula{Name: "x", Source: `gpu == "H100 SXM" ? capex * (1 - residual) / gpus + capex : 0`}, env)
	if err != nil {
		t.Fatal(err)
	}
	want := "capex gpu gpus residual"
	if got := strings.Join(c.Refs, " "); got != want {
		t.Errorf("Refs = %q, want %q", got, want)
	}
}

func TestFunctionsAreNotReferences(t *testing.T) {
	c, err := Check(Formula{Name: "x", Source: "max(capex, 1) + sqrt(gpus) + pow(2, 3)"}, env)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(c.Refs, " "); got != "capex gpus" {
		t.Errorf("Refs = %q, want %q", got, "capex gpus")
	}
}

func TestValidName(t *testing.T) {
	for name, want := range map[string]bool{
		"capex": true, "_x1": true, "cost_per_gpu_hour": true,
		"": false, "1x": false, "cap ex": false, "capex-2": false, "not": false, "and": false, "true": false,
		"min": false, "sqrt": false, "größe": false,
	} {
		if got := ValidName(name); got != want {
			t.Errorf("ValidName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"capex", "gpus", "gpu_watts", "residual", "own_minus_rent_per_used_hour", "rent_per_gpu_month", "rent_node_per_month"}
	for name, want := range map[string]string{"capx": "capex", "CAPEX": "capex", "gpu_wats": "gpu_watts", "residul": "residual", "xyz": "", "": "",
		"own_minus_rent": "own_minus_rent_per_used_hour", // the one name it starts
		"rent":           "",                             // starts two names: no guess
		"gpu":            "gpus",                         // a typo wins over the name it starts
	} {
		if got := Suggest(name, names); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", name, got, want)
		}
	}
}

// expr adds and orders text and lets ?: mix text and numbers; planner's
// formulas compute numbers only.
func TestTextOnlyComparesForEquality(t *testing.T) {
	tests := []struct{ src, want string }{
		{`capex > 1 ? 1 : "abc"`, `plan.xlsx: Formulas!B2:17: x: the two branches of ?: give a number and text; both must be numbers (or both true or false)` + "\n | capex > 1 ? 1 : \"abc\"\n | ................^"},
		{`gpu > "A" ? 1 : 0`, `plan.xlsx: Formulas!B2:5: x: > needs a number, not text; text can only be compared with == or !=` + "\n | gpu > \"A\" ? 1 : 0\n | ....^"},
		{`(gpu + "a") == "b" ? 1 : 0`, `plan.xlsx: Formulas!B2:6: x: + needs a number, not text; text can only be compared with == or !=` + "\n | (gpu + \"a\") == \"b\" ? 1 : 0\n | .....^"},
		{`gpu == "H100" ? gpu : "x"`, `plan.xlsx: Formulas!B2:17: x: the two branches of ?: give text and text; both must be numbers (or both true or false)` + "\n | gpu == \"H100\" ? gpu : \"x\"\n | ................^"},
		{`capex == true ? 1 : 0`, `plan.xlsx: Formulas!B2:7: x: invalid operation: == (mismatched types float64 and bool)` + "\n | capex == true ? 1 : 0\n | ......^"},
		{`gpu`, `plan.xlsx: Formulas!B2: x: gives text, not a number`},
	}
	for _, tt := range tests {
		_, err := Check(Formula{Name: "x", Source: tt.src, Origin: at(2)}, env)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Check(%s):\n got %v\nwant %s", tt.src, err, tt.want)
		}
	}
	for _, ok := range []string{`gpu == "H100 SXM" ? capex : 1.5`, `capex > 1 ? 1 : 2.5`, `(capex > 1) == (gpus > 2) ? 1 : 0`, `!(capex > 1) ? 1 : 0`} {
		if _, err := Check(Formula{Name: "x", Source: ok}, env); err != nil {
			t.Errorf("Check(%s): %v", ok, err)
		}
	}
}

// A problem is one line, whatever the cell text it quotes: a line break in a
// name or a message shows as \n, so a workbook cannot forge a line of output.
func TestErrorsAreOneLine(t *testing.T) {
	e := &diag.Diagnostic{Origin: diag.Origin{File: "plan.xlsx", Sheet: "Scenarios", Row: 1, Col: 6}, Name: "H200 node\nwarning: forged line",
		Msg: "the GPU \"H100\r\nplan.xlsx: up to date\" is not in the GPUs sheet", Snippet: "\n | x\n | ^"}
	want := `plan.xlsx: Scenarios!F1: H200 node\nwarning: forged line: the GPU "H100\nplan.xlsx: up to date" is not in the GPUs sheet` + "\n | x\n | ^"
	if got := e.Error(); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
