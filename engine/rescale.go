package engine

import "math"

// Models state one quantity in several units: the cost per GPU-hour and
// per node-month, the power bill per month and per GPU-hour. An output that
// is another output moved or stretched by constants orders its samples as
// that output does, and since rounding never reverses an order, its k-th
// smallest value is exactly the other's k-th smallest put through the same
// operations. Monte Carlo counts such an output once, through the other,
// and works out its percentiles, smallest and largest from the other's.

// rescaling is how an output follows another: the steps from the source
// output's value to its own, each increasing. The source may itself follow
// a third.
type rescaling struct {
	source int // the output it follows
	steps  []step
}

// step is one operation with a constant operand.
type step struct {
	op    opcode
	k     float64
	first bool // the followed value is the first operand
}

// apply runs the steps on x exactly as the batch runs them on a column.
func (r *rescaling) apply(x float64) float64 {
	for _, s := range r.steps {
		if s.first {
			x = apply(s.op, x, s.k)
		} else {
			x = apply(s.op, s.k, x)
		}
	}
	return x
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
// instructions (writers) while each takes one varying operand and
// otherwise only a constant, in a way that never reverses an order: adding,
// subtracting a constant, multiplying or dividing by one above zero. It
// stops at the first slot isOutput accepts and returns it with the steps
// from there.
func (b *Batch) increasingFrom(slot int32, writers map[int32]*instr, isOutput func(int32) bool) (int32, []step, bool) {
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
		if isOutput(from) {
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
