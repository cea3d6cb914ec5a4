package engine

import "math"

// Follows says whether the column of a varying formula, at slot s, is
// another's moved or stretched by constants. It walks back from s through
// the batch's varying instructions while each takes one varying operand and
// otherwise only a constant, in a way that never reverses an order: adding,
// subtracting a constant, multiplying or dividing by one above zero. It
// stops at the first slot isSource accepts and returns it, with the
// function that takes its values to s's exactly as the batch computes them.
func (b *Batch) Follows(s Slot, isSource func(Slot) bool) (Slot, func(float64) float64, bool) {
	var steps []step
	for cur := int32(s); ; {
		in := b.writers()[cur]
		if in == nil {
			return 0, nil, false // an input, or a slot written twice
		}
		st, from, ok := b.increasingStep(*in)
		if !ok {
			return 0, nil, false
		}
		steps = append([]step{st}, steps...)
		if isSource(Slot(from)) {
			return Slot(from), func(x float64) float64 { return through(steps, x) }, true
		}
		cur = from
	}
}

// through runs the steps on x.
func through(steps []step, x float64) float64 {
	for _, s := range steps {
		if s.first {
			x = apply(s.op, x, s.k)
		} else {
			x = apply(s.op, s.k, x)
		}
	}
	return x
}

// step is one operation with a constant operand.
type step struct {
	op    opcode
	k     float64
	first bool // the followed value is the first operand
}

// writers maps each slot the batch's varying instructions write to its
// instruction, or to nothing when more than one writes it; made once.
func (b *Batch) writers() map[int32]*instr {
	if b.writes == nil {
		b.writes = map[int32]*instr{}
		for i, in := range b.node {
			_, twice := b.writes[in.dst]
			b.writes[in.dst] = &b.node[i]
			if twice {
				b.writes[in.dst] = nil
			}
		}
	}
	return b.writes
}

// increasingStep says whether in increases with its one varying operand,
// and which that is.
func (b *Batch) increasingStep(in instr) (step, int32, bool) {
	if in.op == opCopy {
		return step{op: opCopy, first: true}, in.a, b.varies[in.a]
	}
	first := b.varies[in.a]
	if first == b.varies[in.b] {
		return step{}, 0, false // both vary, or neither
	}
	varying, constant := in.a, in.b
	if !first {
		varying, constant = in.b, in.a
	}
	k := b.vec[constant][0] // a constant operand is broadcast into a column
	s := step{op: in.op, k: k, first: first}
	finite := !math.IsInf(k, 0) && !math.IsNaN(k)
	positive := finite && k > 0
	switch {
	case in.op == opAdd && finite,
		in.op == opSub && first && finite,
		in.op == opMul && positive,
		in.op == opDiv && first && positive:
		return s, varying, true
	}
	return step{}, 0, false
}
