package engine

import "math"

// Follows says whether the column of a varying formula is another varying
// formula's moved or stretched by constants. It walks back from formula
// through the batch's varying instructions while each takes one varying
// operand and otherwise only a constant, in a way that never reverses an
// order: adding, subtracting a constant, multiplying or dividing by one
// above zero. It stops at the first formula source accepts and returns
// it, with the function that takes its values to formula's exactly as the
// batch computes them on a column.
func (b *Batch) Follows(formula string, source func(formula string) bool) (string, func(float64) float64, bool) {
	i, ok := b.plan.index[formula]
	if !ok {
		return "", nil, false
	}
	names := map[int32]string{}
	for j, s := range b.plan.prog.formulaSlot {
		names[s] = b.plan.checked[j].Name
	}
	isSource := func(s int32) bool { name, ok := names[s]; return ok && source(name) }
	from, steps, ok := b.increasingFrom(b.plan.prog.formulaSlot[i], b.writers(), isSource)
	if !ok {
		return "", nil, false
	}
	return names[from], func(x float64) float64 {
		for _, s := range steps {
			if s.first {
				x = apply(s.op, x, s.k)
			} else {
				x = apply(s.op, s.k, x)
			}
		}
		return x
	}, true
}

// step is one operation with a constant operand.
type step struct {
	op    opcode
	k     float64
	first bool // the followed value is the first operand
}

// writers maps each slot the batch's varying instructions write to its
// instruction, or to nothing when more than one writes it.
func (b *Batch) writers() map[int32]*instr {
	out := map[int32]*instr{}
	for i, in := range b.node {
		if _, twice := out[in.dst]; twice {
			out[in.dst] = nil
			continue
		}
		out[in.dst] = &b.node[i]
	}
	return out
}

// increasingFrom walks back from slot through the batch's varying
// instructions (writers) while each increases with its one varying
// operand, and stops at the first slot isSource accepts; it returns that
// slot with the steps from there.
func (b *Batch) increasingFrom(slot int32, writers map[int32]*instr, isSource func(int32) bool) (int32, []step, bool) {
	var steps []step
	for cur := slot; ; {
		in := writers[cur]
		if in == nil {
			return 0, nil, false // an input, or a slot written twice
		}
		s, from, ok := b.increasingStep(*in)
		if !ok {
			return 0, nil, false
		}
		steps = append([]step{s}, steps...)
		if isSource(from) {
			return from, steps, true
		}
		cur = from
	}
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
