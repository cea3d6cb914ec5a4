package engine

import (
	"math"

	"github.com/expr-lang/expr/ast"

	"planner/domain"
)

// program is a compiled model: every formula lowered to three-address
// instructions over a slice of float64 slots, constants folded.
//
// Slot layout: inputs in model order, then offer_price, then one slot per
// formula in model order, then constants and temporaries.
type program struct {
	slots       int
	init        []float64 // constants in place; inputs are filled per scenario
	node        []instr   // formulas that do not depend on offer_price
	offer       []instr   // formulas that do, run once per offer
	inputSlot   map[string]int32
	priceSlot   int32
	renewalSlot int32         // offer_renewal_months, set per offer as the price is
	billing     *billingSlots // nil when every offer bills its used hours alone
	exact       bool          // the break-even is lowered by exactBreakeven
	formulaSlot []int32       // by formula position in model order
	temps       [][2]int32    // by formula position: its temporaries, lo..hi
	text        map[string]float64
}

// lowerer turns typed syntax trees into instructions.
type lowerer struct {
	p      *program
	code   *[]instr
	consts map[uint64]int32 // float bits -> slot
	fixed  []bool           // slot holds a constant
	temps  int32            // the first slot after the formulas' own
}

func compile(plan *Plan) *program {
	m := plan.model
	p := &program{inputSlot: map[string]int32{}, text: map[string]float64{}}
	l := &lowerer{p: p, consts: map[uint64]int32{}}
	for _, in := range m.Inputs {
		p.inputSlot[in.Name] = l.newSlot(0)
	}
	p.priceSlot = l.newSlot(0)
	p.inputSlot[domain.OfferPrice] = p.priceSlot
	p.renewalSlot = l.newSlot(0)
	p.inputSlot[domain.OfferRenewalMonths] = p.renewalSlot
	if m.SizingEnabled() {
		for _, name := range domain.SizingNames() {
			p.inputSlot[name] = l.newSlot(0)
		}
	}
	if m.WattsFromCatalog() {
		p.inputSlot[domain.GPUWatts] = l.newSlot(0)
	}
	for range m.Formulas {
		p.formulaSlot = append(p.formulaSlot, l.newSlot(0))
	}
	l.temps = int32(len(p.init))
	for _, in := range m.Inputs {
		if in.Value.IsText {
			p.intern(in.Value.Text)
		}
	}
	p.temps = make([][2]int32, len(m.Formulas))
	l.lowerBilling(plan)
	exact := l.exactBreakeven(plan)
	p.exact = exact != nil
	for _, v := range plan.order {
		l.code = &p.node
		if plan.perOffer[v] {
			l.code = &p.offer
		}
		lo := int32(len(p.init))
		if exact != nil && plan.checked[v].Name == domain.Breakeven {
			exact(plan.checked[v].Tree, p.formulaSlot[v])
		} else {
			l.formula(plan.checked[v].Tree, p.formulaSlot[v], plan)
		}
		p.temps[v] = [2]int32{lo, int32(len(p.init))}
	}
	p.slots = len(p.init)
	return p
}

// intern gives a piece of text its id; equal texts get equal ids.
func (p *program) intern(s string) float64 {
	id, ok := p.text[s]
	if !ok {
		id = float64(len(p.text) + 1)
		p.text[s] = id
	}
	return id
}

func (l *lowerer) newSlot(v float64) int32 {
	l.p.init = append(l.p.init, v)
	l.fixed = append(l.fixed, false)
	return int32(len(l.p.init) - 1)
}

func (l *lowerer) constant(v float64) int32 {
	key := math.Float64bits(v)
	if s, ok := l.consts[key]; ok {
		return s
	}
	s := l.newSlot(v)
	l.fixed[s] = true
	l.consts[key] = s
	return s
}

// formula lowers one formula so that its value lands in slot dst.
func (l *lowerer) formula(tree ast.Node, dst int32, plan *Plan) {
	root := l.expr(tree, plan)
	code := *l.code
	if n := len(code); n > 0 && code[n-1].dst == root && root >= l.temps && !l.fixed[root] {
		code[n-1].dst = dst
		return
	}
	*l.code = append(code, instr{op: opCopy, dst: dst, a: root, b: root})
}

// emit appends op over a, b, c and returns the slot of its result. When
// every operand is a constant, it folds the operation instead.
func (l *lowerer) emit(op opcode, a, b, c int32) int32 {
	if op == opSel && l.fixed[a] {
		if l.p.init[a] != 0 {
			return b
		}
		return c
	}
	if l.fixed[a] && l.fixed[b] && (op != opSel || l.fixed[c]) {
		// A constant that is not finite (1/0) is not folded: computed at run
		// time it lands in a temporary, where evaluation finds and explains it.
		if v := apply(op, l.p.init[a], l.p.init[b]); !math.IsNaN(v) && !math.IsInf(v, 0) {
			return l.constant(v)
		}
	}
	dst := l.newSlot(0)
	*l.code = append(*l.code, instr{op: op, dst: dst, a: a, b: b, c: c})
	return dst
}

var binaryOps = map[string]opcode{
	"+": opAdd, "-": opSub, "*": opMul, "/": opDiv, "%": opMod, "**": opPow, "^": opPow,
	"==": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe,
	"and": opAnd, "&&": opAnd, "or": opOr, "||": opOr,
}

// expr lowers a checked node. formulas.Check has already refused every
// construct this does not handle.
func (l *lowerer) expr(n ast.Node, plan *Plan) int32 {
	switch n := n.(type) {
	case *ast.IntegerNode:
		return l.constant(float64(n.Value))
	case *ast.FloatNode:
		return l.constant(n.Value)
	case *ast.BoolNode:
		return l.constant(truth(n.Value))
	case *ast.StringNode:
		return l.constant(l.p.intern(n.Value))
	case *ast.IdentifierNode:
		if s, ok := l.p.inputSlot[n.Value]; ok {
			return s
		}
		return l.p.formulaSlot[plan.index[n.Value]]
	case *ast.UnaryNode:
		x := l.expr(n.Node, plan)
		switch n.Operator {
		case "-":
			return l.emit(opNeg, x, x, x)
		case "!", "not":
			return l.emit(opNot, x, x, x)
		}
		return x
	case *ast.BinaryNode:
		a, b := l.expr(n.Left, plan), l.expr(n.Right, plan)
		return l.emit(binaryOps[n.Operator], a, b, b)
	case *ast.ConditionalNode:
		c, a, b := l.expr(n.Cond, plan), l.expr(n.Exp1, plan), l.expr(n.Exp2, plan)
		return l.emit(opSel, c, a, b)
	case *ast.BuiltinNode:
		return l.call(n.Name, n.Arguments, plan)
	case *ast.CallNode:
		return l.call(n.Callee.(*ast.IdentifierNode).Value, n.Arguments, plan)
	}
	panic("engine: formula construct not lowered: " + n.String())
}

// call lowers a call of a built-in function as formulas.Function.Call
// computes it: a function of one argument gets it as both operands, a
// variadic one is folded from the left.
func (l *lowerer) call(name string, args []ast.Node, plan *Plan) int32 {
	slots := make([]int32, len(args))
	for i, a := range args {
		slots[i] = l.expr(a, plan)
	}
	op, f := functionOp(name)
	if !f.Variadic {
		last := slots[len(slots)-1]
		return l.emit(op, slots[0], last, last)
	}
	acc := slots[0]
	for _, s := range slots[1:] {
		acc = l.emit(op, acc, s, s)
	}
	return acc
}
