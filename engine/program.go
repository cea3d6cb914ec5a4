package engine

import "math"

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
	opSel // dst = a != 0 ? b : c
	opAbs
	opCeil
	opFloor
	opRound
	opSqrt
	opExp
	opLog
	opLog10
	opMin
	opMax
)

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
		case opCopy:
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

// apply is the meaning of every opcode but opSel. The functions follow expr's
// builtins exactly (its min and max keep the first argument unless another is
// strictly smaller or larger), so that planner and expr agree on every formula.
func apply(op opcode, x, y float64) float64 {
	switch op {
	case opCopy:
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
	case opAbs:
		if x < 0 {
			return -x
		}
		return x
	case opCeil:
		return math.Ceil(x)
	case opFloor:
		return math.Floor(x)
	case opRound:
		return math.Round(x)
	case opSqrt:
		return math.Sqrt(x)
	case opExp:
		return math.Exp(x)
	case opLog:
		return math.Log(x)
	case opLog10:
		return math.Log10(x)
	case opMin:
		if x > y {
			return y
		}
		return x
	case opMax:
		if x < y {
			return y
		}
		return x
	}
	panic("engine: unknown opcode")
}

func truth(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
