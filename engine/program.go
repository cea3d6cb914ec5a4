package engine

import (
	"math"

	"planner/formulas"
)

// opcode is one operation of the numeric program. Every value is a float64:
// booleans are 1 and 0, text is an interned id compared only for equality.
type opcode uint8

const (
	opCopy opcode = iota // dst = a
	opAdd
	opSub
	opMul
	opDiv
	opMod
	opPow
	opNeg
	opNot
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opAnd
	opOr
	opSel  // dst = a != 0 ? b : c
	opTake // dst = a: the branch an opSel whose condition is the same for a whole batch takes
	opFunc // opFunc+i computes builtins[i] of a and b
)

// builtins are the formula language's functions, in the order of their
// opcodes. Nothing writes to it.
var builtins = formulas.Functions()

// functionOp is the opcode of the function a formula calls by name, which
// formulas.Check has made sure exists.
func functionOp(name string) (opcode, formulas.Function) {
	for i, f := range builtins {
		if f.Name == name {
			return opFunc + opcode(i), f
		}
	}
	panic("engine: unknown function " + name)
}

// instr is a three-address instruction over the slots of one scenario.
type instr struct {
	op           opcode
	dst, a, b, c int32
}

// run executes code over the slots s. It neither allocates nor checks for
// errors: non-finite results are found afterwards, by looking at the slots
// of the formulas, and explained by walking the formula's tree.
func run(code []instr, s []float64) {
	for _, in := range code {
		x, y := s[in.a], s[in.b]
		var v float64
		switch in.op {
		case opCopy, opTake:
			v = x
		case opAdd:
			v = x + y
		case opSub:
			v = x - y
		case opMul:
			v = x * y
		case opDiv:
			v = x / y
		case opSel:
			v = s[in.c]
			if x != 0 {
				v = y
			}
		default:
			v = apply(in.op, x, y)
		}
		s[in.dst] = v
	}
}

// apply is the meaning of every opcode but opSel. A function's meaning is
// its Apply in the formulas' table, which follows expr's builtins exactly,
// so that planner and expr agree on every formula.
func apply(op opcode, x, y float64) float64 {
	switch op {
	case opCopy, opTake:
		return x
	case opAdd:
		return x + y
	case opSub:
		return x - y
	case opMul:
		return x * y
	case opDiv:
		return x / y
	case opMod:
		return math.Mod(x, y)
	case opPow:
		return math.Pow(x, y)
	case opNeg:
		return -x
	case opNot:
		return truth(x == 0)
	case opEq:
		return truth(x == y)
	case opNe:
		return truth(x != y)
	case opLt:
		return truth(x < y)
	case opLe:
		return truth(x <= y)
	case opGt:
		return truth(x > y)
	case opGe:
		return truth(x >= y)
	case opAnd:
		return truth(x != 0 && y != 0)
	case opOr:
		return truth(x != 0 || y != 0)
	}
	if op >= opFunc {
		return builtins[op-opFunc].Apply(x, y)
	}
	panic("engine: unknown opcode")
}

func truth(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
