package formulas

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
)

// Whole numbers beyond 2^53 are refused where the formula writes them,
// with what to type instead; the advice, typed as it says, checks.
func TestLargeWholeNumbersAreRefusedAtTheirPlace(t *testing.T) {
	const beyond = "beyond 2^53 (9,007,199,254,740,992), past which planner's numbers skip whole numbers"
	tests := []struct {
		src, want string
		advice    [2]string // the source edited as the message says: replace this by that
	}{
		{"888885888666688885 % 3", "plan.xlsx: Formulas!B7:1: total: 888885888666688885 is a whole number " + beyond +
			": % takes whole numbers, so use one within ±9,007,199,254,740,992\n | 888885888666688885 % 3\n | ^",
			[2]string{"888885888666688885", "9007199254740992"}},
		{"-33333135333333135%2", "plan.xlsx: Formulas!B7:2: total: 33333135333333135 is a whole number " + beyond +
			": % takes whole numbers, so use one within ±9,007,199,254,740,992\n | -33333135333333135%2\n | .^",
			[2]string{"33333135333333135", "3333313533333313"}},
		{"capex + 9223372036854775808", "plan.xlsx: Formulas!B7:9: total: 9223372036854775808 is a whole number " + beyond +
			": write it to the 15 significant digits a spreadsheet keeps, 9.22337203685478e18\n | capex + 9223372036854775808\n | ........^",
			[2]string{"9223372036854775808", "9.22337203685478e18"}},
		{"capex * 1_000_000_000_000_000_000", "plan.xlsx: Formulas!B7:9: total: 1_000_000_000_000_000_000 is a whole number " + beyond +
			": write it to the 15 significant digits a spreadsheet keeps, 1e18\n | capex * 1_000_000_000_000_000_000\n | ........^",
			[2]string{"1_000_000_000_000_000_000", "1e18"}},
		{"gpus + 0x20000000000001", "plan.xlsx: Formulas!B7:8: total: 0x20000000000001 is a whole number " + beyond +
			": write it to the 15 significant digits a spreadsheet keeps, 9.00719925474099e15\n | gpus + 0x20000000000001\n | .......^",
			[2]string{"0x20000000000001", "9.00719925474099e15"}},
		{"3037000500 * 3037000500", "plan.xlsx: Formulas!B7:12: total: this arithmetic of whole numbers can reach 9,223,372,037,000,250,000, " + beyond +
			": write 3037000500 as 3037000500.0 to compute it with decimals, as a spreadsheet does\n | 3037000500 * 3037000500\n | ...........^",
			[2]string{"3037000500 *", "3037000500.0 *"}},
		{"9007199254740992 + 1", "plan.xlsx: Formulas!B7:18: total: this arithmetic of whole numbers can reach 9,007,199,254,740,993, " + beyond +
			": write 9007199254740992 as 9007199254740992.0 to compute it with decimals, as a spreadsheet does\n | 9007199254740992 + 1\n | .................^",
			[2]string{"9007199254740992", "9007199254740992.0"}},
		{"0x5A8A3CB * 0x5A8A3CB", "plan.xlsx: Formulas!B7:11: total: this arithmetic of whole numbers can reach 9,013,235,046,687,481, " + beyond +
			": write 0x5A8A3CB as 94938059.0 to compute it with decimals, as a spreadsheet does\n | 0x5A8A3CB * 0x5A8A3CB\n | ..........^",
			[2]string{"0x5A8A3CB *", "94938059.0 *"}},
		// Either side of a ?: may be the whole number a product takes.
		{"(capex > 0 ? 3037000500 : 1.5) * 3037000500", "plan.xlsx: Formulas!B7:32: total: this arithmetic of whole numbers can reach 9,223,372,037,000,250,000, " + beyond +
			": write 3037000500 as 3037000500.0 to compute it with decimals, as a spreadsheet does\n | (capex > 0 ? 3037000500 : 1.5) * 3037000500\n | ...............................^",
			[2]string{"? 3037000500", "? 3037000500.0"}},
		{"2 * max(94906267, gpus) * 47453134", "plan.xlsx: Formulas!B7:25: total: this arithmetic of whole numbers can reach 9,007,199,610,781,556, " + beyond +
			": write 2 as 2.0 to compute it with decimals, as a spreadsheet does\n | 2 * max(94906267, gpus) * 47453134\n | ........................^",
			[2]string{"2 *", "2.0 *"}},
		// A remainder takes whole numbers: a decimal would not do.
		{"94906267 * 94906267 % 2", "plan.xlsx: Formulas!B7:10: total: this arithmetic of whole numbers can reach 9,007,199,515,875,289, " + beyond +
			": % takes whole numbers, so use numbers that keep it within ±9,007,199,254,740,992\n | 94906267 * 94906267 % 2\n | .........^",
			[2]string{"94906267 * 94906267", "94906267 * 94906"}},
	}
	for _, tt := range tests {
		_, err := Check(Formula{Name: "total", Source: tt.src, Origin: at(7)}, env)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Check(%q):\n got %v\nwant %s", tt.src, err, tt.want)
			continue
		}
		fixed := strings.Replace(tt.src, tt.advice[0], tt.advice[1], 1)
		if _, err := Check(Formula{Name: "total", Source: fixed, Origin: at(7)}, env); err != nil {
			t.Errorf("%q, as the message advises: %v", fixed, err)
		}
	}
}

// Within ±2^53 every whole number, and all arithmetic of them, is exact in
// float64: planner computes what expr computes, and accepts it.
func TestWholeNumbersUpTo2To53Check(t *testing.T) {
	for src, want := range map[string]float64{
		"9007199254740992 % 1000":             992,
		"-9007199254740992 + 0":               -9007199254740992,
		"94906265 * 94906265 % 1000":          225,
		"4503599627370496 + 4503599627370496": 9007199254740992,
		"max(3, 9007199254740992) % 7":        math.Mod(9007199254740992, 7),
		"capex * 94906267 * 94906267":         0,                // capex is a decimal: so is everything after it
		"9007199254740993.0 + 2":              9007199254740994, // a decimal, beyond 2^53 too: the nearest float64
	} {
		c, err := Check(Formula{Name: "x", Source: src}, env)
		if err != nil {
			t.Errorf("Check(%q): %v", src, err)
			continue
		}
		program, err := expr.Compile(src, ExprOptions(env)...)
		if err != nil {
			t.Fatal(err)
		}
		out, err := expr.Run(program, map[string]any{"capex": 0.0, "gpus": 8.0, "residual": 0.0, "gpu": ""})
		if err != nil {
			t.Fatal(err)
		}
		var got float64
		switch v := out.(type) {
		case int:
			got = float64(v)
		case float64:
			got = v
		}
		if got != want {
			t.Errorf("%q: expr gives %v, want %v", src, out, want)
		}
		if _, err := c.Excel(env, func(name string) (string, error) { return name, nil }); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// A remainder takes whole numbers written in the formula: of values the
// formula computes, which expr's checker lets pass when it cannot tell they
// are decimals, expr fails while evaluating and Excel's MOD differs for
// negative values. The advice, followed literally, checks, translates into
// Excel and gives the remainder.
func TestRemainderOfComputedValuesIsRefused(t *testing.T) {
	for src, advised := range map[string]string{
		"gpus % 8":                "(gpus) - (8) * floor((gpus) / (8))",
		"max(5, gpus, 1e9) % 7":   "(max(5, gpus, 1e+09)) - (7) * floor((max(5, gpus, 1e+09)) / (7))",
		"(capex > 1 ? 3 : 5) % 2": "(capex > 1 ? 3 : 5) - (2) * floor((capex > 1 ? 3 : 5) / (2))",
	} {
		f := Formula{Name: "total", Source: src, Origin: at(7)}
		_, err := Check(f, env)
		col := strings.Index(src, "%") + 1 // the caret points at the operator
		shown := strings.Replace(src, "1e9", "1e+09", 1)
		want := fmt.Sprintf("plan.xlsx: Formulas!B7:%d: total: %s is a remainder of values planner computes, and %% takes only whole numbers written in the formula, such as 7 %% 3; for the remainder of computed values write %s",
			col, shown, advised)
		if err == nil || !strings.HasPrefix(err.Error(), want+"\n") {
			t.Errorf("Check(%q):\n got %v\nwant %s", src, err, want)
			continue
		}
		c, err := Check(Formula{Name: "total", Source: advised, Origin: at(7)}, env)
		if err != nil {
			t.Errorf("%q, as the message advises: %v", advised, err)
			continue
		}
		if _, err := c.Excel(env, func(name string) (string, error) { return name, nil }); err != nil {
			t.Errorf("%q: %v", advised, err)
		}
	}
	// What it computes: the remainder, for the values planner has.
	program, err := expr.Compile("(gpus) - (8) * floor((gpus) / (8))", ExprOptions(env)...)
	if err != nil {
		t.Fatal(err)
	}
	for gpus, want := range map[float64]float64{8: 0, 13: 5, 7: 7, 72: 0} {
		got, err := expr.Run(program, map[string]any{"capex": 0.0, "gpus": gpus, "residual": 0.0, "gpu": ""})
		if err != nil || got != want {
			t.Errorf("gpus %v: %v %v, want %v", gpus, got, err, want)
		}
	}
}
