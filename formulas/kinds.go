package formulas

import (
	"fmt"
	"planner/diag"

	"github.com/expr-lang/expr/ast"
)

// kind is what a sub-expression gives in planner's language. expr's checker
// is more permissive (it adds and orders strings, and types a ?: with
// differing branches as "any"); planner computes only numbers, so text may
// only be compared for equality and a ?: must give numbers or true/false.
type kind uint8

const (
	kNumber kind = iota
	kBool
	kText
)

func (k kind) String() string {
	return [...]string{"a number", "true or false", "text"}[k]
}

// kinds infers the kind of every node of a checked tree and returns the
// first place where text or true/false stand where a number must.
func kinds(f Formula, env Env, n ast.Node) (kind, *diag.Diagnostic) {
	switch n := n.(type) {
	case *ast.IntegerNode, *ast.FloatNode:
		return kNumber, nil
	case *ast.BoolNode:
		return kBool, nil
	case *ast.StringNode:
		return kText, nil
	case *ast.IdentifierNode:
		if env[n.Value] == Text {
			return kText, nil
		}
		return kNumber, nil
	case *ast.UnaryNode:
		k, err := kinds(f, env, n.Node)
		if err != nil {
			return 0, err
		}
		if n.Operator == "!" || n.Operator == "not" {
			return kBool, want(f, n, k, kBool, "not")
		}
		return kNumber, want(f, n, k, kNumber, n.Operator)
	case *ast.BinaryNode:
		return binaryKind(f, env, n)
	case *ast.ConditionalNode:
		return conditionalKind(f, env, n)
	case *ast.BuiltinNode:
		return kNumber, argsAreNumbers(f, env, n, n.Name, n.Arguments)
	case *ast.CallNode:
		return kNumber, argsAreNumbers(f, env, n, n.Callee.(*ast.IdentifierNode).Value, n.Arguments)
	}
	return kNumber, nil
}

func binaryKind(f Formula, env Env, n *ast.BinaryNode) (kind, *diag.Diagnostic) {
	l, err := kinds(f, env, n.Left)
	if err != nil {
		return 0, err
	}
	r, err := kinds(f, env, n.Right)
	if err != nil {
		return 0, err
	}
	switch n.Operator {
	case "==", "!=":
		if l != r {
			return 0, At(f, n, fmt.Sprintf("%s compares %s with %s; both sides must be of one kind", n.Operator, l, r))
		}
		return kBool, nil
	case "and", "or", "&&", "||":
		if err := want(f, n, l, kBool, n.Operator); err != nil {
			return 0, err
		}
		return kBool, want(f, n, r, kBool, n.Operator)
	case "<", "<=", ">", ">=":
		if err := want(f, n, l, kNumber, n.Operator); err != nil {
			return 0, err
		}
		return kBool, want(f, n, r, kNumber, n.Operator)
	}
	if err := want(f, n, l, kNumber, n.Operator); err != nil {
		return 0, err
	}
	return kNumber, want(f, n, r, kNumber, n.Operator)
}

func conditionalKind(f Formula, env Env, n *ast.ConditionalNode) (kind, *diag.Diagnostic) {
	c, err := kinds(f, env, n.Cond)
	if err != nil {
		return 0, err
	}
	if err := want(f, n, c, kBool, "?:"); err != nil {
		return 0, err
	}
	a, err := kinds(f, env, n.Exp1)
	if err != nil {
		return 0, err
	}
	b, err := kinds(f, env, n.Exp2)
	if err != nil {
		return 0, err
	}
	if a != b || a == kText {
		// expr places a ?: at its end; the caret goes under the branch
		// that breaks the rule.
		at := n.Exp2
		if a == kText {
			at = n.Exp1
		}
		return 0, At(f, at, fmt.Sprintf("the two branches of ?: give %s and %s; both must be numbers (or both true or false)", a, b))
	}
	return a, nil
}

func argsAreNumbers(f Formula, env Env, n ast.Node, name string, args []ast.Node) *diag.Diagnostic {
	for _, a := range args {
		k, err := kinds(f, env, a)
		if err != nil {
			return err
		}
		if err := want(f, n, k, kNumber, name); err != nil {
			return err
		}
	}
	return nil
}

// want reports an operand of the wrong kind.
func want(f Formula, n ast.Node, got, need kind, op string) *diag.Diagnostic {
	if got == need {
		return nil
	}
	if got == kText {
		return At(f, n, fmt.Sprintf("%s needs %s, not text; text can only be compared with == or !=", op, need))
	}
	return At(f, n, fmt.Sprintf("%s needs %s, not %s", op, need, got))
}
