package formulas

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"planner/diag"
)

// Function is one built-in function of the language. Its row in the table
// below is all there is to it: checking a call, translating it into Excel,
// evaluating it and explaining a call that has no value all read the row.
type Function struct {
	Name string
	// Arity is the number of arguments, one or two, or for a Variadic
	// function the least number.
	Arity    int
	Variadic bool
	// Apply computes the function of one argument (given as both x and y)
	// or of two. A variadic function folds it over its arguments from the
	// left; called with one argument it gives that argument. Call says the
	// same in code.
	Apply func(x, y float64) float64
	// Domain says, in words for the explanation of a formula that gave no
	// number, why the function has no real value at the finite arguments
	// xs, or "" where it has one; arg(i) is the i-th argument as the formula
	// wrote it. A nil Domain means every finite argument has a value (an
	// overflow is found and explained by the evaluator itself).
	Domain func(xs []float64, arg func(i int) string) string

	// builtin marks one of expr's own builtins, which expr checks and runs
	// itself; Apply then does exactly what expr's does. Every other function
	// is given to expr as Call, with a signature of float64 arguments.
	builtin bool
	// excel is how a call translates into Excel's formula language.
	excel excelForm
}

// functions are the built-in functions, sorted by name. Adding one is adding
// its row (and its case in the test of the table): planner's evaluator
// computes it with Apply and explains it with Domain.
var functions = [...]Function{
	{Name: "abs", Arity: 1, Apply: abs, builtin: true, excel: excelCall("ABS")},
	{Name: "ceil", Arity: 1, Apply: ceil, builtin: true, excel: excelMirror("INT")},
	{Name: "exp", Arity: 1, Apply: exponential, excel: excelCall("EXP")},
	{Name: "floor", Arity: 1, Apply: floor, builtin: true, excel: excelCall("INT")},
	{Name: "log", Arity: 1, Apply: naturalLog, Domain: logarithm, excel: excelCall("LN")},
	{Name: "log10", Arity: 1, Apply: commonLog, Domain: logarithm, excel: excelCall("LOG10")},
	{Name: "max", Arity: 1, Variadic: true, Apply: larger, builtin: true, excel: excelCall("MAX")},
	{Name: "min", Arity: 1, Variadic: true, Apply: smaller, builtin: true, excel: excelCall("MIN")},
	{Name: "pow", Arity: 2, Apply: math.Pow, Domain: realPower, excel: excelOperator("**")},
	{Name: "round", Arity: 1, Apply: round, builtin: true, excel: excelCallWith("ROUND", "0")},
	{Name: "sqrt", Arity: 1, Apply: root, Domain: squareRoot, excel: excelCall("SQRT")},
}

// Functions lists every function a formula may call, sorted by name. The
// slice is the caller's own.
func Functions() []Function { return append([]Function(nil), functions[:]...) }

// Lookup finds the function a formula calls by name.
func Lookup(name string) (Function, bool) {
	i := sort.Search(len(functions), func(i int) bool { return functions[i].Name >= name })
	if i < len(functions) && functions[i].Name == name {
		return functions[i], true
	}
	return Function{}, false
}

func isFunction(name string) bool {
	_, ok := Lookup(name)
	return ok
}

// Call computes f over its arguments' values, as planner's evaluator does.
func (f Function) Call(xs ...float64) float64 {
	if !f.Variadic {
		return f.Apply(xs[0], xs[len(xs)-1])
	}
	acc := xs[0]
	for _, x := range xs[1:] {
		acc = f.Apply(acc, x)
	}
	return acc
}

// functionNames lists the functions' names, sorted, for messages.
func functionNames() string {
	names := make([]string, len(functions))
	for i, f := range functions {
		names[i] = f.Name
	}
	return diag.List(names)
}

// The functions of one argument ignore the second, which is the first again.
func ceil(x, _ float64) float64        { return math.Ceil(x) }
func exponential(x, _ float64) float64 { return math.Exp(x) }
func floor(x, _ float64) float64       { return math.Floor(x) }
func naturalLog(x, _ float64) float64  { return math.Log(x) }
func commonLog(x, _ float64) float64   { return math.Log10(x) }
func round(x, _ float64) float64       { return math.Round(x) }
func root(x, _ float64) float64        { return math.Sqrt(x) }

// abs, smaller and larger are expr's abs, min and max: abs keeps -0 as it
// is, and min and max keep the first argument unless the second is
// strictly smaller or larger.
func abs(x, _ float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func smaller(x, y float64) float64 {
	if x > y {
		return y
	}
	return x
}

func larger(x, y float64) float64 {
	if x < y {
		return y
	}
	return x
}

func squareRoot(xs []float64, arg func(int) string) string {
	if xs[0] < 0 {
		return fmt.Sprintf("square root of a negative number: %s is %s", arg(0), num(xs[0]))
	}
	return ""
}

func logarithm(xs []float64, arg func(int) string) string {
	if xs[0] <= 0 {
		return fmt.Sprintf("logarithm of a number that is not above zero: %s is %s", arg(0), num(xs[0]))
	}
	return ""
}

func realPower(xs []float64, _ func(int) string) string {
	if math.IsNaN(math.Pow(xs[0], xs[1])) {
		return fmt.Sprintf("%s raised to %s has no real value", num(xs[0]), num(xs[1]))
	}
	return ""
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// excelForm is how a call translates into Excel's formula language.
type excelForm struct {
	fn       string // Excel's function, called with the call's arguments
	extra    string // an argument Excel needs after them: ROUND(x,0)
	mirrored bool   // -FN(-(x)): ceil rounds up as INT, mirrored, does
	operator string // or planner's operator that the call is: pow(a, b) is a ** b
}

func excelCall(fn string) excelForm            { return excelForm{fn: fn} }
func excelCallWith(fn, extra string) excelForm { return excelForm{fn: fn, extra: extra} }
func excelMirror(fn string) excelForm          { return excelForm{fn: fn, mirrored: true} }
func excelOperator(op string) excelForm        { return excelForm{operator: op} }
