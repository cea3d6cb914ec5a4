package formulas

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
)

// Excel translates a checked formula into Excel's formula language (without
// the leading =), so that a spreadsheet recalculates it live. ref gives the
// Excel reference of every name the formula uses: a defined name where the
// workbook has a safe one, otherwise a cell. The translation keeps planner's
// meaning exactly, including where Excel's own operators differ:
//
//   - a % b is Go's remainder, whose sign follows a (MOD's follows b); the
//     language allows % only on whole numbers, which no input is, so a % b
//     is a constant and is written as its value;
//   - and, or, and ?: evaluate only what they need, as planner does (Excel's
//     AND and OR evaluate every argument and pass on its errors): IF(a,b,FALSE)
//     and IF(a,TRUE,b);
//   - a function translates as its row of the table in functions.go says;
//     ceil and floor become -INT(-x) and INT(x), which every spreadsheet has;
//   - text compares case-sensitively, as planner does: EXACT, not =;
//   - Excel negates before it raises to a power (-2^2 is 4) and chains ^
//     from the left, so every power and negation keeps its parentheses.
func (c *Checked) Excel(env Env, ref func(name string) (string, error)) (string, error) {
	t := translator{env: env, ref: ref}
	s, _, err := t.node(c.Tree)
	if err != nil {
		return "", fmt.Errorf("%s: %w", c.Name, err)
	}
	return s, nil
}

// Precedence levels of Excel's operators, tightest first.
const (
	atom = iota
	negation
	power
	product
	sum
	comparison
)

type translator struct {
	env Env
	ref func(name string) (string, error)
}

var excelComparisons = map[string]string{"==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}

// node translates n and reports its precedence level.
func (t translator) node(n ast.Node) (string, int, error) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return strconv.Itoa(n.Value), atom, nil
	case *ast.FloatNode:
		return strings.ToUpper(strconv.FormatFloat(n.Value, 'g', -1, 64)), atom, nil
	case *ast.BoolNode:
		if n.Value {
			return "TRUE", atom, nil
		}
		return "FALSE", atom, nil
	case *ast.StringNode:
		return `"` + strings.ReplaceAll(n.Value, `"`, `""`) + `"`, atom, nil
	case *ast.IdentifierNode:
		r, err := t.ref(n.Value)
		return r, atom, err
	case *ast.UnaryNode:
		return t.unary(n)
	case *ast.BinaryNode:
		return t.binary(n)
	case *ast.ConditionalNode:
		return t.call("IF", n.Cond, n.Exp1, n.Exp2)
	case *ast.BuiltinNode:
		return t.function(n.Name, n.Arguments)
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			return t.function(id.Value, n.Arguments)
		}
	}
	return "", 0, fmt.Errorf("%s has no Excel translation", n.String())
}

func (t translator) unary(n *ast.UnaryNode) (string, int, error) {
	switch n.Operator {
	case "!", "not":
		return t.call("NOT", n.Node)
	case "+":
		return t.node(n.Node)
	}
	s, level, err := t.node(n.Node)
	if level != atom {
		s = "(" + s + ")"
	}
	return "-" + s, negation, err
}

func (t translator) binary(n *ast.BinaryNode) (string, int, error) {
	switch n.Operator {
	case "and", "&&":
		return t.call("IF", n.Left, n.Right, &ast.BoolNode{Value: false})
	case "or", "||":
		return t.call("IF", n.Left, &ast.BoolNode{Value: true}, n.Right)
	case "%":
		v, ok := constant(n)
		if !ok {
			return "", 0, fmt.Errorf("%s is a remainder of values that are not constant", n.String())
		}
		switch {
		case math.IsNaN(v): // a remainder by zero: an error in both
			return "MOD(1,0)", atom, nil
		case v < 0:
			return "-" + strconv.FormatFloat(-v, 'g', -1, 64), negation, nil
		}
		return strconv.FormatFloat(v, 'g', -1, 64), atom, nil
	case "**", "^":
		a, err := t.wrapped(n.Left, atom, false)
		if err != nil {
			return "", 0, err
		}
		b, err := t.wrapped(n.Right, atom, false)
		return a + "^" + b, power, err
	}
	if op, ok := excelComparisons[n.Operator]; ok {
		if t.isText(n.Left) || t.isText(n.Right) {
			return t.textComparison(n)
		}
		return t.infix(n, op, comparison)
	}
	level := map[string]int{"+": sum, "-": sum, "*": product, "/": product}[n.Operator]
	return t.infix(n, n.Operator, level)
}

// infix writes a op b, with parentheses where Excel would group otherwise:
// a looser operand, or a right operand of the same level (a-(b-c)).
func (t translator) infix(n *ast.BinaryNode, op string, level int) (string, int, error) {
	a, err := t.wrapped(n.Left, level, false)
	if err != nil {
		return "", 0, err
	}
	b, err := t.wrapped(n.Right, level, true)
	return a + op + b, level, err
}

// wrapped translates n as an operand at level, in parentheses when it
// binds more loosely (or as loosely, on the right).
func (t translator) wrapped(n ast.Node, level int, right bool) (string, error) {
	s, l, err := t.node(n)
	if l > level || (right && l == level) || (level == atom && l != atom) {
		s = "(" + s + ")"
	}
	return s, err
}

func (t translator) textComparison(n *ast.BinaryNode) (string, int, error) {
	s, _, err := t.call("EXACT", n.Left, n.Right)
	if n.Operator == "!=" {
		s = "NOT(" + s + ")"
	}
	if n.Operator != "==" && n.Operator != "!=" {
		return "", 0, fmt.Errorf("text can only be compared with == and !=")
	}
	return s, atom, err
}

func (t translator) isText(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.StringNode:
		return true
	case *ast.IdentifierNode:
		return t.env[n.Value] == Text
	}
	return false
}

func (t translator) function(name string, args []ast.Node) (string, int, error) {
	f, ok := Lookup(name)
	x := f.excel
	switch {
	case !ok || (x.fn == "" && x.operator == ""):
		return "", 0, fmt.Errorf("the function %s has no Excel translation", name)
	case x.operator != "":
		if len(args) != 2 {
			return "", 0, fmt.Errorf("%s takes two arguments", name)
		}
		return t.binary(&ast.BinaryNode{Operator: x.operator, Left: args[0], Right: args[1]})
	case x.mirrored:
		s, _, err := t.call(x.fn, args...)
		if err != nil {
			return "", 0, err
		}
		return "-" + strings.Replace(s, x.fn+"(", x.fn+"(-(", 1) + ")", negation, nil
	case x.extra != "":
		s, _, err := t.call(x.fn, args...)
		return strings.TrimSuffix(s, ")") + "," + x.extra + ")", atom, err
	}
	return t.call(x.fn, args...)
}

// constant evaluates a whole-number expression of literals, as expr does
// (Go's integer arithmetic); ok is false for anything else.
func constant(n ast.Node) (float64, bool) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return float64(n.Value), true
	case *ast.UnaryNode:
		v, ok := constant(n.Node)
		switch n.Operator {
		case "-":
			return -v, ok
		case "+":
			return v, ok
		}
	case *ast.BinaryNode:
		a, okA := constant(n.Left)
		b, okB := constant(n.Right)
		if !okA || !okB {
			return 0, false
		}
		switch n.Operator {
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		case "*":
			return a * b, true
		case "%":
			return math.Mod(a, b), true // NaN for a remainder by zero
		}
	case *ast.BuiltinNode:
		// expr types max(9) or abs(-3) as an integer, so a remainder may
		// take one: it is as constant as its arguments.
		return constantCall(n.Name, n.Arguments)
	case *ast.CallNode:
		if id, ok := n.Callee.(*ast.IdentifierNode); ok {
			return constantCall(id.Value, n.Arguments)
		}
	}
	return 0, false
}

// constantCall is the value of a built-in function called on constants.
func constantCall(name string, arguments []ast.Node) (float64, bool) {
	fn, ok := Lookup(name)
	if !ok || len(arguments) == 0 {
		return 0, false
	}
	args := make([]float64, len(arguments))
	for i, a := range arguments {
		if args[i], ok = constant(a); !ok {
			return 0, false
		}
	}
	return fn.Call(args...), true
}

// call writes FN(a,b,...).
func (t translator) call(fn string, args ...ast.Node) (string, int, error) {
	parts := make([]string, len(args))
	for i, a := range args {
		s, _, err := t.node(a)
		if err != nil {
			return "", 0, err
		}
		parts[i] = s
	}
	return fn + "(" + strings.Join(parts, ",") + ")", atom, nil
}
