package grid

import (
	"sync"
	"unsafe"

	"github.com/klauspost/compress/s2"
)

// A formula of packFrom bytes or more is held compressed in its cell,
// behind packedMark (no formula starts with a NUL): the live formulas of
// thousands of offers (a payback is six thousand characters of nested IFs)
// are most of what a large sheet holds until it is written, and each
// compresses to about a quarter.
const (
	packFrom   = 256
	packedMark = '\x00'
)

// scratch is a buffer for packing or unpacking one formula: the formulas
// of one sheet are packed one by one, and this spares them a buffer each.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// packed is formula as a cell holds it: one that starts with the mark
// is packed however short, so that every formula reads back as written.
func packed(formula string) string {
	if len(formula) < packFrom && (formula == "" || formula[0] != packedMark) {
		return formula
	}
	b := scratch.Get().(*[]byte)
	defer scratch.Put(b)
	need := 1 + s2.MaxEncodedLen(len(formula))
	if cap(*b) < need {
		*b = make([]byte, need)
	}
	buf := (*b)[:need]
	buf[0] = packedMark
	n := len(s2.Encode(buf[1:], unsafe.Slice(unsafe.StringData(formula), len(formula))))
	return string(buf[:1+n])
}

// withFormula calls use with the cell's formula as written, unpacked into
// a buffer that use must not keep.
func (c Cell) withFormula(use func(string)) {
	f := c.formula
	if f == "" || f[0] != packedMark {
		use(f)
		return
	}
	src := unsafe.Slice(unsafe.StringData(f[1:]), len(f)-1)
	n, err := s2.DecodedLen(src)
	if err != nil {
		panic("grid: a packed formula does not unpack: " + err.Error())
	}
	b := scratch.Get().(*[]byte)
	defer scratch.Put(b)
	if cap(*b) < n {
		*b = make([]byte, n)
	}
	out, err := s2.Decode((*b)[:n], src)
	if err != nil {
		panic("grid: a packed formula does not unpack: " + err.Error())
	}
	use(unsafe.String(unsafe.SliceData(out), len(out)))
}
