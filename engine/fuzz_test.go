package engine

import (
	"math"
	"testing"

	"github.com/expr-lang/expr"

	"planner/domain"
	"planner/formulas"
)

// FuzzEval is the differential test of planner's evaluator: for any formula
// the language accepts, the compiled program (one scenario at a time and
// column-wise) gives what expr's own VM gives, or reports an error where expr
// would have produced a value that is not finite.
func FuzzEval(f *testing.F) {
	for _, lib := range formulas.Library() {
		f.Add(lib.Source, 2.5, 8.0, 0.5, "H100 SXM")
	}
	for _, s := range []string{
		"a / b", "a % 3", "-a ** 2", "a ^ b", "min(a, b, c) + max(c, 1)", "abs(-a) + ceil(b) - floor(c) + round(a)",
		"sqrt(b) + pow(a, c) + exp(c) + log(b) + log10(b)", "a > b ? a : b", "a > 1 && b < 2 || !(c == 0) ? 1 : 0",
		"g == \"H100 SXM\" ? a : b", "g != \"B200\" and a >= b ? 1.5 : -1.5", "1 / (a / (b - b))", "a == 0 ? 0 : b / a",
		"7 / 2 + 2 ** 3 - 5 % 3", "if a > b { a } else { b }", "min(1, 2.5) + max(-0, 0)",
	} {
		f.Add(s, 3.0, 0.0, 2.0, "H100 SXM")
	}
	f.Fuzz(func(t *testing.T, src string, a, b, c float64, g string) {
		for _, x := range []float64{a, b, c} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return
			}
		}
		env := formulas.Env{"a": formulas.Number, "b": formulas.Number, "c": formulas.Number, "g": formulas.Text}
		if _, err := formulas.Check(formulas.Formula{Name: "x", Source: src}, env); err != nil {
			return
		}
		m := domain.Model{Inputs: []domain.Input{{Name: "a", Value: domain.Num(a)}, {Name: "b", Value: domain.Num(b)}, {Name: "c", Value: domain.Num(c)}, {Name: "g", Value: domain.Text(g)}},
			Formulas: []formulas.Formula{{Name: "x", Source: src}}}
		p, err := Build(m)
		if err != nil {
			t.Fatalf("Check accepted %q but Build refused it: %v", src, err)
		}
		res, err := p.Eval(domain.Scenario{Name: domain.Base})
		if err != nil {
			t.Fatal(err)
		}
		program, err := expr.Compile(src, formulas.ExprOptions(env)...)
		if err != nil {
			return
		}
		out, err := expr.Run(program, map[string]any{"a": a, "b": b, "c": c, "g": g})
		if err != nil {
			return // expr's own runtime errors (integer division by zero, min over mixed types)
		}
		want, ok := asFloat(out)
		if !ok {
			t.Fatalf("%q: expr gave %T %v", src, out, out)
		}
		got, has := res.Values["x"]
		switch {
		case !has && res.Errors["x"] == nil:
			t.Fatalf("%q: no value and no error", src)
		case !has:
			// planner refuses a division by zero or a non-finite step even
			// where expr carries on; it must not refuse a clean evaluation.
			if finite(want) && !hasHiddenNonFinite(p, a, b, c) {
				t.Fatalf("%q with a=%v b=%v c=%v: planner says %v, expr gives %v", src, a, b, c, res.Errors["x"], want)
			}
		case !same(got, want):
			t.Fatalf("%q with a=%v b=%v c=%v: planner %v, expr %v", src, a, b, c, got, want)
		}
		column(t, p, src, a, b, got, has)
	})
}

// hasHiddenNonFinite reports whether some step of x was not finite, which
// planner treats as an error even when expr's result is finite.
func hasHiddenNonFinite(p *Plan, a, b, c float64) bool {
	st, _, err := p.evalState(domain.Scenario{Name: domain.Base}, true)
	if err != nil {
		return false
	}
	return !finiteAll(st.slots[p.prog.temps[0][0]:p.prog.temps[0][1]]) || !finite(st.slots[p.prog.formulaSlot[0]])
}

// column runs the same formula column-wise, with a and b varying (three
// copies of the same values), and checks it agrees with the scalar result.
// The batch's guards may flag a sample whose value only a branch not taken
// made infinite (a > 0 && a/0 < 0 with a below zero): Monte Carlo
// evaluates a flagged sample alone, as here, and counts it only if that
// fails. A sample the guards pass must have the scalar value. (The samples
// are the scenario's own values, so one that fails alone fails the
// scenario, which stops an evaluation before Monte Carlo.)
func column(t *testing.T, p *Plan, src string, a, b, want float64, has bool) {
	batch, err := p.NewBatch(domain.Scenario{Name: domain.Base}, []string{"a", "b"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	copy(batch.Input(0), []float64{a, a, a})
	copy(batch.Input(1), []float64{b, b, b})
	batch.Run(3)
	bad := make([]bool, 3)
	batch.Failed(bad, 3)
	col, fixed, _ := batch.Column("x")
	for i := 0; i < 3; i++ {
		v := fixed
		if col != nil {
			v = col[i]
		}
		if has && !bad[i] && !same(v, want) {
			t.Fatalf("%q: column %d gives %v (failed %v), one at a time %v", src, i, v, bad[i], want)
		}
	}
}

func asFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	}
	return 0, false
}

func same(a, b float64) bool {
	if a == b || (math.IsNaN(a) && math.IsNaN(b)) {
		return true
	}
	return math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}
