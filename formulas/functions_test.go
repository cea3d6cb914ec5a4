package formulas

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/expr-lang/expr"
)

// functionCases say, for every row of the table, what a call over a, b, c
// (as many as the function takes, three for a variadic one) gives: its Excel
// translation, its value at args, and the explanation at arguments outside
// its domain (none for a function defined wherever its arguments are finite).
var functionCases = map[string]struct {
	excel   string
	args    []float64
	want    float64
	outside []float64
	why     string
}{
	"abs":   {excel: "ABS(a)", args: []float64{-2.5}, want: 2.5},
	"ceil":  {excel: "-INT(-(a))", args: []float64{-2.5}, want: -2},
	"exp":   {excel: "EXP(a)", args: []float64{1}, want: 2.718281828459045},
	"floor": {excel: "INT(a)", args: []float64{-2.5}, want: -3},
	"log":   {excel: "LN(a)", args: []float64{1}, want: 0, outside: []float64{0}, why: "logarithm of a number that is not above zero: a is 0"},
	"log10": {excel: "LOG10(a)", args: []float64{1000}, want: 3, outside: []float64{-1}, why: "logarithm of a number that is not above zero: a is -1"},
	"max":   {excel: "MAX(a,b,c)", args: []float64{1, 4, 0.5}, want: 4},
	"min":   {excel: "MIN(a,b,c)", args: []float64{1, 4, 0.5}, want: 0.5},
	"pow":   {excel: "a^b", args: []float64{2, 10}, want: 1024, outside: []float64{-8, 0.5}, why: "-8 raised to 0.5 has no real value"},
	"round": {excel: "ROUND(a,0)", args: []float64{-2.5}, want: -3},
	"sqrt":  {excel: "SQRT(a)", args: []float64{6.25}, want: 2.5, outside: []float64{-1}, why: "square root of a negative number: a is -1"},
}

var callEnv = Env{"a": Number, "b": Number, "c": Number}

// callOf writes a call of f over n of the names a, b, c.
func callOf(f Function, n int) string {
	return f.Name + "(" + strings.Join([]string{"a", "b", "c"}[:n], ", ") + ")"
}

// Every row is checked, translated into Excel, computed and explained as
// its case says, and expr's own VM computes what planner's Call does.
func TestEveryFunctionChecksTranslatesAndComputes(t *testing.T) {
	var names []string
	for _, f := range Functions() {
		names = append(names, f.Name)
		tt, ok := functionCases[f.Name]
		if !ok {
			t.Errorf("%s has no case in functionCases", f.Name)
			continue
		}
		if f.Arity < 1 || f.Arity > 2 || f.Apply == nil {
			t.Errorf("%s: arity %d, Apply %v: a function takes one or two arguments and computes them", f.Name, f.Arity, f.Apply != nil)
			continue
		}
		src := callOf(f, len(tt.args))
		c, err := Check(Formula{Name: "x", Source: src}, callEnv)
		if err != nil {
			t.Errorf("Check(%s): %v", src, err)
			continue
		}
		got, err := c.Excel(callEnv, func(name string) (string, error) { return name, nil })
		if err != nil || got != tt.excel {
			t.Errorf("%s in Excel: %q, %v; want %q", src, got, err, tt.excel)
		}
		if v := f.Call(tt.args...); v != tt.want {
			t.Errorf("%s at %v = %v, want %v", src, tt.args, v, tt.want)
		}
		for _, xs := range [][]float64{tt.args, tt.outside, {-3, 3, -7}, {7.5, -2, 2}, {math.Copysign(0, -1), 0, 2}} {
			if len(xs) >= len(tt.args) {
				agreesWithExpr(t, f, src, xs[:len(tt.args)])
			}
		}
		why := ""
		if f.Domain != nil && tt.outside != nil {
			why = f.Domain(tt.outside, func(i int) string { return []string{"a", "b", "c"}[i] })
		}
		if why != tt.why || (f.Domain == nil) != (tt.why == "") {
			t.Errorf("%s at %v is explained as %q, want %q", src, tt.outside, why, tt.why)
		}
		if f.Domain != nil && f.Domain(tt.args, nil) != "" {
			t.Errorf("%s at %v is said to have no value", src, tt.args)
		}
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("the table is not sorted by name, once each: %v", names)
	}
	if len(names) != len(functionCases) {
		t.Errorf("%d functions, %d cases", len(names), len(functionCases))
	}
}

// agreesWithExpr runs src with expr's VM, under the language's options, and
// compares it bit for bit with Call.
func agreesWithExpr(t *testing.T, f Function, src string, xs []float64) {
	t.Helper()
	program, err := expr.Compile(src, ExprOptions(callEnv)...)
	if err != nil {
		t.Errorf("expr.Compile(%s): %v", src, err)
		return
	}
	vars := map[string]any{"a": 0.0, "b": 0.0, "c": 0.0}
	for i, x := range xs {
		vars[[]string{"a", "b", "c"}[i]] = x
	}
	out, err := expr.Run(program, vars)
	v, ok := out.(float64)
	want := f.Call(xs...)
	if err != nil || !ok || (math.Float64bits(v) != math.Float64bits(want) && !(math.IsNaN(v) && math.IsNaN(want))) {
		t.Errorf("%s at %v: expr gives %v (%v), Call %v", src, xs, out, err, want)
	}
}

// A call with too few arguments, or too many for a function that is not
// variadic, is refused; an unknown one lists the table.
func TestFunctionArityIsChecked(t *testing.T) {
	for _, f := range Functions() {
		for n := 0; n <= 3; n++ {
			src := callOf(f, n)
			_, err := Check(Formula{Name: "x", Source: src}, callEnv)
			if want := n >= f.Arity && (n == f.Arity || f.Variadic); (err == nil) != want {
				t.Errorf("Check(%s): %v, want accepted %v", src, err, want)
			}
		}
		if got, ok := Lookup(f.Name); !ok || got.Name != f.Name {
			t.Errorf("Lookup(%s) = %v, %v", f.Name, got.Name, ok)
		}
		if ValidName(f.Name) {
			t.Errorf("%s is a function, not a valid name", f.Name)
		}
	}
	if _, ok := Lookup("now"); ok {
		t.Error("Lookup(now) found a function")
	}
	_, err := Check(Formula{Name: "x", Source: "now()"}, callEnv)
	if want := "x: unknown function now; formulas may call abs, ceil, exp, floor, log, log10, max, min, pow, round, sqrt"; err == nil || !strings.HasPrefix(err.Error(), want+"\n") {
		t.Errorf("Check(now()): %v, want %q", err, want)
	}
}
