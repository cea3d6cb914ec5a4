package formulas

import (
	"strings"
	"testing"
)

// The formula language reads nothing but the workbook's names: every way
// out of it that expr offers is refused when the formula is checked, before
// anything runs. Each attempt is listed with what its refusal says. (Nothing
// is left for run time: planner compiles formulas to its own arithmetic
// program, which allocates nothing and calls nothing.)
func TestNoWayOut(t *testing.T) {
	env := Env{"capex": Number, "gpus": Number, "gpu": Text}
	for _, tc := range []struct{ why, src, refusal string }{
		{"environment variables", `$env["HOME"]`, "fields and indexes"},
		{"the environment as a map", `$env`, "unknown name $env"},
		{"a function named like the OS's", `getenv("HOME")`, "unknown function getenv"},
		{"the clock", `now()`, "unknown function now"},
		{"a date", `date("2026-01-01")`, "unknown function date"},
		{"a duration", `duration("1h")`, "unknown function duration"},
		{"randomness", `rand()`, "unknown function rand"},
		{"files", `readFile("/etc/passwd")`, "unknown function readFile"},
		{"JSON", `fromJSON("{}")`, "unknown function fromJSON"},
		{"base64", `fromBase64("eA==")`, "unknown function fromBase64"},
		{"printf", `sprintf("%d", 1)`, "unknown function sprintf"},
		{"string building", `repeat("x", 1000000000)`, "unknown function repeat"},
		{"a huge range", `len(1..1000000000)`, "unknown function len"},
		{"a range alone", `1..1000000000`, `the operator ".." is not part`},
		{"closures over arrays", `map([1, 2], # * capex)`, "this construct is not part of planner's formulas"},
		{"filter", `filter([1], # > 0)`, "this construct is not part of planner's formulas"},
		{"variables", `let x = capex; x`, "this construct is not part"},
		{"members", `capex.String`, "fields and indexes"},
		{"indexes", `[1, 2][0]`, "fields and indexes"},
		{"optional chaining", `capex?.x`, "fields and indexes"},
		{"nil coalescing", `capex ?? 1`, `the operator "??" is not part`},
		{"regular expressions", `gpu matches "(a+)+$"`, `the operator "matches" is not part`},
		{"string containment", `gpu contains "H"`, `the operator "contains" is not part`},
		{"text to number", `int("1")`, "unknown function int"},
		{"types", `type(capex)`, "unknown function type"},
		{"nil", `nil`, "nil is not part"},
		{"maps", `{"a": 1}.a`, "fields and indexes"},
		{"text concatenation", `gpu + gpu == "x" ? 1 : 0`, "+ needs a number, not text"},
		{"a builtin's name as a variable", `len`, "unknown name len"},
	} {
		_, err := Check(Formula{Name: "f", Source: tc.src}, env)
		if err == nil {
			t.Errorf("%s: %q was accepted", tc.why, tc.src)
			continue
		}
		if !strings.Contains(err.Error(), tc.refusal) {
			t.Errorf("%s: %q: %v\nwant it to say %q", tc.why, tc.src, err, tc.refusal)
		}
	}
}
