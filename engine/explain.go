package engine

import (
	"fmt"
	"math"

	"github.com/expr-lang/expr/ast"

	"planner/domain"
	"planner/formulas"
)

// explain finds why formula v gave no finite number, or a step on its way
// did, or returns nil when the step lay on a branch not taken: it walks the formula's
// tree with the scenario's values, as expr would run it (only the branch a
// condition takes, and/or short-circuited), and stops at the first operation
// that turns finite operands into a division by zero, an impossible function
// argument or an overflow.
func (p *Plan) explain(v int, st *state, offer string) *EvalError {
	c := p.checked[v]
	w := walker{plan: p, slots: st.slots, missing: st.missing}
	r := w.eval(c.Tree)
	if w.at == nil && finite(r) {
		return nil // a step that was not finite lay on a branch not taken
	}
	e := &EvalError{Formula: c.Formula, Scenario: st.scenario, Offer: offer, Msg: "the result is not a finite number"}
	if w.at != nil {
		fe := formulas.At(c.Formula, w.at, w.why)
		e.Msg, e.Column, e.Snippet = w.why, fe.Column, fe.Snippet
	}
	return e
}

type walker struct {
	plan    *Plan
	slots   []float64
	missing map[string]string // names sizing could not give a value, and why
	at      ast.Node          // where the first problem is
	why     string
}

func (w *walker) fail(n ast.Node, format string, args ...any) float64 {
	if w.at == nil {
		w.at, w.why = n, fmt.Sprintf(format, args...)
	}
	return math.NaN()
}

func (w *walker) eval(n ast.Node) float64 {
	if w.at != nil {
		return math.NaN()
	}
	switch n := n.(type) {
	case *ast.IntegerNode:
		return float64(n.Value)
	case *ast.FloatNode:
		return n.Value
	case *ast.BoolNode:
		return truth(n.Value)
	case *ast.StringNode:
		return w.plan.prog.text[n.Value]
	case *ast.IdentifierNode:
		if why, ok := w.missing[n.Value]; ok {
			return w.fail(n, "%s has no value: %s", n.Value, why)
		}
		if s, ok := w.plan.prog.inputSlot[n.Value]; ok {
			return w.slots[s]
		}
		return w.slots[w.plan.prog.formulaSlot[w.plan.index[n.Value]]]
	case *ast.UnaryNode:
		x := w.eval(n.Node)
		switch n.Operator {
		case "-":
			return -x
		case "!", "not":
			return truth(x == 0)
		}
		return x
	case *ast.BinaryNode:
		return w.binary(n)
	case *ast.ConditionalNode:
		if w.eval(n.Cond) != 0 {
			return w.eval(n.Exp1)
		}
		return w.eval(n.Exp2)
	case *ast.BuiltinNode:
		return w.call(n, n.Name, n.Arguments)
	case *ast.CallNode:
		return w.call(n, n.Callee.(*ast.IdentifierNode).Value, n.Arguments)
	}
	return math.NaN()
}

func (w *walker) binary(n *ast.BinaryNode) float64 {
	op := binaryOps[n.Operator]
	x := w.eval(n.Left)
	if op == opAnd && x == 0 {
		return 0
	}
	if op == opOr && x != 0 {
		return 1
	}
	y := w.eval(n.Right)
	if w.at != nil {
		return math.NaN()
	}
	if (op == opDiv || op == opMod) && y == 0 {
		if literal(n.Right) {
			return w.fail(n, "division by zero")
		}
		return w.fail(n, "division by zero: %s is 0", source(n.Right))
	}
	r := apply(op, x, y)
	if op == opPow && math.IsNaN(r) {
		return w.fail(n, "%s raised to %s has no real value", domain.Num(x), domain.Num(y))
	}
	return w.check(n, r)
}

func (w *walker) call(n ast.Node, name string, args []ast.Node) float64 {
	xs := make([]float64, len(args))
	for i, a := range args {
		xs[i] = w.eval(a)
	}
	if w.at != nil {
		return math.NaN()
	}
	f, _ := formulas.Lookup(name)
	if f.Domain != nil {
		if why := f.Domain(xs, func(i int) string { return source(args[i]) }); why != "" {
			return w.fail(n, "%s", why)
		}
	}
	r := f.Call(xs...)
	if f.Variadic {
		return r // min and max give one of their arguments, already walked
	}
	return w.check(n, r)
}

// check reports an operation whose finite operands gave a non-finite result.
func (w *walker) check(n ast.Node, r float64) float64 {
	if math.IsInf(r, 0) {
		return w.fail(n, "the result is too large to be a number (overflow)")
	}
	if math.IsNaN(r) {
		return w.fail(n, "the result is not a number")
	}
	return r
}

// source prints a sub-expression for a message: a name as it is, anything
// else in parentheses.
func source(n ast.Node) string {
	if id, ok := n.(*ast.IdentifierNode); ok {
		return id.Value
	}
	return "(" + n.String() + ")"
}

func literal(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.IntegerNode, *ast.FloatNode:
		return true
	case *ast.UnaryNode:
		return literal(n.Node)
	}
	return false
}
