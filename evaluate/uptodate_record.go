package evaluate

import (
	"encoding/binary"
	"math"
	"reflect"

	"planner/domain"
	"planner/montecarlo"
)

// A memory's body is the Monte Carlo results in a layout of planner's own:
// little-endian, fixed-width numbers, every list led by its length. Inputs
// and offers are kept as their places in the model. Decoding checks every
// length against the shape before it allocates, so that a memory, whatever
// it says, costs no more than the results it stands for.

// shape is what a run knows of its Monte Carlo results before it reads a
// memory of them: one result per scenario, of the samples and seed asked,
// sampling and holding the model's inputs and comparing its offers, each in
// the model's order, and summarising at most every formula.
type shape struct {
	scenarios []domain.Scenario
	inputs    []domain.Input
	offers    []domain.Offer
	formulas  int
	samples   int
	seed      uint64
}

// shapeOf is the shape of the run's Monte Carlo results.
func (r *run) shapeOf(rep *Report) shape {
	m := rep.Plan.Model()
	return shape{scenarios: rep.Plan.Scenarios(rep.Set), inputs: m.Inputs, offers: m.Offers,
		formulas: len(rep.Plan.Checked()), samples: r.opts.Samples, seed: r.opts.Seed}
}

// The fewest bytes an element of each list takes.
const (
	indexBytes      = 4
	heldBytes       = indexBytes + 8 + 2
	statsBytes      = 2*4 + 8*8 + 2*4
	ownCheaperBytes = indexBytes + 8 + 1 + 8 + 8
)

// encodeResults is the body that remembers mcs, which have shape s; ok is
// false when it would not give them back to the bit.
func encodeResults(mcs []*montecarlo.Result, s shape) (body []byte, ok bool) {
	e := &encoder{}
	e.list(len(mcs), mcs == nil)
	for i, r := range mcs {
		if i >= len(s.scenarios) || r.Scenario != s.scenarios[i].Name {
			return nil, false
		}
		e.result(r, s)
	}
	if e.bad {
		return nil, false
	}
	back, ok := decodeResults(e.b, s)
	return e.b, ok && exactly(reflect.ValueOf(mcs), reflect.ValueOf(back))
}

// decodeResults is the Monte Carlo results a body remembers, one per
// scenario of s; ok is false for a body that does not fit s or has bytes
// left over.
func decodeResults(body []byte, s shape) (mcs []*montecarlo.Result, ok bool) {
	d := &decoder{b: body}
	if d.list(len(s.scenarios), 1) != len(s.scenarios) {
		return nil, false
	}
	mcs = make([]*montecarlo.Result, len(s.scenarios))
	for i, sc := range s.scenarios {
		if mcs[i] = d.result(s, sc.Name); d.bad {
			return nil, false
		}
	}
	return mcs, len(d.b) == 0
}

type encoder struct {
	b   []byte
	bad bool // something would not come back
}

func (e *encoder) u32(n int) {
	if n < 0 || uint64(n) > math.MaxUint32 {
		e.bad = true
		return
	}
	e.b = binary.LittleEndian.AppendUint32(e.b, uint32(n))
}

func (e *encoder) u64(v uint64) { e.b = binary.LittleEndian.AppendUint64(e.b, v) }

func (e *encoder) count(n int) {
	if n < 0 {
		e.bad = true
	}
	e.u64(uint64(n))
}

func (e *encoder) f64(v float64) { e.u64(math.Float64bits(v)) }

func (e *encoder) flag(v bool) {
	b := byte(0)
	if v {
		b = 1
	}
	e.b = append(e.b, b)
}

func (e *encoder) str(s string) {
	e.u32(len(s))
	e.b = append(e.b, s...)
}

// list writes a list's length: 0 for none, else one more than it holds.
func (e *encoder) list(n int, none bool) {
	if none {
		e.u32(0)
	} else {
		e.u32(n + 1)
	}
}

// index writes the place of the element that matches among the n after
// *from, and moves *from past it.
func (e *encoder) index(from *int, n int, match func(int) bool) {
	for i := *from; i < n; i++ {
		if match(i) {
			e.u32(i)
			*from = i + 1
			return
		}
	}
	e.bad = true
}

func (e *encoder) result(r *montecarlo.Result, s shape) {
	e.str(r.Scenario)
	e.count(r.Samples)
	e.u64(r.Seed)
	e.list(len(r.Sampled), r.Sampled == nil)
	from := 0
	for _, in := range r.Sampled {
		e.index(&from, len(s.inputs), func(i int) bool { return s.inputs[i] == in })
	}
	e.list(len(r.Held), r.Held == nil)
	from = 0
	for _, h := range r.Held {
		e.index(&from, len(s.inputs), func(i int) bool { return s.inputs[i] == h.Input })
		e.f64(h.Value)
		e.flag(h.Set)
		e.flag(h.ByDistribution)
	}
	e.count(r.Good)
	e.str(r.FirstFailure)
	e.list(len(r.Outputs), r.Outputs == nil)
	for i := range r.Outputs {
		e.stats(&r.Outputs[i])
	}
	e.list(len(r.OwnCheaper), r.OwnCheaper == nil)
	from = 0
	for _, oc := range r.OwnCheaper {
		e.index(&from, len(s.offers), func(i int) bool { return s.offers[i] == *oc.Offer })
		e.f64(oc.Probability)
		e.flag(oc.NPV != nil)
		if oc.NPV != nil {
			e.stats(oc.NPV)
		}
		e.f64(oc.NPVAboveZero)
		e.count(oc.Evaluated)
	}
}

func (e *encoder) stats(st *montecarlo.Stats) {
	e.str(st.Name)
	e.str(st.Unit)
	for _, f := range figures(st) {
		e.f64(*f)
	}
	e.list(len(st.Histogram), st.Histogram == nil)
	for _, n := range st.Histogram {
		e.count(n)
	}
	e.list(len(st.Edges), st.Edges == nil)
	for _, f := range st.Edges {
		e.f64(f)
	}
}

// figures are the numbers of a summary, in the order a memory keeps them.
func figures(st *montecarlo.Stats) [8]*float64 {
	return [8]*float64{&st.Mean, &st.P5, &st.P50, &st.P95, &st.Min, &st.Max, &st.Base, &st.BaseRank}
}

type decoder struct {
	b   []byte // what is left to read
	bad bool   // the body does not fit the shape
}

func (d *decoder) take(n int) []byte {
	if d.bad || n < 0 || n > len(d.b) {
		d.bad = true
		return nil
	}
	out := d.b[:n:n]
	d.b = d.b[n:]
	return out
}

func (d *decoder) u32() int {
	if b := d.take(4); b != nil {
		return int(binary.LittleEndian.Uint32(b))
	}
	return 0
}

func (d *decoder) u64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

// count reads a count of samples, at most most.
func (d *decoder) count(most int) int {
	n := d.u64()
	if n > uint64(most) {
		d.bad = true
		return 0
	}
	return int(n)
}

func (d *decoder) f64() float64 { return math.Float64frombits(d.u64()) }

func (d *decoder) flag() bool {
	b := d.take(1)
	if b != nil && b[0] > 1 {
		d.bad = true
	}
	return b != nil && b[0] == 1
}

// str reads a string, which takes as many bytes of the body as it holds.
func (d *decoder) str() string { return string(d.take(d.u32())) }

// is reads a string and reports whether it is want, allocating nothing.
func (d *decoder) is(want string) bool {
	got := d.take(d.u32())
	return !d.bad && string(got) == want
}

// list reads a list's length, -1 for none, refusing one of more than most
// elements or that the rest of the body cannot hold at each bytes an
// element.
func (d *decoder) list(most, each int) int {
	n := d.u32() - 1
	if d.bad || n > most || n*each > len(d.b) {
		d.bad = true
		return -1
	}
	return n
}

// index reads a place among n after the place after; -1 when it is not.
func (d *decoder) index(after, n int) int {
	i := d.u32()
	if d.bad || i <= after || i >= n {
		d.bad = true
		return -1
	}
	return i
}

func (d *decoder) result(s shape, scenario string) *montecarlo.Result {
	r := &montecarlo.Result{Scenario: scenario, Samples: s.samples, Seed: s.seed}
	if !d.is(scenario) || d.count(s.samples) != s.samples || d.u64() != s.seed {
		d.bad = true
		return nil
	}
	if n := d.list(len(s.inputs), indexBytes); n >= 0 {
		r.Sampled = make([]domain.Input, n)
		at := -1
		for k := range r.Sampled {
			if at = d.index(at, len(s.inputs)); at < 0 {
				return nil
			}
			r.Sampled[k] = s.inputs[at]
		}
	}
	if n := d.list(len(s.inputs), heldBytes); n >= 0 {
		r.Held = make([]montecarlo.Held, n)
		at := -1
		for k := range r.Held {
			if at = d.index(at, len(s.inputs)); at < 0 {
				return nil
			}
			h := &r.Held[k]
			h.Input, h.Value = s.inputs[at], d.f64()
			h.Set = d.flag()
			h.ByDistribution = d.flag()
		}
	}
	r.Good = d.count(s.samples)
	r.FirstFailure = d.str()
	if n := d.list(s.formulas, statsBytes); n >= 0 {
		r.Outputs = make([]montecarlo.Stats, n)
		for k := range r.Outputs {
			d.stats(&r.Outputs[k], s.samples)
		}
	}
	if n := d.list(len(s.offers), ownCheaperBytes); n >= 0 {
		r.OwnCheaper = make([]montecarlo.OwnCheaper, n)
		at := -1
		for k := range r.OwnCheaper {
			if at = d.index(at, len(s.offers)); at < 0 {
				return nil
			}
			oc := &r.OwnCheaper[k]
			oc.Offer, oc.Probability = &s.offers[at], d.f64()
			if d.flag() {
				oc.NPV = &montecarlo.Stats{}
				d.stats(oc.NPV, s.samples)
			}
			oc.NPVAboveZero = d.f64()
			oc.Evaluated = d.count(s.samples)
		}
	}
	if d.bad {
		return nil
	}
	return r
}

func (d *decoder) stats(st *montecarlo.Stats, samples int) {
	st.Name = d.str()
	st.Unit = d.str()
	for _, f := range figures(st) {
		*f = d.f64()
	}
	if n := d.list(math.MaxInt32, 8); n >= 0 {
		st.Histogram = make([]int, n)
		for i := range st.Histogram {
			st.Histogram[i] = d.count(samples)
		}
	}
	if n := d.list(math.MaxInt32, 8); n >= 0 {
		st.Edges = make([]float64, n)
		for i := range st.Edges {
			st.Edges[i] = d.f64()
		}
	}
}

// exactly reports whether a and b hold the same values to the bit: floats
// by their bits (-0 is not 0, a NaN is itself), every field, exported or
// not, and a list or map that is none is not one that is empty.
func exactly(a, b reflect.Value) bool {
	if a.Kind() != b.Kind() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32, reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return exactly(a.Elem(), b.Elem())
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() || a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
			return false
		}
		for i := range a.Len() {
			if !exactly(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			return false
		}
		for _, k := range a.MapKeys() {
			if v := b.MapIndex(k); !v.IsValid() || !exactly(a.MapIndex(k), v) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !exactly(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return false // a func or a channel, which a memory does not keep
}
