package formulas

import (
	"errors"
	"fmt"
	"planner/diag"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker"
	"github.com/expr-lang/expr/conf"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/parser"
)

// Kind is what a name holds: a number or a piece of text such as a GPU name.
type Kind uint8

const (
	Number Kind = iota
	Text
)

// Env maps every name a formula may reference to its kind.
type Env map[string]Kind

// Names returns the env's names, sorted.
func (e Env) Names() []string {
	names := make([]string, 0, len(e))
	for n := range e {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Limits against hostile or runaway formulas. A real cost model's formula is
// a line or two; these are far above that and far below what could hurt.
const (
	MaxLength = 4096 // bytes of source
	MaxNodes  = 1000 // expr syntax nodes
	MaxDepth  = 100  // nesting of parentheses and calls
)

// Checked is a formula that parsed and type-checked: its typed syntax tree
// and the names it references, sorted.
type Checked struct {
	Formula
	Tree ast.Node
	Refs []string
}

// ExprOptions are the expr options that define the language over env. The
// engine never runs expr's VM; tests use these options to compare planner's
// evaluator with expr's own.
func ExprOptions(env Env) []expr.Option {
	vars := make(map[string]any, len(env))
	for name, k := range env {
		if k == Text {
			vars[name] = ""
		} else {
			vars[name] = 0.0
		}
	}
	// Of expr's builtins (dates, strings, JSON, collections) the language
	// keeps only those in its table of functions.
	opts := []expr.Option{expr.Env(vars), expr.DisableAllBuiltins(), expr.MaxNodes(MaxNodes)}
	for _, f := range functions {
		if f.builtin {
			opts = append(opts, expr.EnableBuiltin(f.Name))
		} else {
			opts = append(opts, expr.Function(f.Name, wrap(f), signature(f)))
		}
	}
	return opts
}

// wrap runs f for expr's VM, as planner's evaluator runs it.
func wrap(f Function) func(...any) (any, error) {
	return func(params ...any) (any, error) {
		args := make([]float64, len(params))
		for i, p := range params {
			switch v := p.(type) {
			case float64:
				args[i] = v
			case int:
				args[i] = float64(v)
			default:
				return nil, fmt.Errorf("argument %d is %T, not a number", i+1, v)
			}
		}
		return f.Call(args...), nil
	}
}

// signature is f's type for expr's checker: Arity float64 arguments (and
// then any number more, when f is variadic) giving a float64.
func signature(f Function) any {
	float := reflect.TypeFor[float64]()
	in := make([]reflect.Type, f.Arity, f.Arity+1)
	for i := range in {
		in[i] = float
	}
	if f.Variadic {
		in = append(in, reflect.SliceOf(float))
	}
	return reflect.New(reflect.FuncOf(in, []reflect.Type{float}, f.Variadic)).Interface()
}

func newConfig(env Env) *conf.Config {
	c := conf.CreateNew()
	for _, opt := range ExprOptions(env) {
		opt(c)
	}
	for name := range c.Disabled {
		delete(c.Builtins, name)
	}
	c.Check()
	return c
}

// Checker checks formulas against one environment. It builds expr's
// configuration and the sorted name list once, so checking a workbook's
// formulas takes time in proportion to their number.
type Checker struct {
	env    Env
	config *conf.Config
	names  []string
}

// NewChecker prepares to check formulas over env.
func NewChecker(env Env) *Checker {
	return &Checker{env: env, config: newConfig(env), names: env.Names()}
}

// Check is NewChecker(env).Check(f), for a single formula.
func Check(f Formula, env Env) (*Checked, error) { return NewChecker(env).Check(f) }

// Check parses f, checks that it uses only the language's constructs and
// names from the environment, and type-checks it. The result must be a
// number. Every problem found comes back as an *diag.Diagnostic, several as a List.
func (c *Checker) Check(f Formula) (*Checked, error) {
	env, config := c.env, c.config
	if len(f.Source) > MaxLength {
		return nil, &diag.Diagnostic{Origin: f.Origin, Name: f.Name,
			Msg: fmt.Sprintf("the expression is %d characters long; formulas are limited to %d: split it into named parts", len(f.Source), MaxLength)}
	}
	if strings.TrimSpace(f.Source) == "" {
		return nil, &diag.Diagnostic{Origin: f.Origin, Name: f.Name, Msg: "the expression is empty; write one such as capex / gpus"}
	}
	if d := nesting(f.Source); d > MaxDepth {
		return nil, &diag.Diagnostic{Origin: f.Origin, Name: f.Name,
			Msg: fmt.Sprintf("parentheses nest %d deep; formulas are limited to %d: split it into named parts", d, MaxDepth)}
	}
	// A whole number too large for expr fails to parse: it is refused with
	// the others, for what it is.
	if problems := largeLiterals(f, config); len(problems) > 0 {
		return nil, problems.Err()
	}
	tree, err := parser.ParseWithConfig(f.Source, config)
	if err != nil {
		return nil, fromExpr(f, err)
	}
	var problems diag.Diagnostics
	walk(tree.Node, func(n ast.Node) {
		// The outermost construct outside the language is the one to fix;
		// what lies inside it would only repeat the message.
		if msg := disallowed(n); msg != "" && len(problems) == 0 {
			problems = append(problems, At(f, n, msg))
		}
	})
	refs := references(tree.Node)
	for _, r := range refs {
		if _, ok := env[r.Value]; !ok {
			problems = append(problems, At(f, r, unknownName(r.Value, c.names)))
		}
	}
	if len(problems) > 0 {
		return nil, problems.Err()
	}
	if problem := computedRemainder(f, tree.Node); problem != nil {
		return nil, problem
	}
	if _, err := checker.Check(tree, config); err != nil {
		return nil, fromExpr(f, err)
	}
	k, kerr := kinds(f, env, tree.Node)
	if kerr != nil {
		return nil, kerr
	}
	if k != kNumber {
		return nil, &diag.Diagnostic{Origin: f.Origin, Name: f.Name, Msg: notNumber(k)}
	}
	if problem := largeWholes(f, tree.Node); problem != nil {
		return nil, problem
	}
	return &Checked{Formula: f, Tree: tree.Node, Refs: names(refs)}, nil
}

// nesting is the deepest nesting of brackets in src. expr's parser recurses
// once per level, so a pathological depth is refused before parsing.
func nesting(src string) int {
	depth, deepest := 0, 0
	for _, r := range src {
		switch r {
		case '(', '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ')', ']', '}':
			depth--
		}
	}
	return deepest
}

func unknownName(name string, names []string) string {
	if isFunction(name) {
		return fmt.Sprintf("%s is a function; call it with parentheses, e.g. %s(x)", name, name)
	}
	msg := "unknown name " + name
	if s := Suggest(name, names); s != "" {
		return msg + " (did you mean " + s + "?)"
	}
	return msg + "; add it to Assumptions or define it in Formulas"
}

func notNumber(k kind) string {
	if k == kText {
		return "gives text, not a number"
	}
	return "gives true or false, not a number; write condition ? 1 : 0 to turn it into one"
}

// references lists the identifier nodes that name a value (not a called
// function), in source order.
func references(root ast.Node) []*ast.IdentifierNode {
	var refs []*ast.IdentifierNode
	callees := map[ast.Node]bool{}
	walk(root, func(n ast.Node) {
		if c, ok := n.(*ast.CallNode); ok {
			callees[c.Callee] = true
		}
		if id, ok := n.(*ast.IdentifierNode); ok && !callees[n] {
			refs = append(refs, id)
		}
	})
	return refs
}

func names(refs []*ast.IdentifierNode) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range refs {
		if !seen[r.Value] {
			seen[r.Value] = true
			out = append(out, r.Value)
		}
	}
	sort.Strings(out)
	return out
}

// walk calls fn on n and every node below it, parents first.
func walk(n ast.Node, fn func(ast.Node)) {
	if n == nil {
		return
	}
	fn(n)
	switch n := n.(type) {
	case *ast.UnaryNode:
		walk(n.Node, fn)
	case *ast.BinaryNode:
		walk(n.Left, fn)
		walk(n.Right, fn)
	case *ast.ConditionalNode:
		walk(n.Cond, fn)
		walk(n.Exp1, fn)
		walk(n.Exp2, fn)
	case *ast.CallNode:
		walk(n.Callee, fn)
		for _, a := range n.Arguments {
			walk(a, fn)
		}
	case *ast.BuiltinNode:
		for _, a := range n.Arguments {
			walk(a, fn)
		}
	}
}

// allowedBinary are the binary operators of the language.
var allowedBinary = map[string]bool{
	"+": true, "-": true, "*": true, "/": true, "%": true, "**": true, "^": true,
	"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true,
	"and": true, "or": true, "&&": true, "||": true,
}

// disallowed says why n is outside the formula language, or "" when it is in.
func disallowed(n ast.Node) string {
	switch n := n.(type) {
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.StringNode, *ast.IdentifierNode, *ast.ConditionalNode:
		return ""
	case *ast.UnaryNode:
		return ""
	case *ast.BinaryNode:
		if allowedBinary[n.Operator] {
			return ""
		}
		return fmt.Sprintf("the operator %q is not part of planner's formulas; use arithmetic, comparisons, and, or, not and ?:", n.Operator)
	case *ast.BuiltinNode:
		return ""
	case *ast.CallNode:
		id, ok := n.Callee.(*ast.IdentifierNode)
		if ok && isFunction(id.Value) {
			return ""
		}
		name := "this"
		if ok {
			name = id.Value
		}
		return fmt.Sprintf("unknown function %s; formulas may call %s", name, functionNames())
	case *ast.MemberNode, *ast.ChainNode:
		return "fields and indexes (a.b, a[0]) are not part of planner's formulas; every name is a plain input or formula"
	case *ast.NilNode:
		return "nil is not part of planner's formulas"
	}
	return "this construct is not part of planner's formulas; use arithmetic, comparisons, and, or, not, ?: and " + functionNames()
}

// At builds an Error at node n of f, with a caret under it.
func At(f Formula, n ast.Node, msg string) *diag.Diagnostic { return atLocation(f, n.Location(), msg) }

// atLocation builds an Error at a place in f's source, with a caret under it.
func atLocation(f Formula, at file.Location, msg string) *diag.Diagnostic {
	fe := &file.Error{Location: at, Message: msg}
	return fromExpr(f, fe.Bind(file.NewSource(f.Source)))
}

// fromExpr turns expr's positioned error into planner's, keeping the caret.
func fromExpr(f Formula, err error) *diag.Diagnostic {
	var fe *file.Error
	if !errors.As(err, &fe) {
		return &diag.Diagnostic{Origin: f.Origin, Name: f.Name, Msg: err.Error()}
	}
	if fe.Snippet == "" {
		fe = fe.Bind(file.NewSource(f.Source))
	}
	col := 0
	if fe.Snippet != "" {
		col = fe.Column + 1
	}
	return &diag.Diagnostic{Origin: f.Origin, Name: f.Name, Column: col, Msg: fe.Message, Snippet: fe.Snippet}
}

// namesConfig is the configuration Names parses with, built once: building
// it took four times as long as parsing a formula. The parser only reads it.
var namesConfig = sync.OnceValue(func() *conf.Config { return newConfig(Env{}) })

// Names parses src and lists the names it references, sorted, without
// checking that they exist.
func Names(src string) ([]string, error) {
	tree, err := parser.ParseWithConfig(src, namesConfig())
	if err != nil {
		return nil, fromExpr(Formula{Source: src}, err)
	}
	return names(references(tree.Node)), nil
}
