package engine

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A batch multiplies by the reciprocal of a power of two instead of
// dividing by it: the same bits for every number, subnormal results and
// infinities included; any other divisor is divided by.
func TestExactReciprocalIsDivision(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -3, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64,
		0x1p-1020, math.MaxFloat64, 730, 285000}
	for range 10000 {
		xs = append(xs, math.Float64frombits(r.Uint64()))
	}
	for _, k := range []float64{8, 1, 2, 0.5, 0x1p-1000, 0x1p1000, 1024} {
		rec, ok := exactReciprocal(k)
		if !ok {
			t.Fatalf("%v: no exact reciprocal", k)
		}
		for _, x := range xs {
			if q, p := x/k, x*rec; math.Float64bits(q) != math.Float64bits(p) && !(math.IsNaN(q) && math.IsNaN(p)) {
				t.Errorf("%v / %v = %v, × %v = %v", x, k, q, rec, p)
			}
		}
	}
	for _, k := range []float64{730, 3, 0, -8, 0x1p1023, math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64} {
		if rec, ok := exactReciprocal(k); ok {
			t.Errorf("%v: reciprocal %v taken as exact", k, rec)
		}
	}
}

// What simplify drops as unchanged is unchanged to the bit for every
// number, ±0, infinities and NaN included; adding +0 is dropped only after
// a sum that cannot be −0, and a sum with a term other than −0 never is.
func TestUnchangedIsTheOperand(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	minus := math.Copysign(0, -1)
	xs := []float64{0, minus, 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}
	for range 10000 {
		xs = append(xs, math.Float64frombits(r.Uint64()))
	}
	bits := func(x float64) uint64 {
		if math.IsNaN(x) {
			return 0x7ff8000000000001
		}
		return math.Float64bits(x)
	}
	ops := map[opcode]float64{opMul: 1, opDiv: 1, opSub: 0, opAdd: minus}
	for op, k := range ops {
		for _, konst := range []uint8{1, 2} {
			in := colInstr{instr: instr{op: op, a: 1, b: 2}, k: k, konst: konst}
			s, ok := in.unchanged(nil)
			if op == opDiv && konst == 2 || op == opSub && konst == 2 {
				if ok {
					t.Errorf("%v with the constant first dropped", op)
				}
				continue
			}
			if !ok {
				t.Errorf("op %v, k %v, konst %d: not taken as unchanged", op, k, konst)
				continue
			}
			for _, x := range xs {
				got := apply(op, x, k)
				if konst == 2 {
					got = apply(op, k, x)
				}
				if s != map[uint8]int32{1: 1, 2: 2}[konst] || bits(got) != bits(x) {
					t.Errorf("op %v, k %v: %v gives %v", op, k, x, got)
				}
			}
		}
	}
	plus := colInstr{instr: instr{op: opAdd, a: 1, b: 2}, k: 0, konst: 1}
	if _, ok := plus.unchanged(nil); ok {
		t.Error("adding +0 to what may be −0 taken as unchanged")
	}
	if _, ok := plus.unchanged(map[int32]bool{1: true}); !ok {
		t.Error("adding +0 to what is never −0 not taken as unchanged")
	}
	for _, k := range xs {
		sum := colInstr{instr: instr{op: opAdd, a: 1, b: 2}, k: k, konst: 1}
		if !sum.addsNoMinusZero(nil) {
			continue
		}
		for _, y := range xs[:200] {
			if s := y + k; s == 0 && math.Signbit(s) {
				t.Errorf("%v + %v is −0, taken as never", y, k)
			}
			if s := y + k; bits(s+0) != bits(s) {
				t.Errorf("%v + %v + 0 is not %v", y, k, s)
			}
		}
	}
}
