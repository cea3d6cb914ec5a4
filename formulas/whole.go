package formulas

import (
	"fmt"
	"math/big"
	"sort"
	"strconv"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
	"github.com/expr-lang/expr/parser/lexer"

	"planner/diag"
)

// MaxWhole is 2^53, up to which float64, the numbers planner computes
// with, holds every whole number exactly; beyond it float64 skips some
// (2^53 + 1 is 2^53). expr, which defines the language, computes a
// formula's whole numbers (3 * 4, 7 % 2, max(2, 5)) as integers, and a
// spreadsheet keeps 15 digits of a number: beyond MaxWhole the three
// would give three answers to 888885888666688885 % 3. Check refuses a
// whole number that may leave ±MaxWhole, where the formula writes it.
const MaxWhole = 1 << 53

var maxWhole = big.NewInt(MaxWhole)

// largeLiterals finds the whole numbers f writes beyond MaxWhole, those
// too large for expr to read among them, each as a problem at the number.
// A number in a remainder's operands gets other advice than a decimal:
// % takes whole numbers only.
func largeLiterals(f Formula, config *conf.Config) diag.Diagnostics {
	if !mayWriteLarge(f.Source) {
		return nil
	}
	tokens, err := lexer.Lex(file.NewSource(f.Source))
	if err != nil {
		return nil // the parser reports it
	}
	// The source with each large number written 1 and blanks, its places
	// unchanged: it parses, and shows which numbers a remainder takes.
	patched := []rune(f.Source)
	var large []lexer.Token
	for _, t := range tokens {
		if n, ok := wholeLiteral(t); ok && n.CmpAbs(maxWhole) > 0 {
			large = append(large, t)
			for i := t.Location.From; i < t.Location.To; i++ {
				patched[i] = ' '
			}
			patched[t.Location.From] = '1'
		}
	}
	if len(large) == 0 {
		return nil
	}
	inRemainder := map[int]bool{}
	if tree, err := parser.ParseWithConfig(string(patched), config); err == nil {
		walk(tree.Node, func(n ast.Node) {
			if b, ok := n.(*ast.BinaryNode); ok && b.Operator == "%" {
				wholeLiterals(b, func(lit *ast.IntegerNode) { inRemainder[lit.Location().From] = true })
			}
		})
	}
	sort.Slice(large, func(i, j int) bool { return large[i].Location.From < large[j].Location.From })
	var problems diag.Diagnostics
	for _, t := range large {
		n, _ := wholeLiteral(t)
		problems = append(problems, atLocation(f, t.Location, largeLiteral(t.Value, n, inRemainder[t.Location.From])))
	}
	return problems
}

// mayWriteLarge says whether src has a run of 14 digits: a whole number
// beyond MaxWhole has at least 14 (hexadecimal) digits, and most formulas
// need not be read token by token to know they have none.
func mayWriteLarge(src string) bool {
	run := 0
	for i := 0; i < len(src); i++ {
		if c := src[i]; c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '_' {
			if run++; run >= 14 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// wholeLiteral reads a number token as expr does: a whole number unless
// it has a decimal point or an exponent (and is not hexadecimal).
func wholeLiteral(t lexer.Token) (*big.Int, bool) {
	if t.Kind != lexer.Number {
		return nil, false
	}
	digits := strings.ReplaceAll(t.Value, "_", "")
	lower := strings.ToLower(digits)
	base := 10
	switch {
	case strings.HasPrefix(lower, "0x"):
		base = 0
	case strings.ContainsAny(lower, ".e"):
		return nil, false
	case strings.HasPrefix(lower, "0b"), strings.HasPrefix(lower, "0o"):
		base = 0
	}
	return new(big.Int).SetString(digits, base)
}

// beyond is how every message about a large whole number starts.
func beyond(what string) string {
	return fmt.Sprintf("%s beyond 2^53 (%s), past which planner's numbers skip whole numbers", what, grouped(maxWhole))
}

func largeLiteral(text string, n *big.Int, inRemainder bool) string {
	msg := beyond(text + " is a whole number")
	if inRemainder {
		return msg + ": % takes whole numbers, so use one within ±" + grouped(maxWhole)
	}
	approx, _ := new(big.Float).SetInt(n).Float64()
	return msg + ": write it to the 15 significant digits a spreadsheet keeps, " + decimal(approx)
}

// decimal writes v to 15 significant digits as a number with a decimal
// point or an exponent: 1e18, 8.88885888666689e17.
func decimal(v float64) string {
	s := strings.Replace(strconv.FormatFloat(v, 'g', 15, 64), "e+", "e", 1)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// grouped is a whole number with commas between its thousands.
func grouped(n *big.Int) string {
	s := new(big.Int).Abs(n).String()
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// largeWholes finds the whole-number arithmetic of a checked tree that may
// go beyond MaxWhole: the innermost operation at fault, at its operator.
func largeWholes(f Formula, root ast.Node) *diag.Diagnostic {
	_, problem := wholeBound(f, root, false)
	return problem
}

// wholeBound is the largest magnitude n can reach as a whole number, or nil
// when it is never one: expr computes + - * % and abs, max and min of
// whole numbers as whole numbers, and a ?: gives either side; every name
// holds a float64, and every other operation and function gives one.
// inRemainder says that n's whole value is an operand of a remainder.
func wholeBound(f Formula, n ast.Node, inRemainder bool) (*big.Int, *diag.Diagnostic) {
	var problem *diag.Diagnostic
	bound := func(n ast.Node, inRemainder bool) *big.Int {
		if problem != nil {
			return nil
		}
		var b *big.Int
		b, problem = wholeBound(f, n, inRemainder)
		return b
	}
	var out *big.Int
	switch n := n.(type) {
	case *ast.IntegerNode:
		return new(big.Int).Abs(big.NewInt(int64(n.Value))), nil
	case *ast.UnaryNode:
		whole := n.Operator == "-" || n.Operator == "+"
		if b := bound(n.Node, whole && inRemainder); whole {
			out = b
		}
	case *ast.ConditionalNode:
		bound(n.Cond, false)
		out = largest(bound(n.Exp1, inRemainder), bound(n.Exp2, inRemainder))
	case *ast.BinaryNode:
		if !wholeOperator(n.Operator) {
			bound(n.Left, false)
			bound(n.Right, false)
			break
		}
		remainder := inRemainder || n.Operator == "%"
		a, b := bound(n.Left, remainder), bound(n.Right, remainder)
		if a == nil || b == nil || problem != nil {
			break // a decimal makes the result one
		}
		switch n.Operator {
		case "%":
			return largest(a, b), nil // no larger than its operands
		case "*":
			out = new(big.Int).Mul(a, b)
		default:
			out = new(big.Int).Add(a, b)
		}
		if out.Cmp(maxWhole) > 0 {
			return nil, At(f, n, largeArithmetic(f, n, out, inRemainder))
		}
	case *ast.BuiltinNode:
		whole := wholeFunction(n.Name)
		for _, a := range n.Arguments {
			if b := bound(a, whole && inRemainder); whole {
				out = largest(out, b)
			}
		}
	case *ast.CallNode:
		for _, a := range n.Arguments {
			bound(a, false)
		}
	}
	return out, problem
}

// wholeOperator says whether expr computes op over whole numbers as a whole number.
func wholeOperator(op string) bool { return op == "+" || op == "-" || op == "*" || op == "%" }

// wholeFunction says whether the builtin gives a whole number of whole numbers.
func wholeFunction(name string) bool { return name == "abs" || name == "max" || name == "min" }

// largest is the larger of two bounds, either of which may be nil.
func largest(a, b *big.Int) *big.Int {
	if a == nil || (b != nil && b.Cmp(a) > 0) {
		return b
	}
	return a
}

// largeArithmetic says that an operation over whole numbers may go beyond
// MaxWhole, and what to write instead: a decimal point in one of its
// numbers, or, in a remainder, which takes whole numbers only, smaller
// numbers.
func largeArithmetic(f Formula, n *ast.BinaryNode, reach *big.Int, inRemainder bool) string {
	msg := beyond("this arithmetic of whole numbers can reach " + grouped(reach) + ",")
	var first *ast.IntegerNode
	wholeLiterals(n, func(lit *ast.IntegerNode) {
		if first == nil {
			first = lit
		}
	})
	if inRemainder || first == nil {
		return msg + ": % takes whole numbers, so use numbers that keep it within ±" + grouped(maxWhole)
	}
	return fmt.Sprintf("%s: write %s as %d.0 to compute it with decimals, as a spreadsheet does", msg, written(f, first), first.Value)
}

// written is the literal as f's source writes it: 1_000 or 0x3e8.
func written(f Formula, lit *ast.IntegerNode) string {
	src, at := []rune(f.Source), lit.Location()
	if at.From < at.To && at.To <= len(src) {
		return string(src[at.From:at.To])
	}
	return strconv.Itoa(lit.Value)
}

// wholeLiterals calls fn on every number literal whose whole value n's
// value is made of, left to right.
func wholeLiterals(n ast.Node, fn func(*ast.IntegerNode)) {
	switch n := n.(type) {
	case *ast.IntegerNode:
		fn(n)
	case *ast.UnaryNode:
		if n.Operator == "-" || n.Operator == "+" {
			wholeLiterals(n.Node, fn)
		}
	case *ast.ConditionalNode:
		wholeLiterals(n.Exp1, fn)
		wholeLiterals(n.Exp2, fn)
	case *ast.BinaryNode:
		if wholeOperator(n.Operator) {
			wholeLiterals(n.Left, fn)
			wholeLiterals(n.Right, fn)
		}
	case *ast.BuiltinNode:
		if wholeFunction(n.Name) {
			for _, a := range n.Arguments {
				wholeLiterals(a, fn)
			}
		}
	}
}

// computedRemainder refuses a remainder of values the formula computes
// (min(3, b) % 2): expr takes one only when its type checker cannot tell
// the operands are decimals, it then fails while evaluating, and Excel's
// MOD differs from it for negative values. A remainder of numbers written
// in the formula is computed once, for Excel too. The advice is the
// remainder spelled with floor, which both compute alike.
func computedRemainder(f Formula, root ast.Node) *diag.Diagnostic {
	var problem *diag.Diagnostic
	walk(root, func(n ast.Node) {
		b, ok := n.(*ast.BinaryNode)
		if !ok || b.Operator != "%" || problem != nil {
			return
		}
		_, okA := constant(b.Left)
		_, okB := constant(b.Right)
		if okA && okB {
			return
		}
		x, y := b.Left.String(), b.Right.String()
		problem = At(f, b, fmt.Sprintf("%s is a remainder of values planner computes, and %% takes only whole numbers written in the formula, such as 7 %% 3; for the remainder of computed values write (%s) - (%s) * floor((%s) / (%s))", b.String(), x, y, x, y))
	})
	return problem
}
