package engine

import (
	"math"
	"strings"
	"testing"

	"planner/domain"
	"planner/formulas"
)

// Every function of the formulas' table lowers into the program and gives
// what its Call gives, bit for bit, over inputs and over constants (which
// compiling folds); where it gives no number, evaluation explains why as
// the function's Domain does, or as an overflow.
func TestEveryFunctionLowersAndComputes(t *testing.T) {
	if int(opFunc)+len(builtins) > math.MaxUint8+1 {
		t.Fatalf("%d functions do not fit in an opcode", len(builtins))
	}
	names := []string{"a", "b", "c"}
	for _, f := range formulas.Functions() {
		n := f.Arity
		if f.Variadic {
			n = 3
		}
		for _, xs := range [][]float64{{2.5, 4, 0.5}, {-8, 0.5, -2}, {1000, -1000, 0}} {
			xs = xs[:n]
			literals := make([]string, n)
			for i, x := range xs {
				literals[i] = domain.Num(x).String()
			}
			m := domain.Model{Formulas: []formulas.Formula{
				{Name: "x", Source: f.Name + "(" + strings.Join(names[:n], ", ") + ")"},
				{Name: "k", Source: f.Name + "(" + strings.Join(literals, ", ") + ")"},
			}}
			for i, x := range xs {
				m.Inputs = append(m.Inputs, domain.Input{Name: names[i], Value: domain.Num(x)})
			}
			p, err := Build(m)
			if err != nil {
				t.Fatalf("%s: %v", m.Formulas[0].Source, err)
			}
			r, err := p.Eval(domain.Scenario{Name: domain.Base})
			if err != nil {
				t.Fatal(err)
			}
			want := f.Call(xs...)
			why := "the result is too large to be a number (overflow)"
			if f.Domain != nil {
				if w := f.Domain(xs, func(i int) string { return names[i] }); w != "" {
					why = w
				}
			}
			for _, fm := range m.Formulas {
				got, has := r.Values[fm.Name]
				switch e := r.Errors[fm.Name]; {
				case finite(want) && (!has || math.Float64bits(got) != math.Float64bits(want)):
					t.Errorf("%s: planner %v (%v), Call %v", fm.Source, got, e, want)
				case !finite(want) && (has || e == nil):
					t.Errorf("%s: planner %v, want an error: Call gives %v", fm.Source, got, want)
				case !finite(want) && fm.Name == "x" && e.Msg != why:
					t.Errorf("%s with %v: %q, want %q", fm.Source, xs, e.Msg, why)
				}
			}
		}
	}
}
